#!/bin/bash
# The wizard marks the findings an admin accepted, as `fstune report` does: an entry of --accepted
# FILE, of $FSTUNE_ACCEPTED, or --accept ID (never /etc here) is marked in the report the Save step
# writes, in JSON and in text, with its stale entries listed, and on screen (Advice's mark and count,
# the detail, each stale entry and what to do about it); the saved JSON equals `fstune report
# --facts` with the same accepted findings. A bad accepted file is status 2, named before the terminal
# is taken.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
. "$FSTUNE_SRCDIR/tests/lib/tmux.sh"
. "$FSTUNE_SRCDIR/tests/lib/ui.sh"
require_tmux
require_cmd jq

facts=$FSTUNE_SRCDIR/tests/facts/nvme-bfq.json
rec=queue.bfq_on_nvme # the fixture's warn finding (tests/report/report-accepted.sh relies on it too)

# ui_save_reports OPTION...: the wizard on the fixture with OPTIONs, through the facts' own workload
# and no benchmarks to Advice; saves $TMP/wizard.json and $TMP/wizard.txt, then quits.
ui_save_reports() {
	rm -f "$TMP/wizard.json" "$TMP/wizard.txt"
	ui_open_target 80 24 nvme0n1p2 --facts "$facts" "$@"
	tmux_keys Enter
	tmux_wait "Detected:"
	ui_detected_to_advice
	ui_save text "$TMP/wizard.txt"
	ui_save json "$TMP/wizard.json"
	tmux_keys q
	assert_eq "$(tmux_wait_exit)" 0 "the wizard's exit status after q"
	tmux_assert_stty_same
	ui_assert_no_sanitizer_report
	tmux_ kill-server
}

# the finding a saved report marks accepted, with its mark: "ID|by|why|condition"
accepted_of() {
	jq -r '.recommendations[] | select(.accepted) | "\(.id)|\(.accepted.by)|\(.accepted.why)|\(.accepted.condition)"' "$1"
}

cat >"$TMP/accepted.conf" <<'EOF'
queue.bfq_on_nvme device.transport == nvme   # vendor support requires bfq
nosuch.finding                               # no such rule file
EOF
# Without accepted findings the finding is there, unmarked: what the runs below mark is theirs.
ui_save_reports
jq -e --arg id "$rec" '[.recommendations[] | select(.id == $id and .severity == "warn")] | length == 1' \
	"$TMP/wizard.json" >/dev/null || fail "the fixture no longer makes the warn finding $rec"
assert_eq "$(accepted_of "$TMP/wizard.json")" "" "accepted findings without any given"

# --accepted FILE
ui_save_reports --accepted "$TMP/accepted.conf"
assert_eq "$(accepted_of "$TMP/wizard.json")" \
	"$rec|$TMP/accepted.conf:1|vendor support requires bfq|device.transport == nvme" "the mark of --accepted"
assert_eq "$(jq -r '[.accepted_stale[].id] | join(" ")' "$TMP/wizard.json")" nosuch.finding "stale entries"
grep -q "^    Accepted: vendor support requires bfq" "$TMP/wizard.txt" ||
	fail "the saved text report shows no Accepted line: $(grep -n -i accepted "$TMP/wizard.txt")"
grep -q "^Accepted findings that are stale$" "$TMP/wizard.txt" || fail "the saved text lists no stale entries"
ui_compare_with_report "$TMP/wizard.json" --accepted "$TMP/accepted.conf"

# On screen: Advice counts and marks the accepted finding, its detail says what accepting it does,
# and each stale entry (of the file, of --accept) is listed and opens to what to do about it.
ui_open_target 80 24 nvme0n1p2 --facts "$facts" --accepted "$TMP/accepted.conf" --accept other.stale
tmux_keys Enter
tmux_wait "Detected:"
ui_detected_to_advice
tmux_wait "1 accepted)"
tmux_select "$CURSOR" "$rec"
tmux_wait_line "$CURSOR" "accepted: Use no I/O scheduler"
tmux_keys Enter
tmux_wait "Rule:       $rec"
tmux_wait "Accepted:   vendor support requires bfq"
tmux_capture | tr '\n' ' ' | tr -s ' ' | grep -qF "($TMP/accepted.conf:1, where device.transport == nvme): it no longer counts for --fail-on, and fstune apply leaves it as it is unless --only names it" ||
	{ _tmux_dump; fail "the detail does not say what accepting it does"; }
tmux_keys Escape
tmux_wait "Advice:"
ui_scroll_find "Accepted findings that are stale"
tmux_select "$CURSOR" "nosuch.finding"
tmux_keys Enter
tmux_wait "Why it is stale"
tmux_capture | tr '\n' ' ' | tr -s ' ' | grep -qF "remove the entry from $TMP/accepted.conf" ||
	{ _tmux_dump; fail "the stale entry of the file does not say what to do"; }
tmux_keys Escape
tmux_wait "Advice:"
tmux_select "$CURSOR" "other.stale"
tmux_keys Enter
tmux_wait "Correct the id given to --accept"
tmux_keys Escape
tmux_wait "Advice:"
tmux_keys q
assert_eq "$(tmux_wait_exit)" 0 "the wizard's exit status after q (accepted on screen)"
tmux_assert_stty_same
tmux_ kill-server

# $FSTUNE_ACCEPTED, whose condition does not hold here, and --accept: only --accept marks
printf '%s device.transport != nvme\n' "$rec" >"$TMP/env.conf"
TMUX_ENV+=("FSTUNE_ACCEPTED=$TMP/env.conf")
ui_save_reports
assert_eq "$(accepted_of "$TMP/wizard.json")" "" "a condition that does not hold"
ui_save_reports --accept "$rec"
assert_eq "$(accepted_of "$TMP/wizard.json")" "$rec|--accept|null|null" "the mark of --accept"
FSTUNE_ACCEPTED=$TMP/env.conf ui_compare_with_report "$TMP/wizard.json" --accept "$rec"

# Bad accepted findings: status 2 with the file and line, before the terminal check (no tmux here).
printf 'Queue bfq\n' >"$TMP/bad.conf"
run_status 2 "$FSTUNE" --no-system-rules --accepted "$TMP/bad.conf"
grep -q "$TMP/bad.conf:1: 'Queue' is not a finding id" "$TMP/err" || fail "bad entry: $(cat "$TMP/err")"
FSTUNE_ACCEPTED=$TMP/missing.conf run_status 2 "$FSTUNE" --no-system-rules
grep -q "cannot read the accepted findings file $TMP/missing.conf" "$TMP/err" || fail "missing file: $(cat "$TMP/err")"
run_status 2 "$FSTUNE" --accept bfq
grep -q -- "--accept 'bfq' is not a finding id" "$TMP/err" || fail "bad --accept: $(cat "$TMP/err")"
echo "the wizard marks accepted findings in the report it saves, as fstune report does"
