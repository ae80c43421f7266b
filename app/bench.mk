# `fstune bench` and the benchmark table shared with the report.
libfstune_app_a_SOURCES += app/cmd_bench.c app/bench_table.c app/bench_table.h \
	app/bench_cli.c app/bench_cli.h
