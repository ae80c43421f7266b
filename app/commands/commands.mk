# The commands: each parses its own flags and runs the session's steps; the flags several share.
libfstune_app_a_SOURCES += app/commands/cmd_probe.c app/commands/cmd_report.c app/commands/cmd_rules.c \
	app/commands/cmd_bench.c app/commands/bench_cli.c app/commands/bench_cli.h \
	app/commands/cmd_workload.c app/commands/workload_cli.c app/commands/workload_cli.h \
	app/commands/cmd_compare.c app/commands/cmd_trial.c \
	app/commands/accepted_cli.c app/commands/accepted_cli.h app/commands/rules_cli.c app/commands/rules_cli.h \
	app/commands/cmd_apply.c app/commands/cmd_undo.c app/commands/cmd_history.c app/commands/cmd_apply.h

check_PROGRAMS += tests/report/test_report tests/report/test_report_model

# Golden reports: tests/report/report-update-goldens.sh rewrites them (see tests/golden/README).
REPORT_TESTS = tests/report/report-golden.sh tests/report/report-formats.sh tests/report/report-errors.sh \
	tests/report/report-manpage.sh tests/report/report-target.sh tests/report/report-output-special.sh \
	tests/report/report-bench.sh tests/report/report-judge.sh tests/report/report-accepted.sh \
	tests/report/report-openmetrics.sh tests/fleet/compare.sh tests/report/report-utf8.sh \
	tests/report/report-controls.sh
TESTS += tests/report/test_report tests/report/test_report_model $(REPORT_TESTS)
# compare at fleet size, from the server fixtures multiplied (tests/lib/make-fleet.sh); its speed at a
# thousand reports is tests/perf/compare-fleet.sh's.
TESTS += tests/fleet/compare-fleet.sh
EXTRA_DIST += tests/fleet/compare-fleet.sh tests/perf/compare-fleet.sh
# Every option a command's --help shows is taken by its parser (the shared parsers add the common ones).
TESTS += tests/cli/cli-options.sh
EXTRA_DIST += tests/cli/cli-options.sh
EXTRA_DIST += $(REPORT_TESTS) tests/report/report-update-goldens.sh tests/report/report_session.h \
	tests/perf/report-speed.sh tests/facts tests/golden
