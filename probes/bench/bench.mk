# The micro-benchmarks: engines, the driver, the tests and their tables.
libfstune_probes_a_SOURCES += \
	include/fstune/bench.h include/fstune/space.h \
	probes/bench/bench_int.h probes/bench/bench_prep.h probes/bench/run.h \
	probes/bench/bench.c \
	probes/bench/burst.h probes/bench/burst.c \
	probes/bench/direct.c \
	probes/bench/engine_io_uring.c \
	probes/bench/engine_null.c \
	probes/bench/engine_psync.c \
	probes/bench/fio.c \
	probes/bench/hist.c \
	probes/bench/iotest.c \
	probes/bench/lock.c \
	probes/bench/plausible.c \
	probes/bench/results.c \
	probes/bench/run.c \
	probes/bench/scratch.c \
	probes/bench/slices.h probes/bench/slices.c \
	probes/bench/stop.c \
	probes/bench/table.c probes/bench/engines.c \
	probes/bench/unwritten.c

# Unit tests of the histogram, the widening slices, burst detection and of the driver through the null
# engine.
check_PROGRAMS += tests/bench/test-hist tests/bench/test-slices tests/bench/test-null-engine \
	tests/bench/test-burst
tests_bench_test_burst_SOURCES = tests/bench/test-burst.c
tests_bench_test_burst_LDADD = $(FSTUNE_LDADD)
tests_bench_test_hist_SOURCES = tests/bench/test-hist.c
tests_bench_test_hist_LDADD = $(FSTUNE_LDADD)
tests_bench_test_slices_SOURCES = tests/bench/test-slices.c
tests_bench_test_slices_LDADD = $(FSTUNE_LDADD)
tests_bench_test_null_engine_SOURCES = tests/bench/test-null-engine.c
tests_bench_test_null_engine_LDADD = $(FSTUNE_LDADD)
TESTS += tests/bench/test-hist tests/bench/test-slices tests/bench/test-null-engine tests/bench/test-burst \
	tests/bench-dir.sh tests/bench-ext4.sh tests/bench-direct-labels.sh tests/bench-rawdev.sh \
	tests/bench-signal.sh tests/bench-refuse.sh tests/bench-cpu-wait.sh tests/bench-space.sh tests/bench-lock.sh \
	tests/bench-plausible.sh tests/bench-not-run.sh tests/bench-loop-cache.sh tests/bench-cpu-bound.sh \
	tests/bench-burst.sh tests/bench-tree-bound.sh
EXTRA_DIST += tests/bench-dir.sh tests/bench-ext4.sh tests/bench-direct-labels.sh tests/bench-rawdev.sh \
	tests/bench-signal.sh tests/bench-refuse.sh tests/bench-cpu-wait.sh tests/bench-space.sh tests/bench-lock.sh \
	tests/bench-plausible.sh tests/bench-not-run.sh tests/bench-loop-cache.sh tests/bench-cpu-bound.sh \
	tests/bench-burst.sh tests/bench-tree-bound.sh tests/bench/lib.sh \
	tests/perf/compare-fio.sh tests/perf/bench-time.sh tests/perf/lib.sh doc/bench-vs-fio.md
include probes/bench/files.mk
