#!/bin/bash
# Facts that do not name what a step needs: the scripts leave the step out, in a section of its own
# that says why, and run the rest to the end. On a loop-mounted ext4 (strictatime, read-ahead 1024
# KiB, a random mmap workload: a read-ahead step and a noatime remount), the facts without
# fs.mount_point: apply.sh --live changes the read-ahead, leaves the remount out (no "${MOUNTPOINT:?}"
# left to stop it half-way), and ends with status 0; revert.sh puts the read-ahead back. Facts with no
# device.path: the tune2fs step is left out likewise. The facts of a disk this host does not have
# (device.path not a block device here): the tune2fs step is left out, never named in a command
# that runs; fstune apply on such facts is refused (4) before anything is changed.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
private_mount_ns "$@"
require_loop
require_cmd jq mkfs.ext4 shellcheck

make_image "$TMP/ext.img" 256M
mkfs.ext4 -q -F "$TMP/ext.img" || fail "mkfs.ext4 failed"
dev=$(attach_loop "$TMP/ext.img")
ra=/sys/block/${dev#/dev/}/queue/read_ahead_kb
on_exit "echo $(cat "$ra") > $ra"
echo 1024 >"$ra"
mnt=$(mount_tmp "$dev" -o strictatime)
W=(--no-system-rules --access random --io-mode mmap --io-size 4k)

run_status 0 "$FSTUNE" probe "$mnt" --format json
jq 'del(.vm) | del(.fs.mount_point) | .sources |= with_entries(select(.key | (startswith("vm.") or . == "fs.mount_point") | not))
	| .unavailable |= with_entries(select(.key | startswith("vm") | not))' "$TMP/out" >"$TMP/no-mnt.json"
mkdir "$TMP/s"
run_status 0 "$FSTUNE" report --facts "$TMP/no-mnt.json" "${W[@]}" --format json --scripts "$TMP/s"
jq -e 'any(.recommendations[]; .id == "mount.strictatime" and (.apply[0] | contains("${MOUNTPOINT:?}")))' "$TMP/out" \
	>/dev/null || fail "no remount step that needs the mount point: $(jq -c '[.recommendations[] | [.id, .apply]]' "$TMP/out")"
for s in apply.sh revert.sh; do
	shellcheck "$TMP/s/$s" >"$TMP/sc" 2>&1 || fail "shellcheck $s: $(head -c 2000 "$TMP/sc")"
	! grep -v '^[[:space:]]*#' "$TMP/s/$s" | grep -qF '${MOUNTPOINT:?}' || fail "$s runs a command that needs the mount point"
done
grep -qx '# ---- Left out: steps these scripts cannot run, and why ----' "$TMP/s/apply.sh" || fail "no left-out section"
grep -qxF '#   left out: the facts name no mount point (fs.mount_point), so no command can say which one' "$TMP/s/apply.sh" ||
	fail "no reason for the left-out remount: $(grep -A3 'Left out' "$TMP/s/apply.sh")"
root=$TMP/root
mkdir "$root"
run_status 0 sh "$TMP/s/apply.sh" --yes --root "$root" --live --host-wide
assert_eq "$(cat "$ra")" 128 "read-ahead after apply.sh"
grep -qx 'apply.sh: done; revert.sh takes these changes back' "$TMP/out" || fail "apply.sh did not end: $(cat "$TMP/out" "$TMP/err")"
run_status 0 sh "$TMP/s/revert.sh" --yes --root "$root" --live
assert_eq "$(cat "$ra")" 1024 "read-ahead after revert.sh"
assert_eq "$(find "$root" -mindepth 1)" "" "files under the root after revert.sh"

# Facts that name no device at all (device.path): the tune2fs step is left out, saying so, and
# apply.sh runs to its end.
jq 'del(.device.path)' "$FSTUNE_SRCDIR/tests/facts/ext4-dir-index-off.json" >"$TMP/no-dev.json"
mkdir "$TMP/d" "$TMP/d-root"
run_status 0 "$FSTUNE" report --facts "$TMP/no-dev.json" --no-system-rules --format json --scripts "$TMP/d"
jq -e 'any(.recommendations[]; .disruption == "online" and (.apply | any(contains("${DEVICE:?}"))))' "$TMP/out" \
	>/dev/null || fail "no online step that needs the device: $(jq -c '[.recommendations[] | [.id, .apply]]' "$TMP/out")"
! grep -v '^[[:space:]]*#' "$TMP/d/apply.sh" | grep -qF '${DEVICE:?}' || fail "apply.sh runs a command that needs the device"
grep -qxF '#   left out: the facts name no device (device.path), so no command can say which one' "$TMP/d/apply.sh" ||
	fail "no reason for the left-out tune2fs: $(grep -A3 'Left out' "$TMP/d/apply.sh")"
run_status 0 sh "$TMP/d/apply.sh" --yes --root "$TMP/d-root"
grep -qx 'apply.sh: done; revert.sh takes these changes back' "$TMP/out" || fail "apply.sh did not end: $(cat "$TMP/out" "$TMP/err")"
run_status 0 sh "$TMP/d/revert.sh" --yes --root "$TMP/d-root"

# Another machine's disk: its device.path is no block device here.
jq '.device.path = "/dev/fstune-no-such-disk"' "$FSTUNE_SRCDIR/tests/facts/ext4-dir-index-off.json" >"$TMP/elsewhere.json"
mkdir "$TMP/e"
run_status 0 "$FSTUNE" report --facts "$TMP/elsewhere.json" --no-system-rules --format json --scripts "$TMP/e"
jq -e 'any(.recommendations[]; .disruption == "online" and (.apply | any(contains("/dev/fstune-no-such-disk"))))' \
	"$TMP/out" >/dev/null || fail "no online step naming the device: $(jq -c '[.recommendations[] | [.id, .disruption, .apply]]' "$TMP/out")"
! grep -v '^[[:space:]]*#' "$TMP/e/apply.sh" | grep -qF /dev/fstune-no-such-disk || fail "apply.sh names a device this host does not have"
grep -qF '#   left out: device.path /dev/fstune-no-such-disk is not a block device on this host' "$TMP/e/apply.sh" ||
	fail "no reason for the left-out step: $(grep -A3 'Left out' "$TMP/e/apply.sh")"
run_status 4 "$FSTUNE" apply --facts "$TMP/elsewhere.json" --no-system-rules --root "$root" --host-wide --yes "$mnt"
grep -qF "device.path /dev/fstune-no-such-disk" "$TMP/err" && grep -qF "is not a block device on this host" "$TMP/err" ||
	fail "apply on another machine's facts: $(cat "$TMP/err")"
[ ! -e "$root/var" ] || ! ls "$root"/var/lib/fstune/journal/*.json >/dev/null 2>&1 || fail "the refused apply wrote a journal"
echo ok
