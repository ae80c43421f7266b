# `fstune probe` and the facts renderers shared with the report.
libfstune_app_a_SOURCES += app/cmd_probe.c app/facts_render.c app/facts_render.h
