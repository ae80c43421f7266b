#!/bin/bash
# A mount point's name is bytes anyone can choose, a line break and an escape sequence included:
# fstune apply, undo and history on a tmpfs mounted strictatime at such a name (a noatime remount,
# for real, in a private mount namespace) write every line of their log and listing as one line,
# the name's line break as \x0a and its escape as \x1b, and hold no control character but the line
# breaks between lines. So does history with a journal directory holding a file whose name has a
# line break, and the Markdown table stays a table (one row per change).
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
private_mount_ns "$@"
require_cmd jq findmnt
export FSTUNE_RULES_PATH=

mnt=$TMP/$'a\nb\e[2J'
shown='a\x0ab\x1b[2J'
mkdir "$mnt"
mount -t tmpfs -o strictatime,size=8m fstune-test "$mnt" || fail "cannot mount a tmpfs on $(printf %q "$mnt")"
on_exit "umount -l $(printf %q "$mnt")"
ROOT=$TMP/root
mkdir "$ROOT"

# one_line FILE WHAT: no line of FILE starts with the second half of the mount point's name.
one_line() {
	! grep -q '^b\\x1b' "$1" || fail "$2 splits the mount point's name over two lines: $(cat -v "$1")"
}

run_status 0 "$FSTUNE" apply --no-system-rules --only mount.strictatime --root "$ROOT" --live --yes "$mnt"
cat "$TMP/out" "$TMP/err" >"$TMP/apply.log"
no_controls "$TMP/apply.log" "apply's log"
one_line "$TMP/apply.log" "apply's log"
grep -qF "ran: mount -o remount,noatime '$TMP/$shown'" "$TMP/apply.log" || fail "the remount as logged: $(cat -v "$TMP/apply.log")"
[[ ,$(findmnt -rno VFS-OPTIONS -M "$mnt"), == *,noatime,* ]] || fail "not remounted noatime: $(findmnt -rno VFS-OPTIONS -M "$mnt")"

printf '{}\n' >"$ROOT/var/lib/fstune/journal/20260101T000000Z-x"$'\n'"y.json"
run_status 0 "$FSTUNE" history --root "$ROOT"
no_controls "$TMP/out" "history"
one_line "$TMP/out" "history"
assert_eq "$(wc -l <"$TMP/out")" 3 "lines of history (the invalid journal's, the run's, its change's)"
grep -qx '20260101T000000Z-x\\x0ay.json  invalid: .*' "$TMP/out" || fail "the invalid journal's line: $(cat -v "$TMP/out")"
grep -qF "  $TMP/$shown  done" "$TMP/out" || fail "the run's target: $(cat -v "$TMP/out")"
run_status 0 "$FSTUNE" history --root "$ROOT" --format markdown
no_controls "$TMP/out" "history --format markdown"
assert_eq "$(grep -c '^| ' "$TMP/out")" 3 "rows of the Markdown history (the head, the invalid journal, the change)"
assert_eq "$(grep -vc '^|' "$TMP/out")" 0 "lines of the Markdown history outside its table"
# the cell as Markdown escapes it: \x0a written \\x0a, [ written \[
md_target=$(printf '%s' "$TMP/$shown" | sed 's/[][|\\*_`<>]/\\&/g')
grep -qF "| $md_target | done | mount.option.noatime | false | true | done |" "$TMP/out" ||
	fail "the Markdown row of the change: $(cat -v "$TMP/out")"

rm "$ROOT/var/lib/fstune/journal/20260101T000000Z-x"$'\n'"y.json"
run_status 0 "$FSTUNE" undo --last --root "$ROOT" --live
no_controls "$TMP/out" "undo's log"
one_line "$TMP/out" "undo's log"
grep -qF "ran: mount -o remount,strictatime '$TMP/$shown'" "$TMP/out" || fail "the revert as logged: $(cat -v "$TMP/out")"
[[ ,$(findmnt -rno VFS-OPTIONS -M "$mnt"), != *,noatime,* ]] || fail "still noatime after undo"
echo ok
