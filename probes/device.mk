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
	tests/probe-sysroot.sh \
	tests/probe-sysroot-hostile.sh \
	tests/probe-loop.sh \
	tests/probe-targets.sh \
	tests/probe-nonroot.sh \
	tests/probe-udev.sh \
	tests/probe-capture.sh \
	tests/probe-lsblk-dumps.sh
TESTS += $(PROBE_DEVICE_TESTS)
EXTRA_DIST += $(PROBE_DEVICE_TESTS) tests/perf/probe-speed.sh tests/fixtures/sysroot

check_PROGRAMS += tests/probe-mountinfo
TESTS += tests/probe-mountinfo
tests_probe_mountinfo_SOURCES = tests/probe_mountinfo_test.c
tests_probe_mountinfo_LDADD = $(FSTUNE_LDADD)

check_PROGRAMS += tests/probe-render
TESTS += tests/probe-render
tests_probe_render_SOURCES = tests/probe_render_test.c
tests_probe_render_LDADD = $(FSTUNE_LDADD)
