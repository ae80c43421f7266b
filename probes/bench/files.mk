# The file benchmarks: smallfile, smallfile_fsync, metadata, tree; rows of the test table.
libfstune_probes_a_SOURCES += \
	probes/bench/file_common.h \
	probes/bench/file_common.c \
	probes/bench/file_smallfile.c \
	probes/bench/file_metadata.c \
	probes/bench/file_tree.c

TESTS += tests/bench-files.sh tests/bench-files-enospc.sh tests/bench-leftover.sh tests/bench-leftover-names.sh
EXTRA_DIST += tests/bench-files.sh tests/bench-files-enospc.sh tests/bench-leftover.sh tests/bench-leftover-names.sh tests/perf/compare-postmark.sh
