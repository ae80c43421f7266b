# The workload facts: presets and overrides, the sampler (--sample), the observer (--observe).
libfstune_probes_a_SOURCES += include/fstune/workload.h probes/workload_preset.c \
	probes/workload_sample.c probes/workload_observe.c probes/workload_collect.c

check_PROGRAMS += tests/probe/test_workload
PROBE_WORKLOAD_TESTS = tests/probe/workload-presets.sh tests/probe/workload-sample.sh \
	tests/probe/workload-sample-privileged.sh tests/probe/workload-observe.sh
TESTS += tests/probe/test_workload $(PROBE_WORKLOAD_TESTS)
EXTRA_DIST += $(PROBE_WORKLOAD_TESTS) tests/perf/sample-speed.sh doc/workload-presets.md
