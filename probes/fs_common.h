/* What the filesystem probes (blkid, ext2fs, xfs, btrfs, mounted, stack) share: where to read a
 * filesystem's bytes from, which type to believe, and marking a set of keys unavailable at once. */
#ifndef FSTUNE_PROBES_FS_COMMON_H
#define FSTUNE_PROBES_FS_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "fstune/facts.h"
#include "fstune/probe.h"

/* The file holding the filesystem's bytes: the image, the device node given, or the device under a
 * mounted directory. NULL when there is none (tmpfs, NFS, btrfs's anonymous device). Borrowed. */
const char *fs_content_path(const struct probe_target *t);

/* The filesystem type to believe: fs.type as blkid found it, else the mount's type, else NULL. */
const char *fs_type(const struct probe_target *t, const struct facts *f);

/* True when the whole "fs" branch was marked unavailable (no filesystem on the target). */
bool fs_branch_absent(const struct facts *f);

/* Marks each "fs.<name>" of the NULL-terminated `names` unavailable with the same status and reason.
 * Keys that already have a value are left alone. */
void fs_mark_unavailable(struct facts *f, const char *const *names, enum facts_status status,
			 const char *reason);

/* Decides why a content probe cannot read the filesystem's bytes, for `what` ("the XFS
 * superblock"): under --sysroot (not_applicable) or when there is no content path. Returns true
 * (and marks `names`) when the probe must stop. */
bool fs_content_unreachable(const struct probe_target *t, struct facts *f, const char *const *names,
			    const char *what);

/* Opens the content path read-only. On failure marks `names` with the status of errno (needs_root
 * for a non-root user, per probe_util.h) and returns -1. */
int fs_open_content(const struct probe_target *t, struct facts *f, const char *const *names);

/* Reads up to `len` bytes at `offset`; returns the count read (short at end of file) or -errno. */
ssize_t fs_pread_full(int fd, void *buf, size_t len, off_t offset);

/* The content probes' read of an on-disk structure, `what` ("the XFS superblock"): up to `len`
 * bytes at `offset` of the content path, in a buffer the caller frees, their count in *got (short at
 * end of file). NULL when they cannot be read, with `names` marked as fs_content_unreachable,
 * fs_open_content or a failed read says. */
unsigned char *fs_read_content(const struct probe_target *t, struct facts *f, const char *const *names,
			       const char *what, size_t len, off_t offset, size_t *got);

/* When the filesystem says it is `size` bytes but its image or device holds fewer, marks
 * fs.size_bytes failed (a truncated image or a damaged superblock) and returns false. `what` names
 * the source ("the XFS superblock"). Unknown content sizes pass. */
bool fs_check_size(const struct probe_target *t, struct facts *f, unsigned long long size,
		   const char *what);

/* Sets a label or other on-disk string, whatever bytes mkfs was given: control characters become
 * '?' (a label is shown on terminals); bytes that are not UTF-8 are kept, escaped by the facts. */
void fs_set_text(struct facts *f, const char *key, const char *value, const char *source);

#endif
