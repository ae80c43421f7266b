# The probes library. Each part of it keeps its sources in its own fragment.
noinst_LIBRARIES += libfstune_probes.a
libfstune_probes_a_SOURCES = include/fstune/probe.h
libfstune_probes_a_CFLAGS = $(AM_CFLAGS) $(BLKID_CFLAGS) $(UDEV_CFLAGS) $(EXT2FS_CFLAGS) $(URING_CFLAGS)
include probes/device.mk
include probes/fs.mk
include probes/owners.mk
include probes/bench/bench.mk
include probes/workload.mk
include probes/scratch.mk
