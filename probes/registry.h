/* The probes known to the registry (registry.c lists them in order). Each is defined in its own
 * file under probes/. */
#ifndef FSTUNE_PROBES_REGISTRY_H
#define FSTUNE_PROBES_REGISTRY_H

#include "fstune/probe.h"

extern const struct probe_ops probe_host;          /* host.c */
extern const struct probe_ops probe_sysfs_device;  /* sysfs_device.c */
extern const struct probe_ops probe_udev;          /* udev.c */
extern const struct probe_ops probe_vm;            /* vm.c */
/* vm.bdi.* and vm.bdi.name from the bdi directory `dir` (a link into /sys/devices/virtual/bdi),
 * replacing what vm.bdi held: for a filesystem that has a bdi of its own (btrfs). vm.c. */
void probe_vm_read_bdi(struct facts *f, const char *dir);

/* ---- filesystem and stack probes ---- */
extern const struct probe_ops probe_blkid;         /* blkid.c */
extern const struct probe_ops probe_ext2fs;        /* ext2fs.c */
extern const struct probe_ops probe_xfs;           /* xfs.c */
extern const struct probe_ops probe_btrfs;         /* btrfs.c */
extern const struct probe_ops probe_member;        /* member.c */
extern const struct probe_ops probe_mounted;       /* mounted.c */
extern const struct probe_ops probe_stack;         /* stack.c */
extern const struct probe_ops probe_owners;        /* owners.c */

/* ---- end of filesystem and stack probes ---- */

#endif
