# The renderers: facts, reports in every format, benchmark tables, comparisons and trial results.
# They only render: nothing here probes or decides.
libfstune_app_a_SOURCES += app/render/facts_render.c app/render/facts_render.h \
	app/render/report_render.h app/render/report_common.c app/render/report_model.h \
	app/render/report_build.h app/render/report_model.c app/render/report_rec.c app/render/report_examined.c \
	app/render/report_text.c app/render/report_markdown.c app/render/report_json.c \
	app/render/report_openmetrics.c app/render/report_owners.c app/render/bench_table.c app/render/bench_table.h \
	app/render/compare.h app/render/compare_model.c app/render/compare_render.c app/render/compare_fleet.c \
	app/render/compare_bench.c app/render/compare_summary.c app/render/compare_table.h \
	app/render/trial_out.c app/render/trial_render.h app/render/progress.c app/render/progress.h \
	app/render/markdown.c app/render/markdown.h app/render/rules_render.c app/render/rules_render.h \
	app/render/scripts.c app/render/scripts.h app/render/scripts_dir.c \
	app/render/html.h app/render/html.c app/render/html_chart.c app/render/report_html.h \
	app/render/report_html.c app/render/report_html_bench.c app/render/compare_html.c \
	app/render/compare_html_fleet.c

# The apply and revert scripts, run for real on loop devices.
SCRIPTS_TESTS = tests/report/scripts-apply.sh tests/report/scripts-errors.sh tests/report/scripts-read.sh \
	tests/report/scripts-left-out.sh tests/report/scripts-fstab.sh tests/report/scripts-hostile.sh
TESTS += $(SCRIPTS_TESTS)
EXTRA_DIST += $(SCRIPTS_TESTS)

# The HTML pages, rendered by headless Chromium.
TESTS += tests/report/report-html.sh
EXTRA_DIST += tests/report/report-html.sh
