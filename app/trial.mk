# `fstune trial`: candidates, scratch space, the measurement loop, the cold tree, the renderers, and
# the marking of reformat advice by a trial's facts.
libfstune_app_a_SOURCES += app/cmd_trial.c app/trial.h app/trial_spec.c app/trial_scratch.c \
	app/trial_scratch.h app/trial_tree.c app/trial_tree.h app/trial_run.c app/trial_run.h \
	app/trial_out.c app/trial_verify.c
TRIAL_TESTS = tests/trial-image.sh tests/trial-refuse.sh tests/trial-verify.sh
TESTS += $(TRIAL_TESTS)
EXTRA_DIST += $(TRIAL_TESTS) tests/trial-lib.sh doc/trial-1999.md
check_PROGRAMS += tests/unit/test_trial
TESTS += tests/unit/test_trial
tests_unit_test_trial_SOURCES = tests/unit/test_trial.c
tests_unit_test_trial_LDADD = $(FSTUNE_LDADD)
