# The engines of `fstune apply`, `fstune undo` and `fstune history`: the plan, the journal, the
# persistent files; their commands are in app/commands/.
libfstune_app_a_SOURCES += app/apply/apply.h app/apply/apply.c app/apply/undo.c app/apply/plan.c \
	app/apply/journal.c app/apply/persist.c app/apply/files.c app/apply/runcmd.c app/apply/value.c app/apply/trust.c app/apply/leftovers.c \
	app/apply/apply_cli.c app/apply/apply_cli.h
APPLY_TESTS = tests/apply/apply-loop.sh tests/apply/apply-accepted.sh tests/apply/apply-commit.sh \
	tests/apply/apply-kill.sh tests/apply/apply-race.sh tests/apply/apply-crash.sh tests/apply/apply-names.sh \
	tests/apply/apply-sysctl.sh tests/apply/apply-bad.sh tests/apply/apply-hostile.sh
TESTS += $(APPLY_TESTS)
# What undo takes from a journal, without touching the host.
check_PROGRAMS += tests/apply/test_trust
TESTS += tests/apply/test_trust
# A forger's tool: a journal's checksums recomputed (tests/apply/apply-hostile.sh).
check_PROGRAMS += tests/tools/journal-reseal
tests_tools_journal_reseal_SOURCES = tests/tools/journal_reseal.c
EXTRA_DIST += $(APPLY_TESTS) tests/apply/rules/applytest.lua doc/journal.md
