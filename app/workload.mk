# `fstune workload` and the workload flags shared by report, bench, trial and the wizard.
libfstune_app_a_SOURCES += app/workload_cli.c app/workload_cli.h app/cmd_workload.c
