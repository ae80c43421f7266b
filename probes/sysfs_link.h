/* The link speed of a block device (sysfs_link.c), for the device probe. */
#ifndef FSTUNE_PROBES_SYSFS_LINK_H
#define FSTUNE_PROBES_SYSFS_LINK_H

#include "fstune/facts.h"

/* Sets device.link_speed_mbps (and device.link_lanes for PCIe) of the whole disk `disk`, whose
 * canonical sysfs path is `canon` and transport `transport` (sysfs_device.c's), or marks it
 * unavailable with the reason. */
void sysfs_link_probe(struct facts *f, const char *disk, const char *canon, const char *transport);

#endif
