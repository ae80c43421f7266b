#!/bin/bash
# The commands the report prints, run for real on loop devices: an XFS made without a stripe under
# a RAID topology added to its saved facts (a new filesystem, never a mount option the kernel
# refuses); inode advice for ext4 made with -i 1048576 and for a small ext4 facing millions of
# small files (the merged mkfs command must be one mke2fs accepts; the first two keep the label and
# the UUID, checked with blkid after the command ran); a strictatime mount (seen, and
# reverted to strictatime), and as a mail spool (relatime, reverted to strictatime); dir_index turned off and on with the printed apply and revert sequences
# in order, the last-check time set back first so that tune2fs cannot pass by accident; the discard
# and lazytime remount sequences; noatime on a relatime mount and back; commit=30 and back to the
# default ext4 does not list.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
private_mount_ns "$@"
require_loop
require_cmd jq mkfs.ext4 mkfs.xfs tune2fs e2fsck dumpe2fs blkid

report_facts() { # FACTS OUT [report options...]
	local facts=$1 out=$2
	shift 2
	run_status 0 "$FSTUNE" report --facts "$facts" --no-system-rules --format json "$@"
	cp "$TMP/out" "$out"
	jq -e '.errors | length == 0' "$out" >/dev/null || fail "rule errors: $(jq -c .errors "$out")"
}

# run_cmds FILE JQ: runs each command the filter prints, in order, as a root shell would; e2fsck's
# status 1 (errors corrected: -D rewrote directories) is success.
run_cmds() {
	local cmd st
	while IFS= read -r cmd; do
		st=0
		bash -c "$cmd" >"$TMP/cmd.out" 2>&1 </dev/null || st=$?
		case $cmd in e2fsck*) [ "$st" -le 1 ] && st=0 ;; esac
		[ "$st" = 0 ] || fail "'$cmd' exited $st: $(head -c 800 "$TMP/cmd.out")"
	done < <(jq -r "$2" "$1")
}

# 1. XFS made without a stripe, then described as sitting on an md RAID6.
img=$TMP/xfs.img
make_image "$img" 1G
mkfs.xfs -q -f -L xfsdata -d noalign "$img" >/dev/null || fail "mkfs.xfs failed"
dev=$(attach_loop "$img")
identity=$(blkid -o value -s LABEL -s UUID "$dev" | paste -sd' ')
mnt=$(mount_tmp "$dev")
run_status 0 "$FSTUNE" probe "$mnt" --format json
jq '.device += {transport: "md", rotational: true, physical_block_size: 4096, minimum_io_size: 524288,
	optimal_io_size: 3145728, md_level: "raid6", md_chunk_bytes: 524288, md_data_disks: 6, md_raid_disks: 8}' \
	"$TMP/out" >"$TMP/xfs-raid.json"
report_facts "$TMP/xfs-raid.json" "$TMP/xfs.report"
r=$TMP/xfs.report
[ "$(jq -r '[.recommendations[] | select(.id == "topology.fs_stripe_missing")][0].disruption' "$r")" = reformat ] ||
	fail "XFS without stripe: want a reformat, got $(jq -c '[.recommendations[] | {id, disruption}]' "$r")"
if jq -r '.recommendations[] | (.apply + .revert)[]' "$r" | grep -q 'sunit'; then
	fail "XFS without stripe: a mount-option fix was printed"
fi
if jq -r '.recommendations[] | select(.id | startswith("topology.")) | .rationale' "$r" |
	grep -q 'mount with -o sunit'; then
	fail "XFS without stripe: the rationale still offers the mount option"
fi
cmd=$(jq -r '.mkfs[] | select(.fs == "xfs") | .command' "$r")
uuid=$(blkid -o value -s UUID "$dev")
[[ $cmd == *"-d su=524288,sw=6"* && $cmd == *"-L xfsdata"* && $cmd == *"-m uuid=$uuid"* ]] ||
	fail "XFS mkfs command (the stripe, the label and UUID kept): $cmd"
