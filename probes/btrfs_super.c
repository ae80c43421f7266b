/* Parses and sanity-checks a btrfs superblock from a byte buffer (see btrfs_super.h). Offsets are
 * those of struct btrfs_super_block (btrfs-progs kernel-shared/uapi/btrfs_tree.h); the checks follow
 * the kernel's btrfs_validate_super() where they concern the fields reported here. */
#include <stdio.h>
#include <string.h>

#include "probes/btrfs_super.h"
#include "probes/fs_crc32c.h"
#include "probes/ondisk.h"

#define SB_CSUM_SIZE 32          /* the checksum field at offset 0 */
#define SB_OFF_FSID 0x20
#define SB_OFF_BYTENR 0x30
#define SB_OFF_MAGIC 0x40
#define SB_OFF_GENERATION 0x48
#define SB_OFF_TOTAL_BYTES 0x70
#define SB_OFF_BYTES_USED 0x78
#define SB_OFF_NUM_DEVICES 0x88
#define SB_OFF_SECTORSIZE 0x90
#define SB_OFF_NODESIZE 0x94
#define SB_OFF_STRIPESIZE 0x9c
#define SB_OFF_COMPAT_RO 0xb4
#define SB_OFF_INCOMPAT 0xbc
#define SB_OFF_CSUM_TYPE 0xc4
#define SB_OFF_LABEL 0x12b
#define SB_LABEL_SIZE 256
#define BTRFS_MAX_NODESIZE 65536
#define BTRFS_MAX_DEVICES 65536  /* far beyond any real filesystem: beyond it the field is garbage */

static const char btrfs_magic[8] = {'_', 'B', 'H', 'R', 'f', 'S', '_', 'M'};

/* Says in out->why what is wrong, as the parser's answer. */
#define damaged(out, ...) (snprintf((out)->why, sizeof((out)->why), __VA_ARGS__), BTRFS_SUPER_DAMAGED)

static bool is_pow2(uint64_t v) { return v && !(v & (v - 1)); }

struct feature_bit {
	bool ro;          /* compat_ro word, else incompat */
	unsigned bit;
	const char *name; /* as in /sys/fs/btrfs/features/ */
};

static const struct feature_bit feature_bits[] = {
	{false, 0, "mixed_backref"},  {false, 1, "default_subvol"},  {false, 2, "mixed_groups"},
	{false, 3, "compress_lzo"},   {false, 4, "compress_zstd"},   {false, 5, "big_metadata"},
	{false, 6, "extended_iref"},  {false, 7, "raid56"},          {false, 8, "skinny_metadata"},
	{false, 9, "no_holes"},       {false, 10, "metadata_uuid"},  {false, 11, "raid1c34"},
	{false, 12, "zoned"},         {false, 13, "extent_tree_v2"}, {false, 14, "raid_stripe_tree"},
	{false, 16, "simple_quota"},  {true, 0, "free_space_tree"},  {true, 2, "verity"},
	{true, 3, "block_group_tree"},
};

size_t btrfs_super_feature_names(uint64_t incompat, uint64_t compat_ro, const char **out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < sizeof(feature_bits) / sizeof(feature_bits[0]); i++) {
		uint64_t word = feature_bits[i].ro ? compat_ro : incompat;

		if ((word >> feature_bits[i].bit & 1) && n < max)
			out[n++] = feature_bits[i].name;
	}
	return n;
}

void btrfs_super_format_uuid(const unsigned char *u, char out[37])
{
	snprintf(out, 37, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0],
		 u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14],
		 u[15]);
}

static enum btrfs_super_result check_sizes(const unsigned char *sb, struct btrfs_super_info *out)
{
	out->sector_size = le32(sb + SB_OFF_SECTORSIZE);
	out->node_size = le32(sb + SB_OFF_NODESIZE);
	out->stripe_size = le32(sb + SB_OFF_STRIPESIZE);
	out->total_bytes = le64(sb + SB_OFF_TOTAL_BYTES);
	out->bytes_used = le64(sb + SB_OFF_BYTES_USED);
	out->num_devices = le64(sb + SB_OFF_NUM_DEVICES);
	out->generation = le64(sb + SB_OFF_GENERATION);

