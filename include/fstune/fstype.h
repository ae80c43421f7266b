/* Filesystem families by their blkid/mountinfo type names: the probes, the setting table and the
 * rules' helper module ask the same question and must get the same answer. */
#ifndef FSTUNE_FSTYPE_H
#define FSTUNE_FSTYPE_H

#include <stdbool.h>

/* ext2, ext3, ext4 and ext4dev: one on-disk format, read by libext2fs and tuned by tune2fs. */
bool fstype_is_ext(const char *type);

#endif
