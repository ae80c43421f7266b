# `fstune report`: the session, the report writers, the man page, and their tests.
libfstune_app_a_SOURCES += \
	app/session.c app/session.h app/session_query.c \
	app/cmd_report.c app/accepted.c app/accepted.h \
	app/report_render.h app/report_common.c app/report_examined.c \
	app/report_text.c app/report_markdown.c app/report_json.c app/report_openmetrics.c

dist_man_MANS += doc/fstune.1

check_PROGRAMS += tests/unit/test_report
tests_unit_test_report_SOURCES = tests/unit/test_report.c
tests_unit_test_report_LDADD = $(FSTUNE_LDADD)

# Golden reports: tests/report-update-goldens.sh rewrites them (see tests/golden/README).
TESTS += tests/unit/test_report \
	tests/report-golden.sh \
	tests/report-formats.sh \
	tests/report-errors.sh \
	tests/report-manpage.sh \
	tests/report-target.sh \
	tests/report-output-special.sh \
	tests/report-bench.sh \
	tests/report-judge.sh \
	tests/report-accepted.sh \
	tests/report-openmetrics.sh
EXTRA_DIST += tests/report-output-special.sh tests/report-bench.sh tests/report-judge.sh \
	tests/report-accepted.sh tests/report-openmetrics.sh
EXTRA_DIST += tests/report-golden.sh tests/report-formats.sh tests/report-errors.sh \
	tests/report-manpage.sh tests/report-target.sh tests/report-update-goldens.sh tests/report-lib.sh \
	tests/perf/report-speed.sh tests/facts tests/golden
