# The file benchmarks: smallfile, smallfile_fsync, metadata, tree; rows of the test table.
libfstune_probes_a_SOURCES += \
	probes/bench/file_common.h \
	probes/bench/file_common.c \
	probes/bench/file_smallfile.c \
	probes/bench/file_metadata.c \
	probes/bench/file_tree.c

BENCH_FILE_TESTS = tests/bench/bench-files.sh tests/bench/bench-files-enospc.sh tests/bench/bench-leftover.sh \
	tests/bench/bench-leftover-names.sh
TESTS += $(BENCH_FILE_TESTS)
EXTRA_DIST += $(BENCH_FILE_TESTS) tests/perf/compare-postmark.sh
