/* A parser of /proc/self/mountinfo (read through path.h, so --sysroot works) and the look-ups the
 * probes need: by mount ID, by device number, and by longest mount-point prefix of a path. */
#ifndef FSTUNE_PROBES_MOUNTINFO_H
#define FSTUNE_PROBES_MOUNTINFO_H

#include <stdbool.h>
#include <stddef.h>

/* One line of mountinfo (proc(5)); strings are unescaped (\040 is a space) and owned by the table. */
struct mountinfo_entry {
	int id;              /* field 1: mount ID, as statx(STATX_MNT_ID) reports it */
	int parent_id;       /* field 2 */
	unsigned major;      /* field 3: st_dev of files on this mount; 0 for anonymous devices */
	unsigned minor;
	char *root;          /* field 4: the directory of the filesystem mounted here */
	char *mount_point;   /* field 5 */
	char *options;       /* field 6: per-mount options */
	char *fstype;        /* after " - " */
	char *source;        /* mount source: "/dev/sda1", "tmpfs", "server:/export" */
	char *super_options; /* superblock options */
};

struct mountinfo {
	struct mountinfo_entry *v; /* in file order: a later mount on the same point hides an earlier */
	size_t n;
};

/* Parses mountinfo text. Malformed lines are skipped (the kernel never writes them; a hand-made
 * fixture might). Returns 0; the table must be freed with mountinfo_free even when empty. */
int mountinfo_parse(const char *text, struct mountinfo *mi);
/* Reads and parses /proc/self/mountinfo (under the sysroot when set). 0 or -errno. */
int mountinfo_load(struct mountinfo *mi);
void mountinfo_free(struct mountinfo *mi);

/* Copies `s` with mountinfo's octal escapes (\040, \011, \012, \134) decoded; caller frees. */
char *mountinfo_unescape(const char *s);

/* NULL when not found. */
const struct mountinfo_entry *mountinfo_by_id(const struct mountinfo *mi, int id);
/* The topmost mount of the filesystem on major:minor, preferring one that mounts its root ("/"). */
const struct mountinfo_entry *mountinfo_by_devno(const struct mountinfo *mi, unsigned major,
						 unsigned minor);
/* The mount whose mount point is the longest whole-component prefix of the absolute `path`; among
 * mounts on the same point, the last (topmost). */
const struct mountinfo_entry *mountinfo_longest_prefix(const struct mountinfo *mi, const char *path);

/* True when `prefix` is `path` or a whole-component prefix of it ("/home" of "/home/a", not "/homer"). */
bool mountinfo_path_has_prefix(const char *path, const char *prefix);

#endif
