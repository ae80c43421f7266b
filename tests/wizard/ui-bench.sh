#!/bin/bash
# The wizard's Bench and Charts steps on a loop-mounted ext4, at test scale (short runtime, a 32 MiB
# span): the Bench step states each suite's time and space; a quick run completes with its numbers
# on screen and the rules see them; Charts draws the results at 80x24 and at 200x50 (and, in an
# ASCII locale, without block glyphs); Esc during a run stops it with the scratch directory removed
# and the wizard goes on, Ctrl-C ends it (130) after the same clean-up, the terminal as found;
# a busy device is warned about and asked for; Advice shows the measured number a recommendation
# rests on; the full suite draws the small-versus-large curve; on an unmounted
# device only the read tests are offered, and the screen says so.
. "$FSTUNE_SRCDIR/tests/lib/ui-loop.sh"
. "$FSTUNE_SRCDIR/tests/lib/bench.sh"
require_cmd jq mkfs.ext4

SHORT=(--runtime 0.3 --warmup 0.1 --busy-check 0 --size 32M)
# A rule resting on a measurement: Advice names the number it rests on, with its source.
export FSTUNE_RULES_PATH=
make_image "$TMP/ext4.img" 256M
mkfs.ext4 -q -F "$TMP/ext4.img" || fail "mkfs.ext4 failed"
dev=$(attach_loop "$TMP/ext4.img")
mnt=$(mount_tmp "$dev")
name=${dev#/dev/}

# ui_to_bench COLS ROWS [OPTIONS...]: the wizard on the loop device, through Workload (general) and
# Detected, to the Bench step.
ui_to_bench() {
	local cols=$1 rows=$2
	shift 2
	ui_open_target "$cols" "$rows" "$name" --rules-dir "$FSTUNE_SRCDIR/tests/rules/needs-bench" "${SHORT[@]}" "$@"
	tmux_select "$CURSOR" "general"
	tmux_keys Enter
	tmux_wait "Detected:"
	tmux_keys Enter
	tmux_wait "Benchmarks:"
}

# longest_bar: the most block cells on one line of the pane.
longest_bar() {
	tmux_capture | while IFS= read -r line; do
		printf '%s' "$line" | grep -o '█' | wc -l
	done | sort -n | tail -n 1
}

# quit_after_stop WHAT: q after a stopped run. A test that finished before Esc (a loaded machine
# is slow to read the key) is kept: the list offers "continue" and q asks before throwing it away;
# with none finished the cursor is on "none" and q quits at once.
quit_after_stop() {
	if tmux_capture | grep -Eq "[1-9][0-9]* finished tests? kept"; then
		tmux_wait_line "$CURSOR" "continue"
		tmux_keys q
		tmux_wait "Not saved yet: the benchmark results."
	else
		tmux_wait_line "$CURSOR" "none"
	fi
	tmux_keys q
	assert_eq "$(tmux_wait_exit)" 0 "exit status after Esc and q ($1)"
}

# 1. Esc during the quick run: stopped, scratch removed, back on the list, the terminal as found.
ui_to_bench 80 24
tmux_wait_line "quick" "tests, about"
tmux_select "$CURSOR" "quick"
tmux_wait "uses at most"
tmux_wait "$mnt"
tmux_keys Enter
tmux_wait "Running (Esc stops"
tmux_keys Escape
tmux_wait "stopped: the scratch files are removed"
bench_no_scratch "$mnt"
quit_after_stop "the quick run"
tmux_assert_stty_same
ui_assert_no_sanitizer_report
tmux_ kill-server

# 1a. While a test runs, its line shows how far it is, its live rate and, once enough samples are in
# for them, p50 and p99 as they settle (a longer run, so that the line is seen before it ends).
ui_to_bench 80 24 --runtime 8 --tests rand_read_4k_qd1
tmux_select "$CURSOR" "quick"
tmux_keys Enter
tmux_wait "Running (Esc stops"
tmux_wait_line "rand_read_4k_qd1" " p99 " 60
tmux_capture | grep -F rand_read_4k_qd1 |
	grep -Eq '[0-9.]+[kM]? IOPS p50 [0-9.]+ (ns|us|ms) p99 [0-9.]+ (ns|us|ms)' ||
	{ _tmux_dump; fail "rand_read_4k_qd1: no live p50/p99 while it runs"; }
tmux_keys Escape
tmux_wait "stopped: the scratch files are removed"
bench_no_scratch "$mnt"
quit_after_stop "a long test"
tmux_ kill-server

# 1b. Ctrl-C during a run: the bench layer stops and removes its scratch directory, then the wizard
# restores the terminal and ends by the signal.
ui_to_bench 80 24
tmux_select "$CURSOR" "quick"
tmux_keys Enter
tmux_wait "Running (Esc stops"
tmux_keys C-c
assert_eq "$(tmux_wait_exit)" 130 "exit status after Ctrl-C during the benchmarks"
tmux_assert_stty_same
bench_no_scratch "$mnt"
tmux_ kill-server

# 1c. A busy device (direct reads of it in a loop): the wizard warns and asks; "no" runs nothing.
( while :; do dd if="$dev" of=/dev/null bs=64k count=512 iflag=direct 2>/dev/null; done ) &
reader=$!
on_exit "kill $reader 2>/dev/null"
ui_to_bench 80 24 --busy-check 0.5
tmux_select "$CURSOR" "quick"
tmux_keys Enter
tmux_wait "$name is busy (in I/O"
tmux_wait "Run anyway? (yes/no)"
kill "$reader"
wait "$reader" 2>/dev/null || true
tmux_keys Enter
tmux_wait "not run"
tmux_keys q
assert_eq "$(tmux_wait_exit)" 0 "exit status after q"
bench_no_scratch "$mnt"
tmux_ kill-server

# 2. A quick run to the end: every test with its numbers, then Charts at 80x24 and 200x50; q asks
#    before it throws them away, and quits at once once they are saved.
ui_to_bench 80 24
tmux_select "$CURSOR" "quick"
tmux_keys Enter
tmux_wait "tests done: Enter shows the charts" 120
for t in rand_read_4k_qd1 rand_read_4k_qd32 seq_read_1m seq_write_1m fsync_4k_overwrite; do
	tmux_capture | grep -F "$t" | grep -Eq '[0-9.]+[kMG]? (IOPS|MB/s)' ||
		{ _tmux_dump; fail "$t: no numbers on the Bench screen"; }
done
tmux_capture | grep -F rand_read_4k_qd1 | grep -Eq 'p50 [0-9.]+ (us|ms)' ||
	{ _tmux_dump; fail "rand_read_4k_qd1: no p50/p99"; }
bench_no_scratch "$mnt"
tmux_wait_line "$CURSOR" "continue"
tmux_keys Enter
tmux_wait "Charts: what the benchmarks measured"
tmux_wait "The small-versus-large curve needs the full suite."
tmux_wait_line "rand_read_4k_qd1" "IOPS"
# The best result of each unit has a full bar (whatever the machine's speed): 40 cells at 80x24;
# at 200x50 60, not the whole width, so that its number stays in reach of the eye.
assert_eq "$(longest_bar)" 40 "the full bar at 80x24"
tmux_resize 200 50
tmux_wait_line "fsync_4k_overwrite" "IOPS"
# the line above is on the 80-column screen too: poll until the wide one is drawn
for ((i = 0; i < 100; i++)); do
	[ "$(longest_bar)" -gt 40 ] && break
	sleep 0.05
done
assert_eq "$(longest_bar)" 60 "the full bar at 200x50"
tmux_resize 80 24
# Measurements not saved yet: q asks first, naming them; Esc stays.
tmux_keys q
tmux_wait "Not saved yet: the benchmark results."
tmux_keys Escape
tmux_wait_gone "Quit?"
tmux_keys Enter
tmux_wait "Advice:"
tmux_select "$CURSOR" "needs_bench.measured"
tmux_wait_line "Measured:" "bench.rand_read_4k_qd1.iops = "
tmux_wait_line "Measured:" "[bench]"
ui_save_json "$TMP/quick.json"
# the walk ends with the scripts, written as fstune report --scripts writes them for these facts
mkdir "$TMP/quick-scripts"
ui_save_scripts "$TMP/quick-scripts"
tmux_keys q
assert_eq "$(tmux_wait_exit)" 0 "exit status after q"
tmux_assert_stty_same
ui_assert_no_sanitizer_report
for f in apply.sh revert.sh; do
	sh -n "$TMP/quick-scripts/$f" || fail "the wizard's $f does not parse"
done
ui_compare_scripts_with_report "$TMP/quick.json" "$TMP/quick-scripts" \
	--rules-dir "$FSTUNE_SRCDIR/tests/rules/needs-bench"
for t in rand_read_4k_qd1 seq_read_1m; do
	jq -e --arg t "$t" '.facts.bench[$t].iops > 0 and .facts.sources["bench.\($t).iops"] == "bench"' \
		"$TMP/quick.json" >/dev/null || fail "the saved report lacks bench.$t.iops"
done
assert_eq "$(jq -r '.facts.bench.parameters.span_bytes' "$TMP/quick.json")" $((32 << 20)) "the span asked for"
tmux_ kill-server

# 3. The full suite's read curve, only (--tests), in an ASCII locale at 80x24: the two plots.
SHORT+=(--tests rand_read_1k_qd1,rand_read_2k_qd1,rand_read_4k_qd1,rand_read_8k_qd1,rand_read_16k_qd1,rand_read_64k_qd1)
TMUX_ENV[0]=LC_ALL=C
CURSOR=">"
ui_to_bench 80 24
tmux_select "$CURSOR" "full"
tmux_keys Enter
tmux_wait "tests done: Enter shows the charts" 120
tmux_keys Enter
tmux_wait "Charts: what the benchmarks measured"
tmux_wait "Random-read IOPS by request size"
tmux_wait "Median latency (us) by request size"
tmux_wait_line " 1K " "64K"
tmux_capture | grep -q "#" || { _tmux_dump; fail "no ASCII columns in the C locale"; }
! tmux_capture | grep -q "█" || { _tmux_dump; fail "block glyphs in the C locale"; }
# not saved: q asks, and q again quits without saving
tmux_keys q
tmux_wait "Not saved yet: the benchmark results."
tmux_keys q
assert_eq "$(tmux_wait_exit)" 0 "exit status after q, q"
ui_assert_no_sanitizer_report
tmux_ kill-server
bench_no_scratch "$mnt"

# 4. An unmounted device: the read tests only, said on screen.
umount "$mnt"
TMUX_ENV[0]=LC_ALL=C.UTF-8
CURSOR="▶"
ui_to_bench 80 24
tmux_wait "An unmounted device: only the read tests run"
tmux_wait_line "quick" "read tests, about"
tmux_keys q
assert_eq "$(tmux_wait_exit)" 0 "exit status after q"
exit 0
