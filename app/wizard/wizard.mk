# The wizard: screens as init/draw/key, keymaps that drive dispatch and help, the terminal guard.
# `fstune` with no command calls ui_wizard_main (app/wizard/ui.h). Screens only render.
libfstune_app_a_SOURCES += app/wizard/ui.h app/wizard/ui_int.h app/wizard/term.c app/wizard/theme.c \
	app/wizard/keymap.c app/wizard/widgets.c app/wizard/moves.c app/wizard/loop.c app/wizard/wizard.c \
	app/wizard/state.c app/wizard/scr_target.c app/wizard/scr_workload.c app/wizard/scr_detected.c \
	app/wizard/scr_advice.c app/wizard/scr_detail.c app/wizard/scr_save.c app/wizard/scr_prompt.c \
	app/wizard/formbox.h app/wizard/formbox.c app/wizard/trial_settle.c app/wizard/progress.c \
	app/wizard/workload_step.c app/wizard/bench_step.c app/wizard/scr_custom.c app/wizard/scr_sample.c \
	app/wizard/scr_bench.c app/wizard/scr_charts.c app/wizard/bench_numbers.c
UI_TESTS = tests/ui-workload.sh tests/ui-bench.sh tests/ui-notty.sh tests/ui-keys.sh tests/ui-terminal.sh tests/ui-walk-facts.sh \
	tests/ui-walk-sysroot.sh tests/ui-walk-loop.sh tests/ui-screens.sh tests/ui-trial.sh tests/ui-accepted.sh
TESTS += $(UI_TESTS)
EXTRA_DIST += $(UI_TESTS) tests/ui-lib.sh tests/lib/tmux.sh tests/perf/wizard-first-draw.sh
