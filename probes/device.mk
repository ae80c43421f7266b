# The device and host probes, target resolution and the registry, with their tests.
libfstune_probes_a_SOURCES += \
	probes/registry.c probes/registry.h \
	probes/target.c \
	include/fstune/inventory.h probes/inventory.c \
	probes/mountinfo.c probes/mountinfo.h \
	probes/probe_util.c probes/probe_util.h \
	probes/host.c \
	probes/sysfs_device.c \
	probes/sysfs_link.c probes/sysfs_link.h \
	probes/udev.c \
	probes/vm.c

PROBE_DEVICE_TESTS = \
	tests/probe/probe-sysroot.sh \
	tests/probe/probe-sysroot-hostile.sh \
	tests/probe/probe-loop.sh \
	tests/probe/probe-targets.sh \
	tests/probe/probe-nonroot.sh \
	tests/probe/probe-udev.sh \
	tests/probe/probe-capture.sh \
	tests/probe/probe-lsblk-dumps.sh
TESTS += $(PROBE_DEVICE_TESTS)
EXTRA_DIST += $(PROBE_DEVICE_TESTS) tests/perf/probe-speed.sh tests/fixtures/sysroot

check_PROGRAMS += tests/probe/test_mountinfo tests/probe/test_facts_render
TESTS += tests/probe/test_mountinfo tests/probe/test_facts_render
