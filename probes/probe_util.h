/* Small helpers shared by the probes: turning a failed read into an "unavailable" fact with the
 * right status, reading one sysfs/procfs value straight into a fact, and naming block devices. */
#ifndef FSTUNE_PROBES_PROBE_UTIL_H
#define FSTUNE_PROBES_PROBE_UTIL_H

#include <stdbool.h>

#include "fstune/facts.h"

/* The status of a read that failed with `err` (a positive errno): EACCES/EPERM is needs_root for
 * a non-root user and denied for root; ENOENT/ENOTDIR is not_found; anything else failed. */
enum facts_status probe_status_from_errno(int err);

/* Marks `key` unavailable with the status of `err` and the reason "<what>: <strerror>". */
void probe_unavailable_errno(struct facts *f, const char *key, int err, const char *what);

/* Whether a read failed because fstune refused the file (not a regular file, too large: path.h),
 * which a capture that is broken or hostile causes: failed even where absence would be normal. */
bool probe_is_refused_read(int err);

/* Reads the decimal integer in the file `path` (live form, prefixed by the sysroot) into `key`,
 * scaled by `mult` (512 for sector counts, 1024 for KiB). On failure marks the key unavailable
 * when `required` or the read was refused (probe_is_refused_read), else leaves it unset. Returns
 * true when set. */
bool probe_read_int(struct facts *f, const char *key, long long mult, const char *source,
		    bool required, const char *path);

/* Same for a string (trailing white space removed); an empty file counts as absent. */
bool probe_read_string(struct facts *f, const char *key, const char *source, bool required,
		       const char *path);

/* The kernel name of the block device major:minor, from the link /sys/dev/block/M:m (the device
 * number is the kernel's own answer; a mount source string can be anything). NULL when the kernel
 * lists no such device; caller frees. */
char *probe_devno_name(unsigned major, unsigned minor);

/* The device number of the kernel block device `name`, from /sys/class/block/NAME/dev. False when
 * the kernel (or the capture) lists no such device or the file is not MAJOR:MINOR. */
bool probe_devno_of(const char *name, unsigned *major, unsigned *minor);

/* The whole disk of the kernel block device `name`: itself, or for a partition the parent
 * directory of its sysfs entry (sda1 -> sda, nvme0n1p2 -> nvme0n1). Caller frees. */
char *probe_whole_disk(const char *name);

#endif
