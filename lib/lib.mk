noinst_LIBRARIES += libfstune_lib.a
libfstune_lib_a_SOURCES = \
	lib/xalloc.c lib/xalloc.h \
	lib/dirnames.c lib/dirnames.h \
	lib/json_find.c lib/json_find.h \
	lib/error.c \
	lib/debug.c \
	lib/path.c \
	lib/units.c \
	lib/shell.c \
	lib/utf8.c \
	lib/fstype.c \
	lib/facts.c \
	lib/facts_json.c \
	lib/facts_schema.c lib/facts_schema.h \
	lib/trial_words.c \
	lib/output.c \
	lib/clock.c \
	lib/rng.c \
	include/fstune/facts.h include/fstune/path.h include/fstune/units.h include/fstune/fstype.h \
	include/fstune/error.h include/fstune/debug.h include/fstune/status.h include/fstune/shell.h \
	include/fstune/utf8.h include/fstune/trial_words.h include/fstune/output.h include/fstune/clock.h \
	include/fstune/rng.h
