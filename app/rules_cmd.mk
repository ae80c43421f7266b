# `fstune rules list|show|test` (the rule engine's command).
libfstune_app_a_SOURCES += app/cmd_rules.c
