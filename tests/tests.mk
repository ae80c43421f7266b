# The tests are laid out like the source (tests/README.md says what each folder holds); each area's
# fragment lists its own. This one holds the foundation's (tests/base/), the build's (tests/build/)
# and the helpers every area shares (tests/lib/).
#
# A test program AREA/test_NAME is built from AREA/test_NAME.c (automake's default source) and linked
# with the whole of fstune's libraries (LDADD, the default of every program without its own).
LDADD = $(FSTUNE_LDADD)
EXTRA_DIST += tests/README.md tests/lib/common.sh tests/lib/on-terminal.py tests/lib/ui-loop.sh \
	tests/lib/tmux.sh tests/lib/ui.sh tests/lib/html_check.py tests/lib/report.sh tests/lib/make-fleet.sh \
	tests/lib/apply.sh tests/lib/trial.sh tests/lib/fs.sh tests/lib/bench.sh tests/lib/perf.sh \
	tests/lib/check.h
BASE_TESTS = tests/base/test_facts tests/base/test_units tests/base/test_path tests/base/test_utf8 \
	tests/base/test_output tests/base/test_clock tests/base/test_rng
check_PROGRAMS += $(BASE_TESTS)
TESTS += $(BASE_TESTS)

# build.sh's dependency step (reads build.sh and configure.ac from the source tree), and its rebuild
# when the configure options change.
TESTS += tests/build/build-deps.sh tests/build/build-rebuild.sh
EXTRA_DIST += tests/build/build-deps.sh tests/build/build-rebuild.sh build.sh

# The facts schema: every key has a unit and a label, every key a probe emits here is in it, and
# doc/facts.md's key table is generated from it: `make facts-table` after changing lib/facts_schema.c.
check_PROGRAMS += tests/base/test_facts_schema
TESTS += tests/base/test_facts_schema tests/base/facts-schema.sh tests/wizard/ui-detected-labels.sh
noinst_PROGRAMS += tests/tools/gen-facts-table
tests_tools_gen_facts_table_SOURCES = tests/tools/gen_facts_table.c
tests_tools_gen_facts_table_LDADD = libfstune_lib.a $(JANSSON_LIBS) -lm
EXTRA_DIST += tests/base/facts-schema.sh tests/wizard/ui-detected-labels.sh doc/facts.md
facts-table: tests/tools/gen-facts-table
	tests/tools/gen-facts-table '$(abs_top_srcdir)/doc/facts.md' >'$(abs_top_srcdir)/doc/facts.md.tmp' && \
	mv '$(abs_top_srcdir)/doc/facts.md.tmp' '$(abs_top_srcdir)/doc/facts.md'
.PHONY: facts-table

# The facts mutator: 2,000 deterministic mutations of the fixtures' facts files through the reader, the
# renderers, the rules, every report writer and the scripts (tests/fuzz/mutate_facts.c).
check_PROGRAMS += tests/fuzz/mutate-facts
TESTS += tests/fuzz/mutate-facts
tests_fuzz_mutate_facts_SOURCES = tests/fuzz/mutate_facts.c
