# The wizard walk shared by the tests/ui-walk-*.sh tests (sourced after common.sh and lib/tmux.sh):
# Target -> Workload (smallfiles) -> Detected -> Bench (none) -> Advice (one recommendation opened) -> Save (JSON),
# then the saved JSON compared with `fstune report --facts` on the facts it holds.
# shellcheck shell=bash

CURSOR="▶" # the cursor mark in a UTF-8 locale (ASCII: ">")
# Every wizard run: UTF-8, sanitizer reports to files (a report would be lost in the pane).
TMUX_ENV=(LC_ALL=C.UTF-8 "ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}:log_path=$TMP/asan"
	"UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}:log_path=$TMP/ubsan")

# ui_scroll_find TEXT [KEY]: presses KEY (PgDn) until TEXT shows, at most 20 times.
ui_scroll_find() {
	local text=$1 key=${2:-NPage} i
	for ((i = 0; i < 20; i++)); do
		tmux_capture | grep -qF -- "$text" && return 0
		tmux_keys "$key"
		sleep 0.05 # the next capture polls again; this only paces the key presses
	done
	tmux_wait "$text" 2
}

# ui_scroll_find_re REGEX: as ui_scroll_find, for an extended regular expression matching a line.
ui_scroll_find_re() {
	local re=$1 i
	for ((i = 0; i < 20; i++)); do
		tmux_capture | grep -qE -- "$re" && return 0
		tmux_keys NPage
		sleep 0.05 # paces the key presses; the capture above is the wait
	done
	_tmux_dump
	fail "no line matching '$re' after 20 pages"
}

# ui_assert_no_sanitizer_report: the wizard's ASan/UBSan reports went to $TMP/asan.*, $TMP/ubsan.*.
ui_assert_no_sanitizer_report() {
	local f
	for f in "$TMP"/asan.* "$TMP"/ubsan.*; do
		[ -e "$f" ] || continue
		cat "$f" >&2
		fail "sanitizer report from the wizard: $f"
	done
}

# ui_detected_to_advice: from Detected on through the Bench step, choosing no benchmarks, to Advice.
ui_detected_to_advice() {
	tmux_keys Enter
	tmux_wait "Benchmarks:"
	tmux_select "$CURSOR" "none"
	tmux_keys Enter
	tmux_wait "${1:-Advice:}"
}

# ui_save_json FILE: on any step after Workload, saves the JSON report to FILE.
ui_save_json() {
	tmux_keys s 2>/dev/null || true
	tmux_wait "Save:"
	tmux_select "$CURSOR" "json"
	tmux_keys Enter
	tmux_wait "Save the report as"
	tmux_keys C-u
	tmux_type "$1"
	tmux_keys Enter
	tmux_wait "saved the json report"
}

# ui_compare_with_report WIZARD_JSON: the facts of the saved report, given to `fstune report
# --facts`, give the same document. The documented normalization: the "generated" block (time,
# host, target or facts file) is the only part that differs between two runs on the same facts.
ui_compare_with_report() {
	local saved=$1
	jq '.facts' "$saved" >"$TMP/saved-facts.json" || fail "the saved report is not JSON"
	run_status 0 "$FSTUNE" report --no-system-rules --format json --facts "$TMP/saved-facts.json"
	jq -S 'del(.generated)' "$saved" >"$TMP/a.json"
	jq -S 'del(.generated)' "$TMP/out" >"$TMP/b.json"
	diff -u "$TMP/a.json" "$TMP/b.json" >&2 || fail "the wizard's JSON differs from fstune report --facts"
}

# ui_walk ROW FACT_KEY FACT_VALUE REC_ID COMMAND [fstune options...]: the whole walk. ROW is text
# of the Target row to pick; FACT_KEY/FACT_VALUE one line of Detected; REC_ID the recommendation to
# open ("-": the first one, whatever the rules found), whose detail must show COMMAND.
ui_walk() {
	local row=$1 key=$2 value=$3 rec=$4 cmd=$5 status
	shift 5
	tmux_start 80 24 "$FSTUNE" --no-system-rules "$@"
	tmux_wait "Target:"
	tmux_wait "$row"
	tmux_select "$CURSOR" "$row"
	tmux_keys Enter
	tmux_wait "Workload:"
	tmux_select "$CURSOR" "smallfiles"
	tmux_keys Enter
	tmux_wait "Detected:"
	ui_scroll_find_re "^ +!? +$key +$value"
	ui_detected_to_advice
	if [ "$rec" = - ]; then
		tmux_keys Enter
		tmux_wait "Rule:       "
	else
		tmux_select "$CURSOR" "$rec"
		tmux_keys Enter
		tmux_wait "Rule:       $rec"
	fi
	tmux_wait "Why"
	ui_scroll_find "Apply"
	ui_scroll_find "$cmd"
	ui_scroll_find "Revert"
	tmux_keys Escape
	tmux_wait "Advice:"
	ui_save_json "$TMP/wizard.json"
	tmux_keys q
	status=$(tmux_wait_exit)
	assert_eq "$status" 0 "the wizard's exit status after q"
	tmux_assert_stty_same
	ui_assert_no_sanitizer_report
	[ "$(jq -r '.facts.workload.profile // empty' "$TMP/wizard.json")" = smallfiles ] ||
		[ "$(jq -r '.facts.sources["workload.file_size_p50_bytes"] // empty' "$TMP/wizard.json")" = preset ] ||
		fail "the saved facts do not hold the smallfiles preset"
	[ "$rec" = - ] ||
		jq -e --arg id "$rec" '[.recommendations[].id] | index($id) != null' "$TMP/wizard.json" >/dev/null ||
		fail "the saved report lacks $rec"
	ui_compare_with_report "$TMP/wizard.json"
}