# What the rationale says: the kernel refuses the mount option on this filesystem.
umount "$mnt"
if mount -o sunit=1024,swidth=6144 "$dev" "$mnt" 2>/dev/null; then
	umount "$mnt"
	fail "XFS made without a stripe mounted with sunit/swidth: the rationale would be wrong"
fi
# The printed command makes the filesystem (the facts named the loop device).
bash -c "$cmd" >"$TMP/cmd.out" 2>&1 </dev/null || fail "'$cmd' failed: $(head -c 800 "$TMP/cmd.out")"
mount -o sunit=1024,swidth=6144 "$dev" "$mnt" || fail "the new XFS does not take its stripe at mount"
umount "$mnt"
assert_eq "$(blkid -o value -s LABEL -s UUID "$dev" | paste -sd' ')" "$identity" "label and UUID after '$cmd'"

# 2. ext4 made with -i 1048576 (1024 inodes on 1 GiB), facing 200,000 files of 500-3000 bytes.
img=$TMP/ext-i.img
make_image "$img" 1G
mkfs.ext4 -q -F -L data01 -i 1048576 "$img" || fail "mkfs.ext4 -i 1048576 failed"
dev=$(attach_loop "$img")
identity=$(blkid -o value -s LABEL -s UUID "$dev" | paste -sd' ')
mnt=$(mount_tmp "$dev")
run_status 0 "$FSTUNE" report "$mnt" --bench none --workload smallfiles --files 200000 --file-size 500-3000 \
	--no-system-rules --format json
cp "$TMP/out" "$TMP/ext-i.report"
r=$TMP/ext-i.report
[ "$(jq -r '[.recommendations[] | select(.id == "inodes.exhaustion")][0].severity' "$r")" = warn ] ||
	fail "ext4 -i 1048576 for 200,000 files: want inodes.exhaustion at warn: $(jq -c '[.recommendations[].id]' "$r")"
cmd=$(jq -r '.mkfs[] | select(.fs == "ext4") | .command' "$r")
uuid=$(blkid -o value -s UUID "$dev")
[[ $cmd == mkfs.ext4\ * && $cmd == *" -L data01 -U $uuid "* ]] || fail "the ext4 command does not keep them: $cmd"
jq -e --arg p "Back up first: it destroys everything on $dev, the ext4 filesystem mounted on $mnt included" \
	'any(.mkfs[0].notes[]; startswith($p))' "$r" >/dev/null || fail "no back-up note: $(jq -c .mkfs "$r")"
jq -e --arg p "It keeps the label data01 and the UUID $uuid" 'any(.mkfs[0].notes[]; startswith($p))' "$r" \
	>/dev/null || fail "no note of what it keeps: $(jq -c .mkfs "$r")"
umount "$mnt"
yes | bash -c "$cmd" >"$TMP/cmd.out" 2>&1 || fail "'$cmd' failed: $(head -c 800 "$TMP/cmd.out")"
inodes=$(dumpe2fs -h "$dev" 2>/dev/null | sed -n 's/^Inode count: *//p')
[ "$inodes" -ge 200000 ] || fail "'$cmd' made $inodes inodes, fewer than the 200,000 files"
assert_eq "$(blkid -o value -s LABEL -s UUID "$dev" | paste -sd' ')" "$identity" "label and UUID after '$cmd'"

# 3. A small ext4 facing millions of small files: they cannot fit (said first, warn), and the inode
#    advice stays within what the capacity can use and mke2fs accepts.
img=$TMP/ext-small.img
make_image "$img" 1G
mkfs.ext4 -q -F "$img" || fail "mkfs.ext4 failed"
dev=$(attach_loop "$img")
mnt=$(mount_tmp "$dev")
run_status 0 "$FSTUNE" report "$mnt" --bench none --workload smallfiles --files 7500000 --no-system-rules \
	--format json
