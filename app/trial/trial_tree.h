/* The trial's cold tree measurement (trial_tree.c): write a source-like tree, then, each after the
 * caller has unmounted and mounted the filesystem again, walk its metadata and read it back. */
#ifndef FSTUNE_APP_TRIAL_TREE_H
#define FSTUNE_APP_TRIAL_TREE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "fstune/error.h"

/* Bytes: the largest file of the tree; bigger ones are not tree-like. */
#define TRIAL_TREE_FILE_CAP (1ull << 20)

struct trial_tree_plan {
	uint64_t files;     /* files to write at most */
	uint64_t per_dir;   /* files per directory (>= 1) */
	uint64_t bytes_max; /* bytes to write at most */
	uint64_t size_min, size_p50, size_p90; /* bytes: the workload's file sizes */
	uint64_t size_top;  /* the largest drawn, so that the sizes have the workload's mean
			       (bench_tree_size_top) */
};

struct trial_tree_result {
	uint64_t files, bytes;           /* written */
	uint64_t read_files, read_bytes; /* read back */
	double write_s;                  /* seconds to write (no fsync: the unmount writes back) */
	double read_s;                   /* seconds to read back, cold */
	uint64_t walk_entries;           /* files and directories stat-ed by the walk */
	double walk_s;                   /* seconds to stat the whole tree, cold (metadata only) */
};

/* Writes the tree under `root` (the same tree for the same plan, every time). Stops early when
 * *stop becomes non-zero. FST_EXIT_OK or FST_EXIT_PARTIAL with err set (ENOSPC, EIO). */
int trial_tree_write(const char *root, const struct trial_tree_plan *p, const volatile sig_atomic_t *stop,
		     struct trial_tree_result *r, struct fst_error *err);
/* Stats every file and directory under `root` in readdir order (a cold metadata walk when the
 * filesystem was just mounted). */
int trial_tree_walk(const char *root, const volatile sig_atomic_t *stop, struct trial_tree_result *r,
		    struct fst_error *err);
/* Reads every file under `root` in readdir order; checks the counts against what was written. */
int trial_tree_read(const char *root, const volatile sig_atomic_t *stop, struct trial_tree_result *r,
		    struct fst_error *err);

#endif
