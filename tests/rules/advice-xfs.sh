#!/bin/bash
# XFS advice run for real on loop devices, apply then revert, in order, the state checked after each:
# discard, which XFS ignores on remount (the claim checked first: `remount,nodiscard` succeeds and
# leaves discard), comes off by unmounting and mounting again, and back; an XFS at its imaxpct cap
# (made with -i maxpct=1, filled with files) gets xfs_growfs -m, which raises the inode count statfs
# reports at once, and the revert puts the cap back.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
private_mount_ns "$@"
require_loop
require_cmd jq mkfs.xfs xfs_info xfs_growfs findmnt

# run_cmds REPORT ID FIELD: runs each command of the recommendation's apply or revert list, in order.
run_cmds() {
	local cmd
	while IFS= read -r cmd; do
		bash -c "$cmd" >"$TMP/cmd.out" 2>&1 </dev/null || fail "'$cmd' failed: $(head -c 800 "$TMP/cmd.out")"
	done < <(jq -r --arg id "$2" ".recommendations[] | select(.id == \$id) | .$3[]" "$1")
}
report() { # OUT TARGET [options]
	local out=$1
	shift
	run_status 0 "$FSTUNE" report --bench none --no-system-rules --format json "$@"
	cp "$TMP/out" "$out"
}
fs_options() { findmnt -rno FS-OPTIONS --mountpoint "$1"; }

# 1. discard on XFS: offline.
img=$TMP/discard.img
make_image "$img" 1G
mkfs.xfs -q -f "$img" || fail "mkfs.xfs failed"
dev=$(attach_loop "$img")
mnt=$(mount_tmp "$dev" -o discard)
[[ ,$(fs_options "$mnt"), == *,discard,* ]] || fail "not mounted with discard: $(fs_options "$mnt")"
mount -o remount,nodiscard "$mnt" || fail "remount,nodiscard failed"
[[ ,$(fs_options "$mnt"), == *,discard,* ]] ||
	fail "remount,nodiscard took discard off here: the advice that XFS ignores it is wrong now"
report "$TMP/discard.report" "$mnt"
r=$TMP/discard.report
id=mount.discard_to_fstrim
assert_eq "$(jq -r --arg id $id '.recommendations[] | select(.id == $id) | .disruption' "$r")" offline "$id's class"
run_cmds "$r" $id apply
[[ ,$(fs_options "$mnt"), != *,discard,* ]] || fail "the apply left $mnt with $(fs_options "$mnt")"
echo data >"$mnt/still-there"
run_cmds "$r" $id revert
[[ ,$(fs_options "$mnt"), == *,discard,* ]] || fail "the revert left $mnt with $(fs_options "$mnt")"
[ -f "$mnt/still-there" ] || fail "the revert mounted something else on $mnt"

# 2. An XFS at its imaxpct cap: 1% of 1 GiB in 512-byte inodes is 20,928 inodes (whole chunks of 64).
img=$TMP/imaxpct.img
make_image "$img" 1G
mkfs.xfs -q -f -i maxpct=1 "$img" || fail "mkfs.xfs -i maxpct=1 failed"
dev=$(attach_loop "$img")
mnt=$(mount_tmp "$dev")
inodes() { df --output=itotal "$mnt" | tail -1 | tr -d ' '; }
imaxpct() { xfs_info "$mnt" | sed -n 's/.*imaxpct=\([0-9]*\).*/\1/p'; }
before=$(inodes)
mkdir "$mnt/d"
(cd "$mnt/d" && seq 1 19500 | xargs touch) || fail "could not make the files"
report "$TMP/imaxpct.report" "$mnt"
r=$TMP/imaxpct.report
id=reserve.xfs_imaxpct
assert_eq "$(jq -c --arg id $id '.recommendations[] | select(.id == $id) | [.current, .recommended, .disruption]' \
	"$r")" '[1,2,"online"]' "$id: current, recommended, class ($(jq -c '[.recommendations[].id]' "$r"))"
run_cmds "$r" $id apply
assert_eq "$(imaxpct)" 2 "imaxpct after the apply"
[ "$(inodes)" -ge $((2 * before - 128)) ] || fail "the apply left $(inodes) inodes (were $before)"
# what fstune reads back on the mounted filesystem is the new value, not the device's stale superblock
run_status 0 "$FSTUNE" probe "$mnt" --format json
assert_eq "$(jq .fs.inode_max_pct "$TMP/out")" 2 "fs.inode_max_pct probed after the apply"
run_cmds "$r" $id revert
assert_eq "$(imaxpct)" 1 "imaxpct after the revert"
# the cap again, or the inodes already made where they overshoot it (xfs_fs_statfs reports the larger)
[ "$(inodes)" -le $((before + 256)) ] || fail "the revert left $(inodes) inodes (were $before)"
echo ok
