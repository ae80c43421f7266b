#!/bin/bash
# A run of fstune apply killed between two changes leaves a journal that undoes cleanly: SIGKILL after
# the second of three changes (made deterministic by the test-only FSTUNE_TEST_PAUSE_AFTER_CHANGE,
# which stops the process there), and Ctrl-C (SIGINT) there, which ends the run by the signal (status
# 130) with the journal marked interrupted. Each time: every value and file back after undo --last.
# A run under way holds off another apply or undo (4).
. "${FSTUNE_SRCDIR:?run the tests through make check}/tests/lib/common.sh" || exit 99
private_mount_ns "$@"
. "$FSTUNE_SRCDIR/tests/lib/apply.sh"
apply_setup

ONLY=readahead.lower_for_random,applytest.bdi_cap,applytest.bdi_strict
before_values=$(values)
before_tree=$(tree_sum)

# apply_paused N: apply stopped (state T) after its Nth change; its pid in $pid (a child of this shell,
# so that `wait` gets its status).
apply_paused() {
	FSTUNE_TEST_PAUSE_AFTER_CHANGE=$1 "$FSTUNE" apply "${RULES[@]}" "${WORKLOAD[@]}" --only "$ONLY" --root "$ROOT" --host-wide \
		--live --yes "$mnt" >"$TMP/bg.out" 2>"$TMP/bg.err" &
	local i
	pid=$!
	for i in $(seq 1 600); do
		[ "$(awk '{ print $3 }' "/proc/$pid/stat" 2>/dev/null)" = T ] && break
		kill -0 "$pid" 2>/dev/null || fail "apply ended before pausing: $(cat "$TMP/bg.out" "$TMP/bg.err")"
		sleep 0.05
	done
	[ "$(awk '{ print $3 }' "/proc/$pid/stat")" = T ] || fail "apply did not pause"
}

apply_paused 2
# While it runs (here: stopped), no other apply or undo may interleave with it.
run_status 4 "$FSTUNE" undo --last --root "$ROOT" --live
grep -q "another fstune apply or undo is running" "$TMP/err" || fail "no lock: $(cat "$TMP/err")"
kill -KILL "$pid"
wait "$pid" 2>/dev/null || true
journal=$(last_journal)
assert_eq "$(jq -r .run.state "$journal")" running "state of a killed run's journal"
assert_eq "$(jq -r '[.changes[].state] | join(" ")' "$journal")" "done done" "changes journaled before the kill"
assert_eq "$(values)" "ra=128 max_ratio=60 strict=0 opts=rw" "values after the kill (two of three changes)"
run_status 0 "$FSTUNE" history --root "$ROOT"
grep -q running "$TMP/out" || fail "history: $(cat "$TMP/out")"
run_status 0 "$FSTUNE" undo --last --root "$ROOT" --live
assert_eq "$(values)" "$before_values" "values after undoing the killed run"
assert_eq "$(tree_sum)" "$before_tree" "files after undoing the killed run"

# Ctrl-C between changes: the signal waits for the change under way, the run stops there.
apply_paused 1
kill -INT "$pid"
kill -CONT "$pid"
status=0
wait "$pid" || status=$?
assert_eq "$status" 130 "status of an interrupted apply"
journal=$(last_journal)
assert_eq "$(jq -r .run.state "$journal")" interrupted "state of an interrupted run's journal"
assert_eq "$(jq -r '[.changes[].state] | join(" ")' "$journal")" done "changes of the interrupted run"
run_status 0 "$FSTUNE" undo --last --root "$ROOT" --live
assert_eq "$(values)" "$before_values" "values after undoing the interrupted run"
assert_eq "$(tree_sum)" "$before_tree" "files after undoing the interrupted run"
echo ok
