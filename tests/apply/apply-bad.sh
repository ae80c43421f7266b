#!/bin/bash
# Bad input to fstune apply, undo and history, and the prompt on a terminal: an --only id no recommendation has and a class apply
# never runs (2), offline advice named with --only (4, nothing changed), flags that do not go
# together (2), a report from another host (4), and a journal edited by hand: refused naming the line
# (2), whether the edit keeps it valid JSON or not; a read-only --root (4); a user who is not root (4)
# for apply and undo, while history lists what that user can read and names what not; undo takes
# --yes (a no-op: it asks nothing).
# None of these changes the running system: the
# journal is made with --root and without --live.
. "${FSTUNE_SRCDIR:?run the tests through make check}/tests/lib/common.sh" || exit 99
require_root
require_cmd jq script
host_sysctl_lock
export FSTUNE_RULES_PATH=
RULES=(--no-system-rules --rules-dir "$FSTUNE_SRCDIR/tests/apply/rules")
ROOT=$TMP/root
mkdir -p "$ROOT"

run_status 2 "$FSTUNE" apply "${RULES[@]}" --only no.such_id --root "$ROOT" --yes "$TMP"
grep -q -- "--only no.such_id: no recommendation has this id (there are: .*applytest.expire" "$TMP/err" ||
	fail "--only: $(cat "$TMP/err")"
run_status 2 "$FSTUNE" apply "${RULES[@]}" --class offline --root "$ROOT" --yes "$TMP"
grep -q "runtime, online and remount changes only" "$TMP/err" || fail "--class: $(cat "$TMP/err")"
run_status 4 "$FSTUNE" apply --no-system-rules --facts "$FSTUNE_SRCDIR/tests/facts/ext4-dir-index-off.json" \
	--only directories.dir_index_off --root "$ROOT" --yes
grep -q "directories.dir_index_off: offline, reboot and reformat advice is shown, never run" "$TMP/err" ||
	fail "offline advice: $(cat "$TMP/err")"