cp "$TMP/out" "$TMP/ext-small.report"
r=$TMP/ext-small.report
[ "$(jq -r '.recommendations[0].id' "$r")" = inodes.capacity_exceeded ] ||
	fail "7.5 M files on 1 GiB: the first finding should be that they do not fit: $(jq -c '[.recommendations[] | {id, severity}]' "$r")"
[ "$(jq -r '[.recommendations[] | select(.id == "inodes.capacity_exceeded")][0].severity' "$r")" = warn ] ||
	fail "7.5 M files on 1 GiB: capacity_exceeded is not warn"
cmd=$(jq -r '.mkfs[] | select(.fs == "ext4") | .command' "$r")
[[ $cmd != *"-N 7500000"* && $cmd != *"-N 11250000"* ]] || fail "an -N mke2fs rejects: $cmd"
umount "$mnt"
yes | bash -c "$cmd" >"$TMP/cmd.out" 2>&1 || fail "'$cmd' failed: $(head -c 800 "$TMP/cmd.out")"
inodes=$(dumpe2fs -h "$dev" 2>/dev/null | sed -n 's/^Inode count: *//p')
size=$(blockdev --getsize64 "$dev")
# Never more inodes than 5,250-byte files (two 4 KiB blocks each) can use, nor one per KiB.
[ "$inodes" -le $((size / 8192)) ] || fail "'$cmd' made $inodes inodes, more than the $((size / 8192)) files that fit"

# 4. strictatime: the kernel lists neither relatime nor noatime; the revert puts strictatime back.
img=$TMP/ext-atime.img
make_image "$img" 512M
mkfs.ext4 -q -F "$img" || fail "mkfs.ext4 failed"
dev=$(attach_loop "$img")
mnt=$(mount_tmp "$dev" -o strictatime)
run_status 0 "$FSTUNE" probe "$mnt" --format json
cp "$TMP/out" "$TMP/atime.json"
if jq -r '.fs.mount_options[]' "$TMP/atime.json" | grep -qx -e relatime -e noatime -e strictatime; then
	fail "a strictatime mount showed $(jq -c .fs.mount_options "$TMP/atime.json")"
fi
report_facts "$TMP/atime.json" "$TMP/atime.report"
r=$TMP/atime.report
[ "$(jq -r '[.recommendations[] | select(.id == "mount.strictatime")][0].setting' "$r")" = mount.option.noatime ] ||
	fail "strictatime not seen: $(jq -c '[.recommendations[].id]' "$r")"
run_cmds "$r" '.recommendations[] | select(.id == "mount.strictatime") | .apply[]'
grep -q " $mnt .*noatime" /proc/mounts || fail "the apply did not mount $mnt noatime"
run_cmds "$r" '.recommendations[] | select(.id == "mount.strictatime") | .revert[]'
opts=$(awk -v m="$mnt" '$2 == m { print $4 }' /proc/mounts)
[[ ,$opts, != *,relatime,* && ,$opts, != *,noatime,* ]] || fail "the revert left $mnt with $opts, not strictatime"
# The same mount as a mail spool (readers compare atime with mtime): relatime, never noatime, and
# the revert back to strictatime; the fstab line swaps strictatime for relatime.
jq '.workload = {profile: "smallfiles"}' "$TMP/atime.json" >"$TMP/spool.json"
report_facts "$TMP/spool.json" "$TMP/spool.report"
r=$TMP/spool.report
assert_eq "$(jq -r '[.recommendations[] | select(.id == "mount.strictatime")][0] | "\(.setting) \(.current) \(.recommended)"' "$r")" \
	"mount.option.relatime false true" "the mail spool's strictatime advice"
jq -r '[.recommendations[] | select(.id == "mount.strictatime")][0].persistent.line' "$r" | grep -q 'add relatime.*remove strictatime' ||
	fail "the fstab line: $(jq -c '[.recommendations[] | select(.id == "mount.strictatime")][0].persistent' "$r")"
