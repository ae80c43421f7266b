#!/bin/bash
# Two runs of fstune apply racing for the same changes, each held three seconds at every flock(2) by
# strace (so that both have started, and each would have probed and planned, before either holds
# the journal lock): apply takes the lock before it probes, so the second is refused (4) or, when it
# gets the lock after the first ended, probes what the first changed and has nothing to do. Either
# way there is one journal of changes, and undo --last takes the loop device's values and every file
# under --root back to what they were. Then the same with a confirmation prompt in between: a value
# changed while the question waits is probed again under the lock and refuses the run. Two undos
# racing the same way undo that journal once.
. "${FSTUNE_SRCDIR:?run the tests through make check}/tests/lib/common.sh" || exit 99
private_mount_ns "$@"
. "$FSTUNE_SRCDIR/tests/lib/apply.sh"
require_cmd strace script
# LeakSanitizer cannot run under ptrace: the traced runs go without it (the others keep it).
UNTRACED_LEAKS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
apply_setup

ONLY=readahead.lower_for_random,applytest.bdi_cap,mount.strictatime
before_values=$(values)
before_tree=$(tree_sum)

for i in 1 2; do
	ASAN_OPTIONS=$UNTRACED_LEAKS strace -f -o /dev/null -e trace=flock -e inject=flock:delay_enter=3000000 \
		"$FSTUNE" apply "${RULES[@]}" "${WORKLOAD[@]}" --only "$ONLY" --root "$ROOT" --live --host-wide --yes "$mnt" \
		>"$TMP/race$i.out" 2>"$TMP/race$i.err" &
	eval "pid$i=\$!"
done
s1=0 s2=0
wait "$pid1" || s1=$?
wait "$pid2" || s2=$?
journals=$(ls "$ROOT"/var/lib/fstune/journal/*.json)
assert_eq "$(echo "$journals" | wc -l)" 1 "journals of two racing applies"
assert_eq "$(jq -r '[.changes[].state] | join(" ")' "$journals")" "done done done" "changes of the journal"
[ "$s1" = 0 ] || [ "$s2" = 0 ] || fail "neither apply succeeded ($s1, $s2): $(cat "$TMP"/race*.err)"
loser=2
[ "$s1" = 0 ] || loser=1
case $(eval "echo \$s$loser") in
4) grep -q "another fstune apply or undo is running" "$TMP/race$loser.err" ||
	fail "the second apply: $(cat "$TMP/race$loser.err")" ;;
2) grep -q -- "--only $ONLY: no recommendation has this id" "$TMP/race$loser.err" ||
	fail "the second apply: $(cat "$TMP/race$loser.err")" ;;
*) fail "the second apply: status $(eval "echo \$s$loser"): $(cat "$TMP/race$loser.out" "$TMP/race$loser.err")" ;;
esac
echo "the second apply: status $(eval "echo \$s$loser")"
assert_eq "$(values)" "ra=128 max_ratio=60 strict=0 opts=rw,noatime" "values after the race"
# Two undos racing likewise: one undoes; the other is refused (4) or finds it undone already.
for i in 1 2; do
	ASAN_OPTIONS=$UNTRACED_LEAKS strace -f -o /dev/null -e trace=flock -e inject=flock:delay_enter=3000000 \
		"$FSTUNE" undo --last --root "$ROOT" --live >"$TMP/undo$i.out" 2>&1 &
	eval "pid$i=\$!"
done
s1=0 s2=0
wait "$pid1" || s1=$?
wait "$pid2" || s2=$?
undone=0
for i in 1 2; do
	case "$(eval "echo \$s$i")" in
	0) grep -q "^fstune: undone: " "$TMP/undo$i.out" && undone=$((undone + 1)) ||
		grep -q "was undone already" "$TMP/undo$i.out" || fail "undo $i: $(cat "$TMP/undo$i.out")" ;;
	4) grep -q "another fstune apply or undo is running" "$TMP/undo$i.out" || fail "undo $i: $(cat "$TMP/undo$i.out")" ;;
	*) fail "undo $i: status $(eval "echo \$s$i"): $(cat "$TMP/undo$i.out")" ;;
	esac
done
assert_eq "$undone" 1 "undos that undid the race's journal"
echo "the racing undos: status $s1 and $s2"
assert_eq "$(values)" "$before_values" "values after undoing the race"
assert_eq "$(tree_sum)" "$before_tree" "files after undoing the race"
run_status 0 "$FSTUNE" undo --last --root "$ROOT" --live
grep -q "no journal in .* is left to undo" "$TMP/out" || fail "a second journal to undo: $(cat "$TMP/out")"

# On a terminal the admin is asked first; the read-ahead changed while the question waits is probed
# again under the lock when the answer comes, and the run is refused with nothing changed.
q=/sys/block/$disk/queue/read_ahead_kb
{
	for _ in $(seq 1 1200); do
		grep -q "Apply this change" "$TMP/tty" 2>/dev/null && break
		sleep 0.05
	done
	echo 512 >"$q"
	printf 'y\n'
} | script -qec "exec \"$FSTUNE\" apply ${RULES[*]} ${WORKLOAD[*]} --only readahead.lower_for_random \
	--root \"$ROOT\" --live --host-wide \"$mnt\"" /dev/null >"$TMP/tty" 2>&1 || true
grep -q "queue.read_ahead_kb was 1024 before the question and is 512 now" "$TMP/tty" ||
	fail "a value changed during the question: $(cat "$TMP/tty")"
assert_eq "$(cat "$q")" 512 "read-ahead after the refused apply"
[ "$(ls "$ROOT"/var/lib/fstune/journal/*.json | wc -l)" = 1 ] || fail "the refused apply wrote a journal"
echo 1024 >"$q"
echo ok