! ls "$ROOT"/var/lib/fstune/journal/*.json >/dev/null 2>&1 || fail "a refused apply wrote a journal"
run_status 2 "$FSTUNE" apply "${RULES[@]}" --live --yes "$TMP"
run_status 2 "$FSTUNE" apply "${RULES[@]}" --sysroot "$TMP" --root "$ROOT" --yes "$TMP"
run_status 2 "$FSTUNE" apply --report "$TMP/none.json" --facts "$TMP/none.json" --root "$ROOT" --yes
run_status 2 "$FSTUNE" undo --root "$ROOT"
grep -q "name one JOURNAL or give --last" "$TMP/err" || fail "undo without a journal: $(cat "$TMP/err")"
run_status 2 "$FSTUNE" undo "$TMP/none.json" --root "$ROOT"

run_status 0 "$FSTUNE" report --bench none "${RULES[@]}" --json "$TMP"
cp "$TMP/out" "$TMP/report.json"
jq '.generated.host = "elsewhere.example"' "$TMP/out" >"$TMP/other.json"
run_status 4 "$FSTUNE" apply --report "$TMP/other.json" --only applytest.expire --root "$ROOT" --yes
grep -q "made on host elsewhere.example" "$TMP/err" || fail "another host: $(cat "$TMP/err")"
# Where another owner wins at boot (owners.<setting>), the engine places the persistent form as a tuned
# child profile or an edit of the owner's file: apply refuses such a change and says why.
for kind in tuned edit mount-unit; do
	jq --arg k "$kind" '(.recommendations[] | select(.id == "applytest.expire") | .persistent.kind) = $k' \
		"$TMP/report.json" >"$TMP/owned.json"
	run_status 4 "$FSTUNE" apply --report "$TMP/owned.json" --only applytest.expire --root "$ROOT" --yes
	grep -q "applytest.expire: .*\(tuned manages it\|another owner's file wins at boot\)" "$TMP/err" ||
		fail "persistent form of kind $kind: $(cat "$TMP/err")"
done
! ls "$ROOT"/var/lib/fstune/journal/*.json >/dev/null 2>&1 || fail "a refused apply wrote a journal"

# On a terminal (a pty made by script(1)), each class is confirmed: "n" applies nothing, "y" applies.
printf 'n\n' | script -q -e -c "$FSTUNE apply ${RULES[*]} --only applytest.expire --root $ROOT $TMP" /dev/null \
	>"$TMP/pty.out" 2>&1 || fail "apply on a terminal: $(cat "$TMP/pty.out")"
grep -q "Apply this change of class runtime? \[y/N\]" "$TMP/pty.out" || fail "no prompt: $(cat "$TMP/pty.out")"
grep -q "nothing to apply" "$TMP/pty.out" || fail "answered n: $(cat "$TMP/pty.out")"
! ls "$ROOT"/var/lib/fstune/journal/*.json >/dev/null 2>&1 || fail "a change declined at the prompt was journaled"
printf 'y\n' | script -q -e -c "$FSTUNE apply ${RULES[*]} --only applytest.expire --root $ROOT $TMP" /dev/null \
	>"$TMP/pty.out" 2>&1 || fail "apply on a terminal: $(cat "$TMP/pty.out")"
grep -q "vm.dirty_expire_centisecs = " "$ROOT/etc/sysctl.d/60-fstune.conf" || fail "answered y: $(cat "$TMP/pty.out")"
run_status 0 "$FSTUNE" undo --last --root "$ROOT"
rm -rf "$ROOT" && mkdir "$ROOT"

# A journal of files only (--root without --live), then edited by hand.
run_status 0 "$FSTUNE" apply "${RULES[@]}" --only applytest.expire --root "$ROOT" --yes "$TMP"
journal=$(ls "$ROOT"/var/lib/fstune/journal/*.json)
cp "$journal" "$TMP/journal.orig"
cp "$journal" "$TMP/journal.good"
line=$(grep -n '"id": "applytest.expire"' "$journal" | cut -d: -f1)
sed -i 's/"new": \([0-9]*\)/"new": 1\1/' "$journal"
run_status 2 "$FSTUNE" undo "$journal" --root "$ROOT"
grep -q "$journal line $line: a change of applytest.expire does not match its checksum: the journal was edited by hand" \
	"$TMP/err" || fail "edited journal: $(cat "$TMP/err")"
run_status 2 "$FSTUNE" undo --last --root "$ROOT"
sed -i 's/"state": "done"/"state": "done",/' "$TMP/journal.orig"
cp "$TMP/journal.orig" "$journal"
run_status 2 "$FSTUNE" undo "$journal" --root "$ROOT"
grep -q "$journal line [0-9]*: not a journal" "$TMP/err" || fail "broken journal: $(cat "$TMP/err")"
run_status 0 "$FSTUNE" history --root "$ROOT"
grep -q "invalid: .*line" "$TMP/out" || fail "history of a broken journal: $(cat "$TMP/out")"
cp "$TMP/journal.good" "$journal"
mkdir -p "$TMP/other-root"
run_status 2 "$FSTUNE" undo "$journal" --root "$TMP/other-root"
grep -q "undo it with the same --root" "$TMP/err" || fail "another root: $(cat "$TMP/err")"
run_status 0 "$FSTUNE" undo "$journal" --root "$ROOT" --yes
# a rule file that does not load is said, and the rest is planned
run_status 0 "$FSTUNE" apply "${RULES[@]}" --rules-dir "$FSTUNE_SRCDIR/tests/rules/broken" --yes --host-wide --dry-run "$TMP"
grep -q "rule error.*: what those rules would advise is not in this plan" "$TMP/err" ||
	fail "a broken rule file: $(cat "$TMP/err")"
# a --root on a read-only filesystem: refused (4) before any change, naming the cause
mkdir "$TMP/ro"
mount -t tmpfs -o ro,size=1m,mode=0755 tmpfs "$TMP/ro" || fail "cannot mount a read-only tmpfs"
on_exit "umount '$TMP/ro'"
run_status 4 "$FSTUNE" apply "${RULES[@]}" --only applytest.expire --root "$TMP/ro" --yes "$TMP"
grep -q "cannot create $TMP/ro/var: Read-only file system" "$TMP/err" || fail "read-only --root: $(cat "$TMP/err")"
# a flag error of undo is said once, with no second, empty error line
run_status 2 "$FSTUNE" undo --live --last
! grep -q "unknown error" "$TMP/err" || fail "undo --live: $(cat "$TMP/err")"

# Not root: apply and undo refuse (4) before probing or planning, and say how to see the plan;
# --dry-run works as any user.
require_nobody
for cmd in "apply ${RULES[*]} --yes $TMP" "undo --last"; do
	# shellcheck disable=SC2086 # the words of $cmd are meant to split
	run_status 4 as_nobody "$FSTUNE" $cmd
	grep -q "changes the running system .*: run it as root; --dry-run shows what it would do" "$TMP/err" ||
		fail "$cmd as nobody: $(cat "$TMP/err")"
done
run_status 0 as_nobody "$FSTUNE" apply "${RULES[@]}" --yes --host-wide --dry-run "$TMP"
# history changes nothing: any user lists what it can read, and is told of the journals it cannot.
# Root's journals, readable: listed (root's directory is trusted by any user).
jdir=$ROOT/var/lib/fstune/journal
run_status 0 as_nobody "$FSTUNE" history --root "$ROOT"
grep -q "^$(basename "$journal") .*done" "$TMP/out" || fail "history as nobody: $(cat "$TMP/out" "$TMP/err")"
grep -q "invalid" "$TMP/out" && fail "history as nobody takes root's journals for invalid: $(cat "$TMP/out")"
[ ! -s "$TMP/err" ] || fail "history as nobody, readable journals: $(cat "$TMP/err")"
# A journal directory nobody may not open (0700): said, status 0, not refused as a change would be.
chmod 700 "$jdir"
run_status 0 as_nobody "$FSTUNE" history --root "$ROOT"
grep -q "note: .*$jdir.*: its journals are not listed (run fstune history as root to see them)" \
	"$TMP/err" || fail "history as nobody, root's 0700 journals: $(cat "$TMP/err")"
grep -q "run it as root;" "$TMP/err" && fail "history as nobody is refused: $(cat "$TMP/err")"
chmod 755 "$jdir"
echo ok
