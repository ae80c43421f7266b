/* libext2fs: how an ext2/3/4 filesystem was made, from its superblock: block and cluster size, inode
 * size and count, reserved blocks, every feature by libe2p's own name, RAID stride and stripe width,
 * and the journal's size. Opened read-only (superblock only), so a mounted filesystem is safe. */
#include "config.h"

#include <e2p/e2p.h>
#include <errno.h>
#include <et/com_err.h>
#include <ext2fs/ext2fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fstune/debug.h"
#include "fstune/fstype.h"
#include "fstune/probe.h"
#include "probes/fs_common.h"
#include "probes/probe_util.h"
#include "probes/registry.h"

static const char *const ext_keys[] = {
	"block_size", "fragment_size", "inode_size", "inode_count", "inodes_free", "size_bytes",
	"reserved_blocks", "reserved_bytes", "features", "stripe_unit_bytes", "stripe_width_bytes",
	"log_size_bytes", NULL,
};

/* Every feature bit set, named by libe2p (unknown bits come out as "FEATURE_I31" and the like, which
 * is still libe2p's answer and better than dropping them). */
static void set_features(struct facts *f, const struct ext2_super_block *sb)
{
	const __u32 words[3] = {sb->s_feature_compat, sb->s_feature_incompat, sb->s_feature_ro_compat};
	const int types[3] = {E2P_FEATURE_COMPAT, E2P_FEATURE_INCOMPAT, E2P_FEATURE_RO_INCOMPAT};
	json_t *list = json_array();

	for (int w = 0; w < 3; w++)
		for (unsigned bit = 0; bit < 32; bit++)
			if (words[w] & (1u << bit))
				json_array_append_new(list, json_string(e2p_feature2string(types[w],
											   1u << bit)));
	facts_set_json(f, "fs.features", list, "ext2fs");
}

/* The journal's size: from the superblock's backup of the journal inode where mke2fs left one,
 * else from the journal inode itself. */
static void set_journal(struct facts *f, ext2_filsys fs)
{
	struct ext2_super_block *sb = fs->super;
	struct ext2_inode inode;
	errcode_t err;

	if (!ext2fs_has_feature_journal(sb)) {
		facts_set_unavailable(f, "fs.log_size_bytes", FACTS_NOT_APPLICABLE, "no journal");
		return;
	}
	if (sb->s_journal_inum == 0) {
		facts_set_unavailable(f, "fs.log_size_bytes", FACTS_NOT_APPLICABLE,
				      "external journal device");
		return;
	}
	if (sb->s_jnl_backup_type == EXT3_JNL_BACKUP_BLOCKS) {
		facts_set_int(f, "fs.log_size_bytes",
			      (long long)((unsigned long long)sb->s_jnl_blocks[15] << 32 |
					  sb->s_jnl_blocks[16]),
			      "ext2fs");
		return;
	}
	err = ext2fs_read_inode(fs, sb->s_journal_inum, &inode);
	if (err) {
		facts_set_unavailable(f, "fs.log_size_bytes", FACTS_FAILED, "reading the journal inode: %s",
				      error_message(err));
		return;
	}
	facts_set_int(f, "fs.log_size_bytes", (long long)EXT2_I_SIZE(&inode), "ext2fs");
}

static void set_values(const struct probe_target *t, struct facts *f, ext2_filsys fs)
{
	struct ext2_super_block *sb = fs->super;
	long long bs = EXT2_BLOCK_SIZE(sb);

	facts_set_int(f, "fs.block_size", bs, "ext2fs");
	facts_set_int(f, "fs.fragment_size", EXT2_CLUSTER_SIZE(sb), "ext2fs");
	facts_set_int(f, "fs.inode_size", EXT2_INODE_SIZE(sb), "ext2fs");
	facts_set_int(f, "fs.inode_count", sb->s_inodes_count, "ext2fs");
	facts_set_int(f, "fs.inodes_free", sb->s_free_inodes_count, "ext2fs");
	if (fs_check_size(t, f, (unsigned long long)ext2fs_blocks_count(fs->super) * (unsigned long long)bs,
			  "the ext2/3/4 superblock"))
		facts_set_int(f, "fs.size_bytes", (long long)ext2fs_blocks_count(fs->super) * bs, "ext2fs");
	facts_set_int(f, "fs.reserved_blocks", (long long)ext2fs_r_blocks_count(fs->super), "ext2fs");
	facts_set_int(f, "fs.reserved_bytes", (long long)ext2fs_r_blocks_count(fs->super) * bs,
		      "ext2fs");
	set_features(f, sb);
	/* 0 is a value: mke2fs was given (or found) no RAID geometry */
	facts_set_int(f, "fs.stripe_unit_bytes", (long long)sb->s_raid_stride * bs, "ext2fs");
	facts_set_int(f, "fs.stripe_width_bytes", (long long)sb->s_raid_stripe_width * bs, "ext2fs");
	set_journal(f, fs);
	if (!facts_has(f, "fs.version"))
		facts_set_string(f, "fs.version",
				 sb->s_rev_level == EXT2_GOOD_OLD_REV ? "0.0" :
				 sb->s_minor_rev_level ? "1.1" : "1.0", "ext2fs");
}

static void ext2fs_collect(const struct probe_target *t, struct facts *f)
{
	const char *path;
	ext2_filsys fs = NULL;
	errcode_t err;

	static bool tables_ready;

	if (fs_branch_absent(f) || !fstype_is_ext(fs_type(t, f)))
		return;
	if (!tables_ready) {
		/* error_message() names libext2fs's codes only once its table is registered */
		initialize_ext2_error_table();
		tables_ready = true;
	}
	if (fs_content_unreachable(t, f, ext_keys, "the ext2/3/4 superblock"))
		return;
	path = fs_content_path(t);
	err = ext2fs_open2(path, NULL,
			   EXT2_FLAG_64BITS | EXT2_FLAG_SUPER_ONLY | EXT2_FLAG_SKIP_MMP |
				   EXT2_FLAG_IGNORE_CSUM_ERRORS,
			   0, 0, unix_io_manager, &fs);
	if (err) {
		char reason[600];
		/* system errors come back as errno values; the rest are libext2fs's own codes */
		enum facts_status status = err < 256 ? probe_status_from_errno((int)err) : FACTS_FAILED;

		snprintf(reason, sizeof(reason), "ext2fs_open %s: %s", path, error_message(err));
		fs_mark_unavailable(f, ext_keys, status, reason);
		return;
	}
	set_values(t, f, fs);
	ext2fs_close_free(&fs);
}

const struct probe_ops probe_ext2fs = {
	.name = "ext2fs",
	.needs_root = true,
	.collect = ext2fs_collect,
};