	if (!is_pow2(out->sector_size) || out->sector_size < 512 || out->sector_size > 65536)
		return damaged(out, "sector size %u is not a power of two in 512..65536",
			       out->sector_size);
	if (!is_pow2(out->node_size) || out->node_size < out->sector_size ||
	    out->node_size > BTRFS_MAX_NODESIZE)
		return damaged(out, "node size %u is not a power of two in sector size..65536",
			       out->node_size);
	if (out->num_devices == 0 || out->num_devices > BTRFS_MAX_DEVICES)
		return damaged(out, "device count %llu is out of range",
			       (unsigned long long)out->num_devices);
	if (out->total_bytes < 6 * (uint64_t)out->node_size)
		return damaged(out, "filesystem size %llu bytes is too small",
			       (unsigned long long)out->total_bytes);
	/* the kernel's and btrfs-progs's only check (btrfs_validate_super, check_super): bytes_used is
	 * the extent tree's count and may pass total_bytes, so no upper bound */
	if (out->bytes_used < 6 * (uint64_t)out->node_size)
		return damaged(out, "%llu bytes used is less than 6 nodes of %u bytes",
			       (unsigned long long)out->bytes_used, out->node_size);
	return BTRFS_SUPER_OK;
}

static enum btrfs_super_result check_csum(const unsigned char *sb, struct btrfs_super_info *out)
{
	out->csum_type = le16(sb + SB_OFF_CSUM_TYPE);
	if (out->csum_type > 3)
		return damaged(out, "unknown checksum type %u", out->csum_type);
	if (out->csum_type == 0) {
		uint32_t crc = ~fs_crc32c(0xffffffffu, sb + SB_CSUM_SIZE,
					  BTRFS_SUPER_SIZE - SB_CSUM_SIZE);

		if (CRC_ENFORCED && crc != le32(sb))
			return damaged(out, "superblock checksum mismatch");
		out->csum_verified = true;
	}
	return BTRFS_SUPER_OK;
}

enum btrfs_super_result btrfs_super_parse(const void *buf, size_t len, struct btrfs_super_info *out)
{
	const unsigned char *sb = buf;
	enum btrfs_super_result r;

	memset(out, 0, sizeof(*out));
	if (len < SB_OFF_MAGIC + sizeof(btrfs_magic) ||
	    memcmp(sb + SB_OFF_MAGIC, btrfs_magic, sizeof(btrfs_magic)) != 0) {
		snprintf(out->why, sizeof(out->why), "no btrfs superblock magic");
		return BTRFS_SUPER_NOT_BTRFS;
	}
	if (len < BTRFS_SUPER_SIZE)
		return damaged(out, "truncated: %zu bytes of a %d-byte superblock", len, BTRFS_SUPER_SIZE);
	if (le64(sb + SB_OFF_BYTENR) != BTRFS_SUPER_OFFSET)
		return damaged(out, "superblock says it lies at byte %llu, not %d",
			       (unsigned long long)le64(sb + SB_OFF_BYTENR), BTRFS_SUPER_OFFSET);
	if ((r = check_sizes(sb, out)) != BTRFS_SUPER_OK)
		return r;
	if ((r = check_csum(sb, out)) != BTRFS_SUPER_OK)
		return r;

	btrfs_super_format_uuid(sb + SB_OFF_FSID, out->fsid);
	memcpy(out->label, sb + SB_OFF_LABEL, SB_LABEL_SIZE);
	out->label[SB_LABEL_SIZE] = '\0';
	out->n_features = btrfs_super_feature_names(le64(sb + SB_OFF_INCOMPAT), le64(sb + SB_OFF_COMPAT_RO),
						     out->features, BTRFS_SUPER_MAX_FEATURES);
	return BTRFS_SUPER_OK;
}
