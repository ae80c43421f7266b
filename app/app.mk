# The application: main, the command line and the table of output formats; one fragment per folder.
noinst_LIBRARIES += libfstune_app.a
libfstune_app_a_SOURCES = app/cli.c app/cli.h app/formats.c app/formats.h
libfstune_app_a_CFLAGS = $(AM_CFLAGS) $(CURSES_CFLAGS) $(LUA_CFLAGS)
bin_PROGRAMS += fstune
fstune_SOURCES = app/main.c
fstune_CFLAGS = $(AM_CFLAGS) $(CURSES_CFLAGS)
fstune_LDADD = $(FSTUNE_LDADD)
dist_man_MANS += doc/fstune.1
include app/session/session.mk
include app/commands/commands.mk
include app/render/render.mk
include app/trial/trial.mk
include app/wizard/wizard.mk
include app/apply/apply.mk
