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
BENCH_UNIT_TESTS = tests/bench/test_hist tests/bench/test_slices tests/bench/test_null_engine tests/bench/test_burst
check_PROGRAMS += $(BENCH_UNIT_TESTS)
BENCH_TESTS = tests/bench/bench-dir.sh tests/bench/bench-ext4.sh tests/bench/bench-direct-labels.sh \
	tests/bench/bench-rawdev.sh tests/bench/bench-signal.sh tests/bench/bench-refuse.sh tests/bench/bench-cpu-wait.sh \
	tests/bench/bench-space.sh tests/bench/bench-lock.sh tests/bench/bench-plausible.sh tests/bench/bench-not-run.sh \
	tests/bench/bench-loop-cache.sh tests/bench/bench-cpu-bound.sh tests/bench/bench-burst.sh \
	tests/bench/bench-tree-bound.sh
TESTS += $(BENCH_UNIT_TESTS) $(BENCH_TESTS)
EXTRA_DIST += $(BENCH_TESTS) tests/perf/compare-fio.sh tests/perf/bench-time.sh doc/bench-vs-fio.md
include probes/bench/files.mk
