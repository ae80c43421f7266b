#!/bin/bash
# fstune apply and the findings the admin accepted, for real on a loop-mounted ext4 with a scratch
# --root: an accepted finding (accepted.conf or --accept) is shown, said to be kept as it is with
# where it was accepted and how to apply it, and left out of the plan and off the device; --only
# naming it applies it all the same. A bad --accepted path (a directory, a missing file, a FIFO, a
# file this user may not read) is a usage error (2) that says what is wrong and what to do, before
# anything is probed or changed.
. "${FSTUNE_SRCDIR:?run the tests through make check}/tests/lib/common.sh" || exit 99
private_mount_ns "$@"
. "$FSTUNE_SRCDIR/tests/lib/apply.sh"
apply_setup
require_nobody

ID=readahead.lower_for_random
ra=/sys/block/$disk/queue/read_ahead_kb
A=(apply "${RULES[@]}" "${WORKLOAD[@]}" --root "$ROOT" --live --yes --host-wide)
before=$(values)

# Accepted in a file, with its reason: shown as kept, with the file's line and the reason.
printf '# a test\n%s  # the read-ahead stays for the backups\n' "$ID" >"$TMP/accepted.conf"
run_status 0 "$FSTUNE" "${A[@]}" --accepted "$TMP/accepted.conf" --dry-run "$mnt"
grep -q "would run: echo 128 > $ra" "$TMP/out" && fail "an accepted finding is in the plan: $(cat "$TMP/out")"
grep -q "accepted ($TMP/accepted.conf:2: the read-ahead stays for the backups): kept as it is; --only $ID applies it" \
	"$TMP/out" || fail "the accepted finding is not said to be kept: $(cat "$TMP/out")"
grep -q "mount.strictatime" "$TMP/out" || fail "the other finding is not planned: $(cat "$TMP/out")"

# For real, without --only, on the shipped rules alone (the test rules' other read-ahead would take
# the setting): the accepted read-ahead and the host's dcache pressure stay, the remount is made.
run_status 0 "$FSTUNE" apply --no-system-rules "${WORKLOAD[@]}" --root "$ROOT" --live --yes --accept "$ID" \
	--accept dcache.keep_metadata --json "$mnt"
assert_eq "$(values)" "ra=1024 max_ratio=100 strict=0 opts=rw,noatime" "the values after an apply that accepted $ID"
jq -e --arg id "$ID" 'all(.changes[]; .id != $id)' "$TMP/out" >/dev/null ||
	fail "$ID is among the changes: $(jq -c '[.changes[].id]' "$TMP/out")"
jq -e --arg id "$ID" '.not_run[] | select(.id == $id) | .why | test("^accepted \\(--accept\\): kept as it is")' \
	"$TMP/out" >/dev/null || fail "$ID is not shown as accepted: $(jq -c .not_run "$TMP/out")"
run_status 0 "$FSTUNE" undo --last --root "$ROOT" --live
assert_eq "$(values)" "$before" "the values after undo"

# --only names it: applied although accepted (the admin asked for it by name).
run_status 0 "$FSTUNE" "${A[@]}" --only "$ID" --accepted "$TMP/accepted.conf" "$mnt"
assert_eq "$(cat "$ra")" 128 "the read-ahead after --only $ID"
run_status 0 "$FSTUNE" undo --last --root "$ROOT" --live
assert_eq "$(values)" "$before" "the values after undo"

# Bad --accepted paths: status 2, nothing probed (no journal), the cause and what to do.
bad_accepted() { # PATH CAUSE ADVICE [as_nobody]
	local p=$1 cause=$2 advice=$3
	shift 3
	run_status 2 "$@" "$FSTUNE" "${A[@]}" --accepted "$p" "$mnt"
	grep -qF "cannot read the accepted findings file $p: $cause: $advice" "$TMP/err" ||
		fail "--accepted $p: $(cat "$TMP/err")"
}
journals=$(ls "$ROOT"/var/lib/fstune/journal | wc -l)
mkdir "$TMP/dir"
bad_accepted "$TMP/dir" "is a directory" "name the file itself: a regular file of lines ID [KEY OP VALUE]"
bad_accepted "$TMP/missing.conf" "No such file or directory" "give a file that exists (/dev/null accepts nothing)"
bad_accepted "$TMP/nosuch/accepted.conf" "No such file or directory" "give a file that exists"
mkfifo "$TMP/fifo"
bad_accepted "$TMP/fifo" "not a regular file (a FIFO, device or socket), so it is not read" "name the file itself"
chmod 600 "$TMP/accepted.conf"
chmod 755 "$TMP"
A=(apply "${RULES[@]}" "${WORKLOAD[@]}" --dry-run --host-wide)
bad_accepted "$TMP/accepted.conf" "Permission denied" "make it readable to this user" as_nobody
assert_eq "$(ls "$ROOT"/var/lib/fstune/journal | wc -l)" "$journals" "journals after the refused runs"
assert_eq "$(values)" "$before" "the values after the refused runs"
run_status 0 "$FSTUNE" "${A[@]}" --only mount.strictatime --accepted /dev/null "$mnt"
echo "apply keeps accepted findings unless --only names them; bad --accepted paths are refused with the cause"
