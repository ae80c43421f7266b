# Unit tests of the core, and the shared shell helpers. Other areas list their tests in their own
# fragments.
EXTRA_DIST += tests/lib/common.sh tests/unit/check.h
check_PROGRAMS += tests/unit/test_facts tests/unit/test_units tests/unit/test_path
TESTS += tests/unit/test_facts tests/unit/test_units tests/unit/test_path
tests_unit_test_facts_SOURCES = tests/unit/test_facts.c
tests_unit_test_facts_LDADD = $(FSTUNE_LDADD)
tests_unit_test_units_SOURCES = tests/unit/test_units.c
tests_unit_test_units_LDADD = $(FSTUNE_LDADD)
tests_unit_test_path_SOURCES = tests/unit/test_path.c
tests_unit_test_path_LDADD = $(FSTUNE_LDADD)

# build.sh's dependency step (reads build.sh and configure.ac from the source tree).
TESTS += tests/build-deps.sh
EXTRA_DIST += tests/build-deps.sh build.sh
