#!/bin/bash
# SIGKILL at every step of fstune undo, and of fstune apply, on a loop-mounted ext4 (tests/lib/apply.sh)
# with three changes: a read-ahead (whose udev rule apply creates, with its directories), a bdi limit
# (a second line of that rule file) and a noatime remount (an edit of the fstab under --root). Every
# journal write and every file written back ends in a rename(2), and every file or directory removed
# in an unlink: strace kills the process as it enters the Nth renameat (or unlinkat), with its
# temporary file written and not yet renamed, for N = 1, 2, ... until a run gets through. Each value
# is put back by a command undo forks and waits for: killed entering its Nth wait4, undo dies with
# the revert under way or made and not yet journaled. After each kill a plain `fstune undo --last`
# (no --force) must complete: the values and every file under --root as they were before the
# apply, and no temporary file of fstune's left anywhere.
. "${FSTUNE_SRCDIR:?run the tests through make check}/tests/lib/common.sh" || exit 99
private_mount_ns "$@"
. "$FSTUNE_SRCDIR/tests/lib/apply.sh"
require_cmd strace
# LeakSanitizer cannot run under ptrace: the traced runs go without it (the others keep it).
UNTRACED_LEAKS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
apply_setup

ONLY=readahead.lower_for_random,applytest.bdi_cap,mount.strictatime
APPLY=(apply "${RULES[@]}" "${WORKLOAD[@]}" --only "$ONLY" --root "$ROOT" --live --host-wide --yes "$mnt")
UNDO=(undo --last --root "$ROOT" --live)
before_values=$(values)
before_tree=$(tree_sum)
temps() { find "$ROOT" -name '.*.[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]'; }

# killed_at SYSCALL N CMD...: CMD under strace, SIGKILLed on entering its Nth SYSCALL; status 0 when
# it made fewer (it ran to its end), else 137 (strace ends by the signal that ended the command).
killed_at() {
	local call=$1 n=$2 status=0
	shift 2
	ASAN_OPTIONS=$UNTRACED_LEAKS strace -o /dev/null -e trace="$call" -e inject="$call":signal=KILL:when="$n" "$FSTUNE" "$@" \
		>"$TMP/killed.out" 2>"$TMP/killed.err" || status=$?
	[ "$status" = 0 ] || [ "$status" = 137 ] || fail "$* killed at $call $n: status $status: $(cat "$TMP/killed.err")"
	return "$status"
}

# restored WHAT: after the killed run, a plain undo puts everything back, removing (and naming) the
# temporary file the kill left.
restored() {
	local t
	left=$(temps)
	run_status 0 "$FSTUNE" "${UNDO[@]}"
	for t in $left; do
		grep -qF "removed $t, the temporary file of " "$TMP/out" ||
			fail "$t, left by $1, was not named: $(cat "$TMP/out")"
	done
	assert_eq "$(values)" "$before_values" "values after $1 and undo"
	assert_eq "$(tree_sum)" "$before_tree" "files after $1 and undo"
	assert_eq "$(temps)" "" "temporary files after $1 and undo"
}

# every_step SYSCALL NAME CMD...: the kill at each N in turn; prints how many steps there were.
every_step() {
	local call=$1 name=$2 n=1
	shift 2
	while :; do
		[ "$name" = undo ] && run_status 0 "$FSTUNE" "${APPLY[@]}"
		killed_at "$call" "$n" "$@" || {
			# killed entering rename(2), it leaves the temporary file that was to be renamed
			[ "$call" != renameat ] || [ "$(temps | wc -l)" = 1 ] ||
				fail "$name killed at $call $n left no temporary file: $(temps)"
			restored "$name killed at $call $n"
			n=$((n + 1))
			[ "$n" -lt 60 ] || fail "$name still killed at $call $n"
			continue
		}
		[ "$name" = undo ] || restored "$name"
		echo "$name: killed at each of its $((n - 1)) ${call}s, then undone"
		return 0
	done
}

every_step renameat undo "${UNDO[@]}" >"$TMP/steps"
every_step unlinkat undo "${UNDO[@]}" >>"$TMP/steps"
every_step wait4 undo "${UNDO[@]}" >>"$TMP/steps"
every_step renameat apply "${APPLY[@]}" >>"$TMP/steps"
cat "$TMP/steps"
# The undo writes the journal before and after each of the three changes, and once before and once
# after them all, and puts back two files: at least ten renames.
[ "$(sed -n '1s/.* \([0-9]*\) renameats.*/\1/p' "$TMP/steps")" -ge 10 ] || fail "too few steps: $(cat "$TMP/steps")"
# and runs a command for each of the three values.
[ "$(sed -n 's/.* \([0-9]*\) wait4s.*/\1/p' "$TMP/steps")" -ge 3 ] || fail "too few commands: $(cat "$TMP/steps")"
# A journal of an undo killed on the way says so: the run's undo state is "running" until the end.
run_status 0 "$FSTUNE" "${APPLY[@]}"
killed_at renameat 3 "${UNDO[@]}" || true
journal=$(last_journal)
assert_eq "$(jq -r .run.undo.state "$journal")" running "undo state of a killed undo"
assert_eq "$(jq -r '[.changes[].state] | join(" ")' "$journal")" "done done undoing" "changes of a killed undo"
run_status 0 "$FSTUNE" history --root "$ROOT"
grep -q "undo killed on the way .* (fstune undo completes it)" "$TMP/out" || fail "history of a killed undo: $(cat "$TMP/out")"
restored "the undo killed at its third rename"
echo ok
