#!/bin/bash
# The terminal is always restored: q, Ctrl-C, SIGTERM, SIGHUP and an abort (the path of a fatal
# error: xalloc aborts) each leave `stty -g` as it was, with the documented exit status (0, or
# 128+n from re-raising the signal). Below 80x24 the wizard asks for a larger terminal and lays
# out again when it grows back; NO_COLOR turns colour off; a non-UTF-8 locale draws in ASCII.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
. "$FSTUNE_SRCDIR/tests/lib/tmux.sh"
. "$FSTUNE_SRCDIR/tests/lib/ui.sh"
require_tmux

cat >"$TMP/facts.json" <<'JSON'
{"schema": "fstune.facts/1",
 "device": {"name": "sdb", "transport": "sata", "rotational": true},
 "fs": {"type": "ext4", "block_size": 2048, "features": ["has_journal", "extent"]}}
JSON
start() {
	tmux_ kill-server 2>/dev/null || true
	tmux_start 80 24 "$FSTUNE" --no-system-rules --facts "$TMP/facts.json"
	tmux_wait "Target:"
}

# start_at_save: a new wizard walked through every step to the Save screen, where the file-name prompt opens.
start_at_save() {
	start
	tmux_keys Enter
	tmux_wait "Workload:"
	tmux_keys Enter
	tmux_wait "Detected:"
	ui_detected_to_advice
	tmux_keys s
	tmux_wait "Save:"
}

# ends WANT_STATUS HOW: the wizard ended with WANT_STATUS and the terminal is as it was.
ends() {
	local want=$1 how=$2 got
	got=$(tmux_wait_exit)
	assert_eq "$got" "$want" "exit status after $how"
	tmux_assert_stty_same
	# The alternate screen was left: the wrapper's lines are on the normal screen.
	tmux_ capture-pane -p -t fst -S - | grep -q "WRAPPER-DONE" || fail "$how: the main screen was not restored"
	[ "$(tmux_ display-message -p -t fst '#{alternate_on}')" = 0 ] || fail "$how: still on the alternate screen"
}

start
tmux_keys q
ends 0 "q"

# Ctrl-C on a later step, with the help open.
start
tmux_keys Enter
tmux_wait "Workload:"
tmux_keys '?'
tmux_wait "Everywhere"
tmux_keys C-c
ends 130 "Ctrl-C"

start
kill -TERM "$(tmux_program_pid)"
ends 143 "SIGTERM"

# SIGHUP while a prompt (a curses form on a panel) is up: the cursor is visible then.
start_at_save
tmux_keys Enter
tmux_wait "Save the report as"
kill -HUP "$(tmux_program_pid)"
ends 129 "SIGHUP"

start
kill -ABRT "$(tmux_program_pid)"
ends 134 "SIGABRT"
ui_assert_no_sanitizer_report

# Resize below 80x24 and back.
start
tmux_resize 60 20
tmux_wait "enlarge the terminal to at least 80x24"
tmux_wait "(now 60x20; q quits)"
tmux_resize 80 24
tmux_wait_gone "enlarge the terminal"
tmux_wait "Target:"
tmux_wait "NAME"
# Larger than 80x24: the layout follows (the hint bar is on the last row).
tmux_resize 120 40
tmux_wait_gone "enlarge the terminal"
tmux_wait_row 40 "Enter choose"
tmux_resize 80 24
tmux_wait "Target:"
tmux_wait_row 24 "Enter choose"
tmux_keys q
ends 0 "q after resizing"

# A resize while the prompt (a form on a panel) is up rebuilds it, keeping the text typed so far,
# UTF-8 included; the file is then saved under that name.
start_at_save
tmux_select "$CURSOR" "markdown"
tmux_keys Enter
tmux_wait "Save the report as"
tmux_keys C-u
# a resize between two words keeps the space typed before it (the form is rebuilt for the new width)
tmux_type "$TMP/rapport "
tmux_wait "rapport"
tmux_resize 100 30
tmux_wait_row 30 "Enter accept"
tmux_type "é.mdx"
tmux_wait "é.mdx"
tmux_keys BSpace
tmux_keys Enter
tmux_wait "saved the markdown report to $TMP/rapport é.md"
grep -q "^#" "$TMP/rapport é.md" || fail "the saved Markdown report has no heading"
tmux_keys q
ends 0 "q after saving"

# has_colour: the pane holds an SGR colour parameter (30-37, 40-47, 38, 48, 90-97, 100-107).
has_colour() {
	tmux_capture_escapes | grep -o $'\e\\[[0-9;]*m' | tr -d '\033[m' | tr ';' '\n' |
		grep -qxE '3[0-8]|4[0-8]|9[0-7]|10[0-7]'
}
start
has_colour || { tmux_capture_escapes | cat -v | head -5 >&2; fail "no colour without NO_COLOR: the check cannot fail"; }
tmux_keys q
ends 0 "q"
TMUX_ENV+=(NO_COLOR=1)
start
tmux_keys '?'
tmux_wait "Everywhere"
! has_colour || { tmux_capture_escapes | cat -v | head -5 >&2; fail "colour despite NO_COLOR=1"; }
# Still legible without colour: the title bar and the cursor row are in reverse video.
tmux_capture_escapes | grep -q $'\e\\[7m' || fail "NO_COLOR: no reverse video left"
tmux_keys Escape q
ends 0 "q with NO_COLOR"
unset 'TMUX_ENV[${#TMUX_ENV[@]}-1]'

# A locale that is not UTF-8: ASCII lines and cursor.
TMUX_ENV[0]=LC_ALL=C
start
tmux_wait "> sdb"
tmux_keys '?'
tmux_wait "+- Help -"
if tmux_capture | grep -q "[┌─│▶…]"; then _tmux_dump; fail "UTF-8 glyphs in the C locale"; fi
tmux_keys Escape q
ends 0 "q in the C locale"
