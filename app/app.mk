# The application: main, the command line, commands, the session, renderers.
noinst_LIBRARIES += libfstune_app.a
libfstune_app_a_SOURCES = app/cli.c app/cli.h app/formats.c app/formats.h
libfstune_app_a_CFLAGS = $(AM_CFLAGS) $(CURSES_CFLAGS) $(LUA_CFLAGS)
bin_PROGRAMS += fstune
fstune_SOURCES = app/main.c
fstune_CFLAGS = $(AM_CFLAGS) $(CURSES_CFLAGS)
fstune_LDADD = $(FSTUNE_LDADD)
include app/probe.mk
include app/report.mk
include app/rules_cmd.mk
include app/bench.mk
include app/workload.mk
include app/compare.mk
include app/ui/ui.mk
include app/trial.mk
