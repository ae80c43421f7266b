/* Every read of /sys, /proc and /etc goes through here, so that `--sysroot DIR` points the whole
 * program at a captured machine (as util-linux's ul_path prefix does for `lsblk --sysroot`).
 *
 * Paths are given as on the live system ("/sys/class/block/%s/queue/rotational") and are prefixed
 * with the sysroot when one is set. A capture without sys/class/block (as util-linux's
 * mk-input.sh makes them) has "/sys/class/block/NAME/..." read from sys/block/NAME, else from the
 * sys/dev/block/MAJ:MIN link whose target is named NAME, as lsblk does. The sysroot is process-wide: set once by the command line before
 * any probe runs. Functions return -errno / NULL with errno set; they never print. */
#ifndef FSTUNE_PATH_H
#define FSTUNE_PATH_H

#include <dirent.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* NULL or "" means the live system. The directory must exist (checked by the caller). */
void path_set_sysroot(const char *dir);
const char *path_sysroot(void); /* NULL when live */
bool path_is_sysroot(void);

/* The prefixed path, caller frees. */
char *path_resolve(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

int path_open(int flags, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
bool path_exists(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
DIR *path_opendir(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The whole file, NUL-terminated, trailing white space removed; caller frees. NULL on error. */
char *path_read_string(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A file holding one decimal integer. 0 or -errno (-EINVAL when it is not a number). */
int path_read_s64(long long *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int path_read_u64(uint64_t *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The target of a symbolic link, caller frees. */
char *path_readlink(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The kernel names of every block device (/sys/class/block; in a capture without it, the names the
 * sys/dev/block links point to), sorted by strverscmp so a partition follows its disk. NULL-terminated,
 * caller frees each name and the array; NULL with *n == 0 when there are none. */
char **path_list_block(size_t *n);
/* The canonical path with every link resolved, relative to the sysroot (the prefix is removed), so
 * "/sys/class/block/sda" becomes "/sys/devices/pci0000:00/.../block/sda". Caller frees. */
char *path_canonical(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