run_cmds "$r" '.recommendations[] | select(.id == "mount.strictatime") | .apply[]'
opts=$(findmnt -rno VFS-OPTIONS --mountpoint "$mnt")
[[ ,$opts, == *,relatime,* ]] || fail "the apply left $mnt with $opts, not relatime"
run_cmds "$r" '.recommendations[] | select(.id == "mount.strictatime") | .revert[]'
opts=$(findmnt -rno VFS-OPTIONS --mountpoint "$mnt")
[[ ,$opts, != *,relatime,* && ,$opts, != *,noatime,* ]] || fail "the revert left $mnt with $opts, not strictatime"

# 5. dir_index off and on with the printed sequences, in order, on a mounted ext4 with checksums
#    (tune2fs demands a freshly checked filesystem to turn dir_index off there).
img=$TMP/ext-dir.img
make_image "$img" 512M
mkfs.ext4 -q -F -O ^dir_index "$img" || fail "mkfs.ext4 -O ^dir_index failed"
dev=$(attach_loop "$img")
mnt=$(mount_tmp "$dev" -o nosuid)
mkdir "$mnt/big" && (cd "$mnt/big" && seq 1 3000 | xargs touch)
run_status 0 "$FSTUNE" probe "$mnt" --format json
cp "$TMP/out" "$TMP/dir.json"
report_facts "$TMP/dir.json" "$TMP/dir.report"
r=$TMP/dir.report
[ "$(jq -r '[.recommendations[] | select(.id == "directories.dir_index_off")][0].disruption' "$r")" = offline ] ||
	fail "dir_index off not found: $(jq -c '[.recommendations[].id]' "$r")"
tune2fs -T 19700102 "$dev" >/dev/null || fail "tune2fs -T failed"
run_cmds "$r" '.recommendations[] | select(.id == "directories.dir_index_off") | .apply[]'
grep -q " $mnt .*nosuid" /proc/mounts || fail "the apply did not mount $mnt back with its options"
dumpe2fs -h "$dev" 2>/dev/null | grep -q 'features:.*dir_index' || fail "the apply did not turn dir_index on"
lsattr -d "$mnt/big" | grep -q I || fail "e2fsck -D did not index the existing directory"
tune2fs -T 19700102 "$dev" >/dev/null || fail "tune2fs -T failed"
run_cmds "$r" '.recommendations[] | select(.id == "directories.dir_index_off") | .revert[]'
if dumpe2fs -h "$dev" 2>/dev/null | grep -q 'features:.*dir_index'; then
	fail "the revert did not turn dir_index off"
fi
[ "$(find "$mnt/big" -type f | wc -l)" = 3000 ] || fail "files lost on the way"
grep -q " $mnt .*nosuid" /proc/mounts || fail "the revert did not mount $mnt back with its options"
# 6. The other remount sequences the rules print: discard off (an ext4 mounted discard on a loop
#    device, which accepts discard) and lazytime on (random writes into large files), each applied
#    and reverted in order.
img=$TMP/ext-mnt.img
make_image "$img" 512M
mkfs.ext4 -q -F "$img" || fail "mkfs.ext4 failed"
dev=$(attach_loop "$img")
mnt=$(mount_tmp "$dev" -o discard,relatime)
run_status 0 "$FSTUNE" report "$mnt" --bench none --access random --file-size 64m-1g --io-size 8k \
	--io-mode buffered --no-system-rules --format json
cp "$TMP/out" "$TMP/mnt.report"
r=$TMP/mnt.report
for id in mount.discard_to_fstrim mount.lazytime; do
	[ "$(jq -r --arg id "$id" '[.recommendations[] | select(.id == $id)][0].disruption' "$r")" = remount ] ||
		fail "$id not found: $(jq -c '[.recommendations[].id]' "$r")"
done
# discard is a filesystem option (mountinfo's superblock options): `current` must see it there, or
# the advice reads "false -> false" and apply.sh's drift check records the wrong value
assert_eq "$(jq -c '[.recommendations[] | select(.id == "mount.discard_to_fstrim")][0] | [.current, .recommended]' "$r")" \
	"[true,false]" "discard_to_fstrim's current and recommended"
