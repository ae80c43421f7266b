# The workload facts: presets and overrides, the sampler (--sample), the observer (--observe).
libfstune_probes_a_SOURCES += include/fstune/workload.h probes/workload_preset.c \
	probes/workload_sample.c probes/workload_observe.c probes/workload_collect.c

check_PROGRAMS += tests/unit/test_workload
tests_unit_test_workload_SOURCES = tests/unit/test_workload.c
tests_unit_test_workload_LDADD = $(FSTUNE_LDADD)
TESTS += tests/unit/test_workload tests/workload-presets.sh tests/workload-sample.sh \
	tests/workload-sample-privileged.sh tests/workload-observe.sh
EXTRA_DIST += tests/workload-presets.sh tests/workload-sample.sh \
	tests/workload-sample-privileged.sh tests/workload-observe.sh tests/perf/sample-speed.sh \
	doc/workload-presets.md
