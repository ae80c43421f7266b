# `fstune compare`: reports of several runs or hosts side by side, and its tests.
libfstune_app_a_SOURCES += app/cmd_compare.c app/compare.h app/compare_render.c
TESTS += tests/compare.sh
EXTRA_DIST += tests/compare.sh
