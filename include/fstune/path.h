/* Every read of /sys, /proc and /etc goes through here, so that `--sysroot DIR` points the whole
 * program at a captured machine (as util-linux's ul_path prefix does for `lsblk --sysroot`).
 *
 * Paths are given as on the live system ("/sys/class/block/%s/queue/rotational") and are prefixed
 * with the sysroot when one is set. A capture without sys/class/block (as util-linux's
 * mk-input.sh makes them) has "/sys/class/block/NAME/..." read from sys/block/NAME, else from the
 * sys/dev/block/MAJ:MIN link whose target is named NAME, as lsblk does. The sysroot is process-wide: set once by the command line before
 * any probe runs. Functions return -errno / NULL with errno set; they never print.
 *
 * A capture is hostile input: files are read only when they are regular files (a FIFO, a device
 * node or a socket is never opened for reading, so nothing blocks and no driver's open runs),
 * without blocking, and only up to a size: PATH_READ_MAX, PATH_READ_TABLE_MAX for the tables that
 * grow with the machine (mountinfo, cpuinfo). Beyond it the read fails with EFBIG. */
#ifndef FSTUNE_PATH_H
#define FSTUNE_PATH_H

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* NULL or "" means the live system. The directory must exist (checked by the caller). */
void path_set_sysroot(const char *dir);
const char *path_sysroot(void); /* NULL when live */
bool path_is_sysroot(void);

/* The prefixed path, caller frees. */
char *path_resolve(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#define PATH_READ_MAX (1u << 20)
#define PATH_READ_TABLE_MAX (16u << 20)
/* errno of a read refused because the file is not a regular one. */
#define PATH_ENOTREG ENOMEDIUM

/* A regular file opened for reading (O_NONBLOCK): a descriptor, or -errno (-PATH_ENOTREG, -EISDIR). */
int path_open(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The file open O_PATH in `pfd` (not closed) opened for reading, O_NONBLOCK, when it is a regular
 * file (*st filled): a descriptor, or -errno (-PATH_ENOTREG, -EISDIR). No driver's open ever runs. */
struct stat;
int path_reopen_regular(int pfd, struct stat *st);
bool path_exists(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
DIR *path_opendir(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The whole file, NUL-terminated, trailing white space removed; caller frees. NULL on error, with
 * errno (EFBIG beyond PATH_READ_MAX, PATH_ENOTREG). */
char *path_read_string(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same up to PATH_READ_TABLE_MAX, for mountinfo and cpuinfo. */
char *path_read_table(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* strerror, with words for what these functions refuse (PATH_ENOTREG, EFBIG). Static storage. */
const char *path_strerror(int err);
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
