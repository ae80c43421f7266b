# Unit tests of the core, and the shared shell helpers. Other areas list their tests in their own
# fragments.
EXTRA_DIST += tests/lib/common.sh tests/lib/on-terminal.py tests/lib/ui-loop.sh tests/unit/check.h tests/unit/report_session.h
check_PROGRAMS += tests/unit/test_facts tests/unit/test_units tests/unit/test_path tests/unit/test_utf8
TESTS += tests/unit/test_facts tests/unit/test_units tests/unit/test_path tests/unit/test_utf8
tests_unit_test_facts_SOURCES = tests/unit/test_facts.c
tests_unit_test_facts_LDADD = $(FSTUNE_LDADD)
tests_unit_test_units_SOURCES = tests/unit/test_units.c
tests_unit_test_units_LDADD = $(FSTUNE_LDADD)
tests_unit_test_path_SOURCES = tests/unit/test_path.c
tests_unit_test_path_LDADD = $(FSTUNE_LDADD)
tests_unit_test_utf8_SOURCES = tests/unit/test_utf8.c
tests_unit_test_utf8_LDADD = $(FSTUNE_LDADD)

# The atomic output writer, the monotonic clock and the seeded random numbers of lib/ (each built
# from the .c file of its name, automake's default).
check_PROGRAMS += tests/unit/test_output tests/unit/test_clock tests/unit/test_rng
TESTS += tests/unit/test_output tests/unit/test_clock tests/unit/test_rng
tests_unit_test_output_LDADD = $(FSTUNE_LDADD)
tests_unit_test_clock_LDADD = $(FSTUNE_LDADD)
tests_unit_test_rng_LDADD = $(FSTUNE_LDADD)

# build.sh's dependency step (reads build.sh and configure.ac from the source tree), and its rebuild
# when the configure options change.
TESTS += tests/build-deps.sh tests/build-rebuild.sh
EXTRA_DIST += tests/build-deps.sh tests/build-rebuild.sh build.sh

# The facts schema: every key has a unit and a label, every key a probe emits here is in it, and
# doc/facts.md's key table is generated from it: `make facts-table` after changing lib/facts_schema.c.
check_PROGRAMS += tests/unit/test_facts_schema
TESTS += tests/unit/test_facts_schema tests/facts-schema.sh tests/ui-detected-labels.sh
tests_unit_test_facts_schema_SOURCES = tests/unit/test_facts_schema.c
tests_unit_test_facts_schema_LDADD = $(FSTUNE_LDADD)
noinst_PROGRAMS += tests/tools/gen-facts-table
tests_tools_gen_facts_table_SOURCES = tests/tools/gen_facts_table.c
tests_tools_gen_facts_table_LDADD = libfstune_lib.a $(JANSSON_LIBS) -lm
EXTRA_DIST += tests/facts-schema.sh tests/ui-detected-labels.sh doc/facts.md
facts-table: tests/tools/gen-facts-table
	tests/tools/gen-facts-table '$(abs_top_srcdir)/doc/facts.md' >'$(abs_top_srcdir)/doc/facts.md.tmp' && \
	mv '$(abs_top_srcdir)/doc/facts.md.tmp' '$(abs_top_srcdir)/doc/facts.md'
.PHONY: facts-table

# The facts mutator: 2,000 deterministic mutations of the fixtures' facts files through the reader, the
# renderers, the rules, every report writer and the scripts (tests/fuzz/mutate_facts.c).
check_PROGRAMS += tests/fuzz/mutate-facts
TESTS += tests/fuzz/mutate-facts
tests_fuzz_mutate_facts_SOURCES = tests/fuzz/mutate_facts.c
tests_fuzz_mutate_facts_LDADD = $(FSTUNE_LDADD)
