/* Parses and sanity-checks the XFS primary superblock from a byte buffer (see xfs_super.h). The
 * checks follow the kernel's xfs_validate_sb_common(), so that what we call sane is what the kernel
 * would mount; field offsets are those of struct xfs_dsb in xfs_format.h. */
#include <stdio.h>
#include <string.h>

#include "probes/fs_crc32c.h"
#include "probes/ondisk.h"
#include "probes/xfs_super.h"

#define XFS_SB_MAGIC 0x58465342u /* "XFSB" */
#define XFS_SB_V4_END 208        /* bytes of the superblock up to sb_bad_features2 */
#define XFS_SB_V5_END 264        /* up to sb_meta_uuid */
#define XFS_SB_CRC_OFF 224
#define XFS_MIN_AG_BLOCKS 64
#define XFS_MAX_AG_BLOCKS 0x7fffffffu
#define XFS_MAX_AG_COUNT 0x7fffffffu
/* Says in out->why what is wrong, as the parser's answer. */
#define damaged(out, ...) (snprintf((out)->why, sizeof((out)->why), __VA_ARGS__), XFS_SUPER_DAMAGED)

/* True when `value` is exactly 2^log with log in [lo, hi]. */
static bool pow2_matches(uint32_t value, unsigned log, unsigned lo, unsigned hi)
{
	return log >= lo && log <= hi && value == (uint32_t)1 << log;
}

static unsigned log2_roundup(uint32_t v)
{
	unsigned r = 0;

	while (r < 32 && ((uint64_t)1 << r) < v)
		r++;
	return r;
}

struct feature_bit {
	int word;          /* which superblock word: see feature_word() */
	uint32_t mask;
	const char *name;  /* the mkfs.xfs option naming it */
};

enum { W_VERSION, W_FEATURES2, W_RO_COMPAT, W_INCOMPAT };

static const struct feature_bit feature_bits[] = {
	{W_FEATURES2, 0x100, "crc"},
	{W_RO_COMPAT, 1u << 0, "finobt"},
	{W_RO_COMPAT, 1u << 1, "rmapbt"},
	{W_RO_COMPAT, 1u << 2, "reflink"},
	{W_RO_COMPAT, 1u << 3, "inobtcount"},
	{W_INCOMPAT, 1u << 0, "ftype"},
	{W_INCOMPAT, 1u << 1, "sparse"},
	{W_INCOMPAT, 1u << 2, "meta_uuid"},
	{W_INCOMPAT, 1u << 3, "bigtime"},
	{W_INCOMPAT, 1u << 4, "needsrepair"},
	{W_INCOMPAT, 1u << 5, "nrext64"},
	{W_INCOMPAT, 1u << 6, "exchange"},
	{W_INCOMPAT, 1u << 7, "parent"},
	{W_INCOMPAT, 1u << 8, "metadir"},
	{W_FEATURES2, 0x2, "lazy-count"},
	{W_FEATURES2, 0x8, "attr2"},
	{W_FEATURES2, 0x80, "projid32bit"},
	{W_VERSION, 0x400, "logv2"},
};

static void collect_features(const unsigned char *sb, unsigned version, struct xfs_super_info *out)
{
	uint32_t words[4] = {be16(sb + 100), 0, 0, 0};

	if (be16(sb + 100) & 0x8000) /* MOREBITS: sb_features2 is meaningful */
		words[W_FEATURES2] = be32(sb + 200);
	if (version == 5) {
		words[W_RO_COMPAT] = be32(sb + 212);
		words[W_INCOMPAT] = be32(sb + 216);
		/* v5 has ftype as an incompat bit; v4 as a features2 bit */
	} else if (words[W_FEATURES2] & 0x200) {
		out->features[out->n_features++] = "ftype";
	}
	for (size_t i = 0; i < sizeof(feature_bits) / sizeof(feature_bits[0]); i++) {
		if ((words[feature_bits[i].word] & feature_bits[i].mask) &&
		    out->n_features < XFS_SUPER_MAX_FEATURES)
			out->features[out->n_features++] = feature_bits[i].name;
	}
}

static void format_uuid(const unsigned char *u, char out[37])
{
	snprintf(out, 37, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0],
		 u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14],
		 u[15]);
}

static enum xfs_super_result check_geometry(const unsigned char *sb, struct xfs_super_info *out)
{
	unsigned blocklog = sb[120], sectlog = sb[121], inodelog = sb[122], agblklog = sb[124];
	uint32_t inopblock = be16(sb + 106);

	out->block_size = be32(sb + 4);
	out->sector_size = be16(sb + 102);
	out->inode_size = be16(sb + 104);
	out->ag_blocks = be32(sb + 84);
	out->ag_count = be32(sb + 88);
	out->data_blocks = be64(sb + 8);

