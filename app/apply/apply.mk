# The engines of `fstune apply`, `fstune undo` and `fstune history`: the plan, the journal, the
# persistent files; their commands are in app/commands/.
libfstune_app_a_SOURCES += app/apply/apply.h app/apply/apply.c app/apply/undo.c app/apply/plan.c \
	app/apply/journal.c app/apply/persist.c app/apply/files.c app/apply/runcmd.c app/apply/value.c app/apply/trust.c \
	app/apply/apply_cli.c app/apply/apply_cli.h
APPLY_TESTS = tests/apply-loop.sh tests/apply-kill.sh tests/apply-sysctl.sh tests/apply-bad.sh tests/apply-hostile.sh
TESTS += $(APPLY_TESTS)
# What undo takes from a journal, without touching the host.
check_PROGRAMS += tests/unit/test_trust
TESTS += tests/unit/test_trust
tests_unit_test_trust_SOURCES = tests/unit/test_trust.c
tests_unit_test_trust_LDADD = $(FSTUNE_LDADD)
# A forger's tool: a journal's checksums recomputed (tests/apply-hostile.sh).
check_PROGRAMS += tests/tools/journal-reseal
tests_tools_journal_reseal_SOURCES = tests/tools/journal_reseal.c
tests_tools_journal_reseal_LDADD = $(FSTUNE_LDADD)
EXTRA_DIST += $(APPLY_TESTS) tests/apply-lib.sh tests/apply/rules/applytest.lua doc/journal.md
