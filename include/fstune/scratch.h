/* Whether a block device may be written by `fstune trial` (DESIGN.md, "Safety"): every check a scratch
 * device must pass, asked of probes/ so the command and the wizard give one answer. */
#ifndef FSTUNE_SCRATCH_H
#define FSTUNE_SCRATCH_H

#include "fstune/error.h"

/* Checks, in this order, and stops at the first that fails: a block device; not mounted (nor any of
 * its partitions); not swap; no holders (md, dm, bcache on top); opens with O_EXCL (nothing holds it:
 * the kernel's claim also covers members of mounted multi-device filesystems that mountinfo does not
 * list); libblkid finds no signature (filesystem, partition table, RAID or LVM member). Nothing is
 * written. FST_EXIT_OK, FST_EXIT_USAGE (not a block device, cannot be opened), or FST_EXIT_REFUSED
 * with `err` naming the failed check. */
int scratch_device_check(const char *dev, struct fst_error *err);

#endif
