# The wizard: screens as init/draw/key, keymaps that drive dispatch and help, the
# terminal guard. `fstune` with no command calls ui_wizard_main (app/ui/ui.h).
libfstune_app_a_SOURCES += app/ui/ui.h app/ui/ui_int.h app/ui/term.c app/ui/theme.c \
	app/ui/keymap.c app/ui/widgets.c app/ui/loop.c app/ui/wizard.c \
	app/ui/scr_target.c app/ui/scr_workload.c app/ui/scr_detected.c app/ui/scr_advice.c \
	app/ui/scr_detail.c app/ui/scr_save.c app/ui/scr_prompt.c app/ui/trial_settle.c

UI_TESTS = tests/ui-notty.sh tests/ui-keys.sh tests/ui-terminal.sh tests/ui-walk-facts.sh \
	tests/ui-walk-sysroot.sh tests/ui-walk-loop.sh tests/ui-screens.sh tests/ui-trial.sh
TESTS += $(UI_TESTS)
EXTRA_DIST += $(UI_TESTS) tests/ui-lib.sh tests/lib/tmux.sh tests/perf/wizard-first-draw.sh
