# Filesystem and storage-stack probes, their tests and fuzz targets.
libfstune_probes_a_SOURCES += \
	probes/fs_common.c probes/fs_common.h \
	probes/fs_crc32c.c probes/fs_crc32c.h probes/ondisk.h \
	probes/blkid.c \
	probes/ext2fs.c \
	probes/xfs_super.c probes/xfs_super.h probes/xfs.c \
	probes/btrfs_super.c probes/btrfs_super.h probes/btrfs.c \
	probes/member.c \
	probes/mounted.c \
	probes/stack.c

PROBE_FS_TESTS = tests/probe/fs-ext.sh tests/probe/fs-xfs.sh tests/probe/fs-btrfs.sh tests/probe/fs-bad.sh \
	tests/probe/fs-nonroot.sh tests/probe/fs-stack.sh tests/probe/fs-member.sh
TESTS += $(PROBE_FS_TESTS)
EXTRA_DIST += $(PROBE_FS_TESTS)

# The fuzz corpora are replayed by make check in the ordinary build: the same LLVMFuzzerTestOneInput
# behind a small main() (tests/fuzz/replay.c).
FUZZ_REPLAYS = tests/fuzz/replay-xfs-super tests/fuzz/replay-btrfs-super tests/fuzz/replay-facts-json
check_PROGRAMS += $(FUZZ_REPLAYS)
TESTS += $(FUZZ_REPLAYS)
EXTRA_DIST += tests/fuzz/corpus tests/fuzz/fuzz.h tests/fuzz/README.md
tests_fuzz_replay_xfs_super_SOURCES = tests/fuzz/replay.c tests/fuzz/fuzz_xfs_super.c \
	probes/xfs_super.c probes/fs_crc32c.c
tests_fuzz_replay_xfs_super_CFLAGS = $(AM_CFLAGS) -DFUZZ_CORPUS='"xfs_super"'
tests_fuzz_replay_btrfs_super_SOURCES = tests/fuzz/replay.c tests/fuzz/fuzz_btrfs_super.c \
	probes/btrfs_super.c probes/fs_crc32c.c
tests_fuzz_replay_btrfs_super_CFLAGS = $(AM_CFLAGS) -DFUZZ_CORPUS='"btrfs_super"'
tests_fuzz_replay_facts_json_SOURCES = tests/fuzz/replay.c tests/fuzz/fuzz_facts_json.c
tests_fuzz_replay_facts_json_CFLAGS = $(AM_CFLAGS) -DFUZZ_CORPUS='"facts_json"'

if ENABLE_FUZZERS
# libFuzzer targets: configure with CC=clang --enable-fuzzers, then e.g.
#   tests/fuzz/fuzz-xfs-super -max_total_time=600 $(srcdir)/tests/fuzz/corpus/xfs_super
# The facts reader's lib/ sources are compiled into its target so they are instrumented too.
FUZZ_CFLAGS = -fsanitize=fuzzer,address,undefined -fno-omit-frame-pointer -g \
	-DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
noinst_PROGRAMS += tests/fuzz/fuzz-xfs-super tests/fuzz/fuzz-btrfs-super tests/fuzz/fuzz-facts-json
tests_fuzz_fuzz_xfs_super_SOURCES = tests/fuzz/fuzz_xfs_super.c probes/xfs_super.c probes/fs_crc32c.c
tests_fuzz_fuzz_xfs_super_CFLAGS = $(AM_CFLAGS) $(FUZZ_CFLAGS)
tests_fuzz_fuzz_xfs_super_LDFLAGS = $(FUZZ_CFLAGS)
tests_fuzz_fuzz_btrfs_super_SOURCES = tests/fuzz/fuzz_btrfs_super.c probes/btrfs_super.c \
	probes/fs_crc32c.c
tests_fuzz_fuzz_btrfs_super_CFLAGS = $(AM_CFLAGS) $(FUZZ_CFLAGS)
tests_fuzz_fuzz_btrfs_super_LDFLAGS = $(FUZZ_CFLAGS)
tests_fuzz_fuzz_facts_json_SOURCES = tests/fuzz/fuzz_facts_json.c lib/facts.c lib/facts_json.c \
	lib/facts_schema.c lib/xalloc.c lib/error.c
tests_fuzz_fuzz_facts_json_CFLAGS = $(AM_CFLAGS) $(FUZZ_CFLAGS)
tests_fuzz_fuzz_facts_json_LDFLAGS = $(FUZZ_CFLAGS)
tests_fuzz_fuzz_facts_json_LDADD = $(JANSSON_LIBS)
endif
