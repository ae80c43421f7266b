#!/bin/bash
# The wizard's first hour, through tmux at 80x24 and 200x50: `fstune DIR` opens the wizard on DIR
# (as `ncdu DIR` does; a path that does not exist is said before the screen is taken); `q` quits at
# once while nothing was measured, and asks once a sample is unsaved (Esc stays, `s` goes to Save);
# the Save list takes Home and End (End then Enter is the scripts row, not a report named
# "scripts"); the scripts row offers ~/fstune-HOST-TIME and makes it 0700; writing the scripts
# does not save the measurements (q still asks), saving the report does (q quits at once).
# Runs on a generated tree, so it needs tmux but not root.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
. "$FSTUNE_SRCDIR/tests/lib/tmux.sh"
. "$FSTUNE_SRCDIR/tests/lib/ui.sh"
require_tmux

mkdir -p "$TMP/home" "$TMP/tree/a"
for i in $(seq 1 40); do head -c $((i * 100)) /dev/zero >"$TMP/tree/a/f$i"; done
TMUX_ENV+=("HOME=$TMP/home")

# A path that does not exist: a clear error on the terminal, status 2, the terminal restored.
tmux_start 80 24 "$FSTUNE" --no-system-rules "$TMP/nosuch/dir"
assert_eq "$(tmux_wait_exit)" 2 "fstune MISSING's status"
tmux_capture -J -S - | grep -qF "TARGET '$TMP/nosuch/dir' does not exist; give a directory, a block device or a filesystem image file" ||
	{ _tmux_dump; fail "fstune MISSING: not the error"; }
tmux_assert_stty_same
tmux_ kill-server

for size in "80 24" "200 50"; do
	read -r cols rows <<<"$size"
	# fstune DIR: the wizard on DIR, at its Workload step; q with nothing measured quits at once.
	tmux_start "$cols" "$rows" "$FSTUNE" --no-system-rules "$TMP/tree"
	tmux_wait "Workload:"
	tmux_wait "probed $TMP/tree"
	tmux_keys q
	assert_eq "$(tmux_wait_exit)" 0 "q with nothing measured ($size)"
	tmux_assert_stty_same
	tmux_ kill-server

	tmux_start "$cols" "$rows" "$FSTUNE" --no-system-rules "$TMP/tree"
	tmux_wait "Workload:"
	tmux_select "$CURSOR" "sample a directory"
	tmux_keys Enter
	tmux_wait "Directory to sample"
	tmux_keys C-u
	tmux_type "$TMP/tree"
	tmux_keys Enter
	tmux_wait "40 files"
	tmux_keys Enter
	tmux_wait "Detected:"
	# q asks: the sample is not saved; Esc stays where it was.
	tmux_keys q
	tmux_wait "Quit?"
	tmux_wait "Not saved yet: the sample."
	tmux_wait "s save the report first   q quit without saving   Esc stay"
	tmux_keys Escape
	tmux_wait_gone "Quit?"
	tmux_wait "Detected:"
	# s in the box goes to Save; End then Enter is the scripts row.
	tmux_keys q
	tmux_wait "Quit?"
	tmux_keys s
	tmux_wait "Save:"
	tmux_keys End
	tmux_wait_line "$CURSOR" "scripts     apply.sh"
	tmux_keys Home
	tmux_wait_line "$CURSOR" "text        for reading"
	tmux_keys End Enter
	tmux_wait "Write apply.sh and revert.sh in the directory (made when missing):"
	host=$(hostname)
	dir=$(tmux_capture | grep -o "$TMP/home/fstune-$host-[0-9]\{8\}-[0-9]\{6\}") ||
		{ _tmux_dump; fail "the scripts row does not offer ~/fstune-$host-TIME ($size)"; }
	[ ! -e "$dir" ] || fail "$dir exists before it was accepted"
	tmux_keys Enter
	tmux_wait "wrote apply.sh and revert.sh in"
	tmux_wait "${dir#"$TMP/"}"
	assert_eq "$(stat -c %a "$dir")" 700 "the mode of the directory the wizard made ($size)"
	[ -s "$dir/apply.sh" ] && [ -s "$dir/revert.sh" ] || fail "the wizard's $dir holds $(ls -A "$dir")"
	[ ! -e "$TMP/scripts" ] && [ ! -e "$TMP/home/scripts" ] || fail "a file named scripts was written"
	rm -rf "$dir"
	# The scripts hold no measurement: q still asks; the JSON report does, and then q quits.
	tmux_keys q
	tmux_wait "Quit?"
	tmux_keys Escape
	tmux_wait_gone "Quit?"
	ui_save_json "$TMP/sampled.json"
	assert_eq "$(jq -r '.facts.workload.files_total' "$TMP/sampled.json")" 40 "the saved sample ($size)"
	tmux_keys q
	assert_eq "$(tmux_wait_exit)" 0 "q after saving ($size)"
	tmux_assert_stty_same
	ui_assert_no_sanitizer_report
	tmux_ kill-server
done
echo "fstune DIR opens the wizard; q asks while a sample is unsaved; Save takes Home/End and makes ~/fstune-HOST-TIME"
