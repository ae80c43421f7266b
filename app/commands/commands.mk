# The commands: each parses its own flags and runs the session's steps; the flags several share.
libfstune_app_a_SOURCES += app/commands/cmd_probe.c app/commands/cmd_report.c app/commands/cmd_rules.c \
	app/commands/cmd_bench.c app/commands/bench_cli.c app/commands/bench_cli.h \
	app/commands/cmd_workload.c app/commands/workload_cli.c app/commands/workload_cli.h \
	app/commands/cmd_compare.c app/commands/cmd_trial.c \
	app/commands/accepted_cli.c app/commands/accepted_cli.h app/commands/rules_cli.c app/commands/rules_cli.h \
	app/commands/cmd_apply.c app/commands/cmd_undo.c app/commands/cmd_history.c app/commands/cmd_apply.h

check_PROGRAMS += tests/unit/test_report tests/unit/test_report_model
tests_unit_test_report_SOURCES = tests/unit/test_report.c
tests_unit_test_report_LDADD = $(FSTUNE_LDADD)
tests_unit_test_report_model_SOURCES = tests/unit/test_report_model.c
tests_unit_test_report_model_LDADD = $(FSTUNE_LDADD)

# Golden reports: tests/report-update-goldens.sh rewrites them (see tests/golden/README).
REPORT_TESTS = tests/report-golden.sh tests/report-formats.sh tests/report-errors.sh \
	tests/report-manpage.sh tests/report-target.sh tests/report-output-special.sh tests/report-bench.sh \
	tests/report-judge.sh tests/report-accepted.sh tests/report-openmetrics.sh tests/compare.sh \
	tests/report-utf8.sh
TESTS += tests/unit/test_report tests/unit/test_report_model $(REPORT_TESTS)
# Every option a command's --help shows is taken by its parser (the shared parsers add the common ones).
TESTS += tests/cli-options.sh
EXTRA_DIST += tests/cli-options.sh
EXTRA_DIST += $(REPORT_TESTS) tests/report-update-goldens.sh tests/report-lib.sh \
	tests/perf/report-speed.sh tests/facts tests/golden
