# The wizard: screens as init/draw/key, keymaps that drive dispatch and help, the terminal guard.
# `fstune` with no command calls ui_wizard_main (app/wizard/ui.h). Screens only render.
libfstune_app_a_SOURCES += app/wizard/ui.h app/wizard/ui_int.h app/wizard/term.c app/wizard/theme.c \
	app/wizard/keymap.c app/wizard/widgets.c app/wizard/moves.c app/wizard/loop.c app/wizard/wizard.c \
	app/wizard/state.c app/wizard/scr_target.c app/wizard/scr_workload.c app/wizard/scr_detected.c \
	app/wizard/scr_advice.c app/wizard/scr_detail.c app/wizard/scr_save.c app/wizard/scr_prompt.c \
	app/wizard/formbox.h app/wizard/formbox.c app/wizard/trial_settle.c app/wizard/scr_trial.c app/wizard/progress.c \
	app/wizard/workload_step.c app/wizard/bench_step.c app/wizard/scr_custom.c app/wizard/scr_sample.c \
	app/wizard/scr_bench.c app/wizard/scr_charts.c app/wizard/bench_numbers.c app/wizard/quit.c
UI_TESTS = tests/wizard/ui-quit.sh tests/wizard/ui-long.sh tests/wizard/ui-trial-hint.sh tests/wizard/ui-workload.sh \
	tests/wizard/ui-bench.sh tests/wizard/ui-notty.sh tests/wizard/ui-keys.sh tests/wizard/ui-terminal.sh \
	tests/wizard/ui-walk-facts.sh tests/wizard/ui-walk-sysroot.sh tests/wizard/ui-walk-loop.sh \
	tests/wizard/ui-screens.sh tests/wizard/ui-trial.sh tests/wizard/ui-accepted.sh
TESTS += $(UI_TESTS)
EXTRA_DIST += $(UI_TESTS) tests/perf/wizard-first-draw.sh
