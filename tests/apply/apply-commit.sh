#!/bin/bash
# A valued mount option applied and verified for real: mount.option.commit on a loop-mounted ext4
# (mount.lua's commit=30 for a streaming workload). ext4 shows commit= among the superblock's
# options, not the per-mount ones, and not at all at its default of 5 s: apply reads it back from
# both lists, with the default when absent, so the change is verified (not "no probe reads it
# back"), before and after; undo takes it back to the default, fstab as it was.
. "${FSTUNE_SRCDIR:?run the tests through make check}/tests/lib/common.sh" || exit 99
private_mount_ns "$@"
. "$FSTUNE_SRCDIR/tests/lib/apply.sh"
apply_setup
require_cmd findmnt

ID=mount.commit_throughput
STREAM=(--access sequential --io-mode buffered --io-size 1M --no-sync-heavy)
fstab=$(cat "$ROOT/etc/fstab")
super() { findmnt -rno FS-OPTIONS --mountpoint "$mnt"; }
[[ ,$(super), != *,commit=* ]] || fail "commit= shown before the apply: $(super)"

run_status 0 "$FSTUNE" report --no-system-rules "${STREAM[@]}" --bench none --format json "$mnt"
assert_eq "$(jq -c --arg id $ID '.recommendations[] | select(.id == $id) | [.setting, .current, .recommended]' \
	"$TMP/out")" '["mount.option.commit",5,30]' "$ID: the setting, its current value (ext4's default), the advice"

run_status 0 "$FSTUNE" apply --no-system-rules "${STREAM[@]}" --only $ID --root "$ROOT" --live --yes --json "$mnt"
cp "$TMP/out" "$TMP/applied.json"
grep -q "no probe reads it back" "$TMP/err" && fail "the apply did not read commit back: $(cat "$TMP/err")"
assert_eq "$(jq -c '[.changes[] | [.setting, .old, .new, .state, .verified]]' "$TMP/applied.json")" \
	'[["mount.option.commit",5,30,"done",true]]' "the change"
[[ ,$(super), == *,commit=30,* ]] || fail "the mount's options after the apply: $(super)"
grep -q "^$dev $mnt ext4 strictatime,nofail,commit=30 0 2\$" "$ROOT/etc/fstab" || fail "fstab: $(cat "$ROOT/etc/fstab")"

run_status 0 "$FSTUNE" undo --last --root "$ROOT" --live
[[ ,$(super), != *,commit=3* ]] || fail "the mount's options after undo: $(super)"
assert_eq "$(cat "$ROOT/etc/fstab")" "$fstab" "fstab after undo"
run_status 0 "$FSTUNE" report --no-system-rules "${STREAM[@]}" --bench none --format json "$mnt"
assert_eq "$(jq -r --arg id $ID '.recommendations[] | select(.id == $id) | .current' "$TMP/out")" 5 "commit after undo"
echo "mount.option.commit applied (verified from the superblock's options), undone to ext4's default"
