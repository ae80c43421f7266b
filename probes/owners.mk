# The owners probe: what else manages each setting (tuned, sysctl.d, udev, fstab, mount units,
# the kernel command line), one file per source, and its tests.
libfstune_probes_a_SOURCES += \
	probes/owners.c probes/owners.h probes/owners_list.c \
	probes/owners_conf.c \
	probes/owners_sysctl.c \
	probes/owners_tuned.c \
	probes/owners_udev.c \
	probes/owners_mount.c

check_PROGRAMS += tests/probe/test_owners
TESTS += tests/probe/test_owners

TESTS += tests/probe/probe-owners.sh tests/probe/probe-owners-host.sh
EXTRA_DIST += tests/probe/probe-owners.sh tests/probe/probe-owners-host.sh tests/fixtures/owners
