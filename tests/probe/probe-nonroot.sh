#!/bin/bash
# `fstune probe` without root: status 0, the same device facts as root (sysfs is world-readable),
# and whatever root could read but nobody cannot is needs_root with a reason (never denied: that
# status is for refusals to root itself).
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
private_mount_ns "$@"
require_loop
require_cmd jq mkfs.ext4
require_nobody
make_image "$TMP/ext4.img" 64M
dev=$(attach_loop "$TMP/ext4.img")
mkfs.ext4 -q -F "$dev"
mnt=$(mount_tmp "$dev")
chmod 0755 "$mnt"

run_status 0 "$FSTUNE" probe --json "$mnt"
cp "$TMP/out" "$TMP/root.json"
run_status 0 as_nobody "$FSTUNE" probe --json "$mnt"
cp "$TMP/out" "$TMP/nobody.json"

for key in name disk transport size_bytes logical_block_size physical_block_size rotational \
	scheduler loop_direct_io; do
	assert_eq "$(jq -r ".device.$key" "$TMP/nobody.json")" "$(jq -r ".device.$key" "$TMP/root.json")" \
		"device.$key as nobody"
done
assert_eq "$(jq -r .device.name "$TMP/nobody.json")" "${dev#/dev/}" "device.name as nobody"

# Root never gets needs_root; nobody never gets denied.
assert_eq "$(jq '[.unavailable // {} | to_entries[] | select(.value.status == "needs_root")] | length' \
	"$TMP/root.json")" 0 "needs_root entries as root"
assert_eq "$(jq '[.unavailable // {} | to_entries[] | select(.value.status == "denied")] | length' \
	"$TMP/nobody.json")" 0 "denied entries as nobody"
# Each needs_root fact of nobody has a reason, and root got further: it read the value, found it
# absent or not applicable, or was refused too (denied) - but never failed and never needs_root.
for key in $(jq -r '.unavailable // {} | to_entries[] | select(.value.status == "needs_root") | .key' \
	"$TMP/nobody.json"); do
	reason=$(jq -r --arg k "$key" '.unavailable[$k].reason' "$TMP/nobody.json")
	[ -n "$reason" ] && [ "$reason" != null ] || fail "needs_root $key has no reason"
	st=$(jq -r --arg k "$key" 'if .unavailable[$k] then .unavailable[$k].status else "present" end' \
		"$TMP/root.json")
	case $st in present | denied | not_found | not_applicable) ;;
	*) fail "$key: needs_root as nobody but '$st' as root" ;;
	esac
done
# When the filesystem probes that open the device are built in, reading it needs root.
if jq -e '[.sources[]] | any(. == "ext2fs" or . == "blkid")' "$TMP/root.json" >/dev/null; then
	n=$(jq '[.unavailable // {} | to_entries[] | select(.value.status == "needs_root")] | length' \
		"$TMP/nobody.json")
	[ "$n" -gt 0 ] || fail "the device was read by nobody: no needs_root entry"
fi

# The block device node itself, as nobody: sysfs needs no root.
run_status 0 as_nobody "$FSTUNE" probe --json "$dev"
assert_eq "$(jq -r .device.name "$TMP/out")" "${dev#/dev/}" "device node as nobody"
# Text output as nobody lists unavailable facts rather than failing.
run_status 0 as_nobody "$FSTUNE" probe "$mnt"
grep -q '^device$' "$TMP/out" || fail "text output as nobody has no device branch"
exit 0
