# `fstune trial`'s orchestration: candidates, scratch space and its record, the metrics, the measurement
# loop, the cold tree, the statistics and the judgement, the environment, the document.
libfstune_app_a_SOURCES += app/trial/trial.h app/trial/trial_spec.c app/trial/trial_scratch.c \
	app/trial/trial_scratch.h app/trial/trial_record.c app/trial/trial_record.h app/trial/trial_tree.c \
	app/trial/trial_tree.h app/trial/trial_metrics.c app/trial/trial_metrics.h app/trial/trial_run.c \
	app/trial/trial_run.h app/trial/trial_stats.c app/trial/trial_stats.h app/trial/trial_judge.c \
	app/trial/trial_env.c app/trial/trial_doc.c
TRIAL_TESTS = tests/trial/trial-image.sh tests/trial/trial-refuse.sh tests/trial/trial-verify.sh
TESTS += $(TRIAL_TESTS)
EXTRA_DIST += $(TRIAL_TESTS) doc/trial-1999.md doc/trial-aa.md
check_PROGRAMS += tests/trial/test_trial
TESTS += tests/trial/test_trial