run_cmds "$r" '.recommendations[] | select(.id == "mount.discard_to_fstrim") | .apply[]'
grep -q " $mnt .*discard" /proc/mounts && fail "the apply left $mnt mounted with discard"
run_cmds "$r" '.recommendations[] | select(.id == "mount.discard_to_fstrim") | .revert[]'
grep -q " $mnt .*discard" /proc/mounts || fail "the revert did not put discard back on $mnt"
run_cmds "$r" '.recommendations[] | select(.id == "mount.lazytime") | .apply[]'
grep -q " $mnt .*lazytime" /proc/mounts || fail "the apply did not mount $mnt lazytime"
run_cmds "$r" '.recommendations[] | select(.id == "mount.lazytime") | .revert[]'
grep -q " $mnt .*lazytime" /proc/mounts && fail "the revert left $mnt mounted lazytime"

# 7. noatime on a relatime mount (an observed read-mostly workload) and back: the revert must leave
#    relatime, not the noatime that libmount keeps from the current options on `remount,relatime`.
run_status 0 "$FSTUNE" probe "$mnt" --format json
jq '.workload = {read_share: 0.97} | .sources["workload.read_share"] = "observe"' "$TMP/out" >"$TMP/ra.json"
report_facts "$TMP/ra.json" "$TMP/ra.report"
r=$TMP/ra.report
vfs() { findmnt -rno VFS-OPTIONS --mountpoint "$mnt"; }
[[ ,$(vfs), == *,relatime,* ]] || fail "not relatime to begin with: $(vfs)"
run_cmds "$r" '.recommendations[] | select(.id == "mount.noatime_read_mostly") | .apply[]'
[[ ,$(vfs), == *,noatime,* ]] || fail "the apply left $mnt with $(vfs)"
run_cmds "$r" '.recommendations[] | select(.id == "mount.noatime_read_mostly") | .revert[]'
[[ ,$(vfs), == *,relatime,* && ,$(vfs), != *,noatime,* ]] || fail "the revert left $mnt with $(vfs), not relatime"

# 8. commit=30 for a streaming workload on a mount that leaves commit to ext4's default: the kernel
#    does not list commit=5, so `current` is the default the revert remounts with, and the read-back
#    is the superblock's options (after mountinfo's "-"), where commit= shows.
mkdir "$TMP/commit.d"
run_status 0 "$FSTUNE" report "$mnt" --bench none --access sequential --io-size 1m --no-sync-heavy \
	--no-system-rules --format json --scripts "$TMP/commit.d"
cp "$TMP/out" "$TMP/commit.report"
r=$TMP/commit.report
fso() { findmnt -rno FS-OPTIONS --mountpoint "$mnt"; }
[[ ,$(fso), != *,commit=* ]] || fail "commit is listed to begin with: $(fso)"
assert_eq "$(jq -c '[.recommendations[] | select(.id == "mount.commit_throughput")][0] | [.current, .recommended]' "$r")" \
	"[5,30]" "commit_throughput's current and recommended"
run_cmds "$r" '.recommendations[] | select(.id == "mount.commit_throughput") | .apply[]'
[[ ,$(fso), == *,commit=30,* ]] || fail "the apply left $mnt with $(fso)"
run_cmds "$r" '.recommendations[] | select(.id == "mount.commit_throughput") | .revert[]'
[[ ,$(fso), != *,commit=* ]] || fail "the revert left $mnt with $(fso), not the default commit"
grep 'check mount.option.commit ' "$TMP/commit.d/apply.sh" | grep -F '$(i + 3)' | grep -qF /proc/self/mountinfo ||
	fail "apply.sh does not read commit back from the superblock's options: $(grep -n "check '" "$TMP/commit.d/apply.sh")"
echo "ok"