	if (!pow2_matches(out->block_size, blocklog, 9, 16))
		return damaged(out, "block size %u is not 2^%u in 512..65536", out->block_size, blocklog);
	if (!pow2_matches(out->sector_size, sectlog, 9, 15) || out->sector_size > out->block_size)
		return damaged(out, "sector size %u is not 2^%u in 512..block size", out->sector_size,
			       sectlog);
	if (!pow2_matches(out->inode_size, inodelog, 8, 11) || out->inode_size > out->block_size)
		return damaged(out, "inode size %u is not 2^%u in 256..2048", out->inode_size, inodelog);
	if (inopblock != out->block_size / out->inode_size)
		return damaged(out, "%u inodes per block do not match block size %u / inode size %u",
			       inopblock, out->block_size, out->inode_size);
	if (out->ag_blocks < XFS_MIN_AG_BLOCKS || out->ag_blocks > XFS_MAX_AG_BLOCKS ||
	    agblklog != log2_roundup(out->ag_blocks))
		return damaged(out, "allocation group of %u blocks (log %u) is out of range",
			       out->ag_blocks, agblklog);
	if (out->ag_count == 0 || out->ag_count > XFS_MAX_AG_COUNT)
		return damaged(out, "allocation group count %u is out of range", out->ag_count);
	if (out->data_blocks > (uint64_t)out->ag_count * out->ag_blocks ||
	    out->data_blocks < (uint64_t)(out->ag_count - 1) * out->ag_blocks + XFS_MIN_AG_BLOCKS)
		return damaged(out, "%llu data blocks do not fit %u groups of %u blocks",
			       (unsigned long long)out->data_blocks, out->ag_count, out->ag_blocks);
	if (out->data_blocks > UINT64_MAX / out->block_size)
		return damaged(out, "data section size overflows");
	out->size_bytes = out->data_blocks * out->block_size;
	return XFS_SUPER_OK;
}

static enum xfs_super_result check_log_and_stripe(const unsigned char *sb, struct xfs_super_info *out)
{
	uint64_t logstart = be64(sb + 48);
	uint32_t logblocks = be32(sb + 96), unit = be32(sb + 184), width = be32(sb + 188);

	out->log_is_external = logstart == 0;
	if (logblocks == 0)
		return damaged(out, "log of 0 blocks");
	if (!out->log_is_external && (logstart >= out->data_blocks ||
				      logblocks > out->data_blocks - logstart))
		return damaged(out, "internal log (%u blocks at %llu) lies outside the data section",
			       logblocks, (unsigned long long)logstart);
	out->log_size_bytes = (uint64_t)logblocks * out->block_size;

	if ((unit == 0) != (width == 0) || (unit && (width < unit || width % unit)))
		return damaged(out, "stripe width %u is not a multiple of stripe unit %u", width, unit);
	if (unit > out->ag_blocks)
		return damaged(out, "stripe unit %u is larger than an allocation group", unit);
	out->stripe_unit_bytes = (uint64_t)unit * out->block_size;
	out->stripe_width_bytes = (uint64_t)width * out->block_size;
	out->imax_pct = sb[127];
	if (out->imax_pct > 100)
		return damaged(out, "inode space limit of %u%%", out->imax_pct);
	return XFS_SUPER_OK;
}

static enum xfs_super_result check_crc(const unsigned char *sb, size_t len, struct xfs_super_info *out)
{
	static const unsigned char zero[4];
	uint32_t crc;

	if (len < out->sector_size)
		return damaged(out, "truncated: %zu bytes of a %u-byte superblock sector", len,
			       out->sector_size);
	crc = fs_crc32c(0xffffffffu, sb, XFS_SB_CRC_OFF);
	crc = fs_crc32c(crc, zero, sizeof(zero));
	crc = fs_crc32c(crc, sb + XFS_SB_CRC_OFF + 4, out->sector_size - XFS_SB_CRC_OFF - 4);
	if (CRC_ENFORCED && ~crc != le32(sb + XFS_SB_CRC_OFF))
		return damaged(out, "superblock checksum mismatch");
	return XFS_SUPER_OK;
}

enum xfs_super_result xfs_super_parse(const void *buf, size_t len, struct xfs_super_info *out)
{
	const unsigned char *sb = buf;
	enum xfs_super_result r;

	memset(out, 0, sizeof(*out));
	if (len < 4 || be32(sb) != XFS_SB_MAGIC) {
		snprintf(out->why, sizeof(out->why), "no XFS superblock magic");
		return XFS_SUPER_NOT_XFS;
	}
	if (len < XFS_SB_V4_END)
		return damaged(out, "truncated: %zu bytes of superblock", len);
	out->version = be16(sb + 100) & 0xf;
	if (out->version != 4 && out->version != 5)
		return damaged(out, "unsupported superblock version %u", out->version);
	if (out->version == 5 && len < XFS_SB_V5_END)
		return damaged(out, "truncated: %zu bytes of a v5 superblock", len);
	if (sb[126])
		return damaged(out, "mkfs did not finish (sb_inprogress is set)");

	if ((r = check_geometry(sb, out)) != XFS_SUPER_OK)
		return r;
	if ((r = check_log_and_stripe(sb, out)) != XFS_SUPER_OK)
		return r;
	if (out->version == 5 && (r = check_crc(sb, len, out)) != XFS_SUPER_OK)
		return r;

	out->inodes_allocated = be64(sb + 128);
	out->inodes_free = be64(sb + 136);
	out->free_blocks = be64(sb + 144);
	format_uuid(sb + 32, out->uuid);
	memcpy(out->label, sb + 108, 12);
	out->label[12] = '\0';
	collect_features(sb, out->version, out);
	return XFS_SUPER_OK;
}
