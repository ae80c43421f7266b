noinst_LIBRARIES += libfstune_core.a
libfstune_core_a_SOURCES = \
	core/xalloc.c core/xalloc.h \
	core/error.c \
	core/debug.c \
	core/path.c \
	core/units.c \
	core/shell.c \
	core/fstype.c \
	core/facts.c \
	core/facts_json.c \
	core/facts_schema.c core/facts_schema.h \
	include/fstune/facts.h include/fstune/path.h include/fstune/units.h include/fstune/fstype.h \
	include/fstune/error.h include/fstune/debug.h include/fstune/status.h include/fstune/shell.h
