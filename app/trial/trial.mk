# `fstune trial`'s orchestration: candidates, scratch space, the measurement loop, the cold tree.
libfstune_app_a_SOURCES += app/trial/trial.h app/trial/trial_spec.c app/trial/trial_scratch.c \
	app/trial/trial_scratch.h app/trial/trial_tree.c app/trial/trial_tree.h app/trial/trial_run.c \
	app/trial/trial_run.h
TRIAL_TESTS = tests/trial-image.sh tests/trial-refuse.sh tests/trial-verify.sh
TESTS += $(TRIAL_TESTS)
EXTRA_DIST += $(TRIAL_TESTS) tests/trial-lib.sh doc/trial-1999.md
check_PROGRAMS += tests/unit/test_trial
TESTS += tests/unit/test_trial
tests_unit_test_trial_SOURCES = tests/unit/test_trial.c
tests_unit_test_trial_LDADD = $(FSTUNE_LDADD)
