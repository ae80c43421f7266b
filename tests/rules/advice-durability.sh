#!/bin/bash
# The durability advice run for real on loop devices, each printed sequence applied and reverted in
# order as a root shell would: an ext4 mounted barrier=0 (which the kernel lists as nobarrier) over
# the loop device's volatile cache; an ext4 mounted data=journal under direct I/O,
# whose change the kernel refuses on remount, so the offline sequence runs; an ext2 without a journal
# given one with tune2fs -j and mounted as ext4 with the journal in use (and the proof that a mount as
# ext4 alone adds none); a btrfs holding VM images given a No_COW directory by the printed command
# (mounted nobarrier too: barrier back on remount); an XFS mount naming nobarrier refused; and an
# fsync measured on a loop device, named as the loop device and its backing file.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
private_mount_ns "$@"
require_loop
require_cmd jq mkfs.ext4 mkfs.ext2 mkfs.btrfs tune2fs dumpe2fs chattr lsattr

# report_on MNT OUT [report options...]: the JSON report of the mounted filesystem, no benchmarks.
report_on() {
	local mnt=$1 out=$2
	shift 2
	run_status 0 "$FSTUNE" report "$mnt" --bench none --no-system-rules --format json "$@"
	cp "$TMP/out" "$out"
	jq -e '.errors | length == 0' "$out" >/dev/null || fail "rule errors: $(jq -c .errors "$out")"
}

# field REPORT ID FILTER: one field of recommendation ID.
field() { jq -r --arg id "$2" "[.recommendations[] | select(.id == \$id)][0] | $3" "$1"; }

# run_cmds REPORT ID apply|revert: runs each printed command, in order, as a root shell would.
run_cmds() {
	local cmd st n=0
	while IFS= read -r cmd; do
		st=0
		n=$((n + 1))
		bash -c "$cmd" >"$TMP/cmd.out" 2>&1 </dev/null || st=$?
		[ "$st" = 0 ] || fail "$2 $3 '$cmd' exited $st: $(head -c 800 "$TMP/cmd.out")"
	done < <(jq -r --arg id "$2" ".recommendations[] | select(.id == \$id) | .$3[]" "$1")
	[ "$n" -gt 0 ] || fail "$2: no $3 commands printed"
}

opts_of() { awk -v m="$1" '$2 == m { print $4 }' /proc/mounts; }
type_of() { awk -v m="$1" '$2 == m { print $3 }' /proc/mounts; }

# 1. ext4 mounted nobarrier over the loop device's volatile cache ("write back").
img=$TMP/nobarrier.img
make_image "$img" 512M
mkfs.ext4 -q -F "$img" || fail "mkfs.ext4 failed"
dev=$(attach_loop "$img")
mnt=$(mount_tmp "$dev" -o barrier=0)
[[ ,$(opts_of "$mnt"), == *,nobarrier,* ]] || fail "barrier=0 is not listed as nobarrier: $(opts_of "$mnt")"
r=$TMP/nobarrier.report
report_on "$mnt" "$r"
id=barriers.nobarrier_volatile_cache
if [ "$(jq -r '.facts.device.write_cache' "$r")" = "write back" ]; then
	[ "$(field "$r" $id .severity)" = warn ] ||
		fail "nobarrier over write back: want $id at warn: $(jq -c '[.recommendations[] | {id, severity}]' "$r")"
else
	id=barriers.nobarrier_cache_unknown
	[ "$(field "$r" $id .severity)" != null ] || fail "nobarrier not seen: $(jq -c '[.recommendations[].id]' "$r")"
fi
[ "$(field "$r" $id .disruption)" = remount ] || fail "$id is not a remount"
run_cmds "$r" $id apply
[[ ,$(opts_of "$mnt"), != *,nobarrier,* ]] || fail "the apply left $mnt with $(opts_of "$mnt")"
run_cmds "$r" $id revert
[[ ,$(opts_of "$mnt"), == *,nobarrier,* ]] || fail "the revert did not put nobarrier back: $(opts_of "$mnt")"
field "$r" $id .persistent.line | grep -q 'barrier=0' || fail "the fstab line does not name barrier=0"

# 2. ext4 mounted data=journal, written with direct I/O: data=ordered, offline.
img=$TMP/journal.img
make_image "$img" 512M
mkfs.ext4 -q -F "$img" || fail "mkfs.ext4 failed"
dev=$(attach_loop "$img")
mnt=$(mount_tmp "$dev" -o data=journal,nosuid)
r=$TMP/journal.report
report_on "$mnt" "$r" --io-mode direct --access random --io-size 8k
id=journal.data_journal
[ "$(field "$r" $id .severity)" = suggest ] ||
	fail "data=journal under O_DIRECT: want $id at suggest: $(jq -c '[.recommendations[] | {id, severity}]' "$r")"
[ "$(field "$r" $id .disruption)" = offline ] || fail "$id is not offline"
[ "$(field "$r" $id .recommended)" = ordered ] || fail "$id does not recommend data=ordered"
field "$r" $id .persistent.line | grep -q 'data=ordered' || fail "no fstab line for data=ordered"
# What the rationale says: the kernel refuses the mode on remount.
if mount -o remount,data=ordered "$mnt" 2>/dev/null; then
	fail "the kernel changed data= on remount: the offline advice would be wrong"
fi
echo data >"$mnt/keep"
run_cmds "$r" $id apply
o=$(opts_of "$mnt")
[[ ,$o, == *,data=ordered,* && ,$o, == *,nosuid,* ]] || fail "the apply mounted $mnt with $o"
[[ ,$o, != *,nodelalloc,* ]] || fail "the apply kept delayed allocation off: $o"
[ "$(cat "$mnt/keep")" = data ] || fail "the file written under data=journal is gone"
run_cmds "$r" $id revert
[[ ,$(opts_of "$mnt"), == *,data=journal,* ]] || fail "the revert did not mount data=journal: $(opts_of "$mnt")"

# 3. ext2 without a journal: a mount as ext4 adds none; tune2fs -j and a mount as ext4 do.
img=$TMP/ext2.img
make_image "$img" 512M
mkfs.ext2 -q -F "$img" || fail "mkfs.ext2 failed"
dev=$(attach_loop "$img")
jbd=/proc/fs/jbd2/$(basename "$dev")-8
mnt=$(mount_tmp "$dev" -t ext4)
[ ! -e "$jbd" ] || fail "an ext2 mounted as ext4 has a journal ($jbd): the advice would be wrong"
umount "$mnt"
mount -t ext2 "$dev" "$mnt" || fail "mount -t ext2 failed"
r=$TMP/ext2.report
report_on "$mnt" "$r"
id=journal.no_journal
[ "$(field "$r" $id .setting)" = fs.feature.has_journal ] ||
	fail "ext2 without journal not seen: $(jq -c '[.recommendations[].id]' "$r")"
[ "$(field "$r" $id .disruption)" = offline ] || fail "$id is not offline"
field "$r" $id .rationale | grep -q 'Mounting an ext2 as ext4 without tune2fs -j does not add a journal' ||
	fail "the rationale does not say that a mount as ext4 alone adds no journal"
run_cmds "$r" $id apply
dumpe2fs -h "$dev" 2>/dev/null | grep -q 'features:.*has_journal' || fail "the apply added no journal"
[ "$(type_of "$mnt")" = ext4 ] || fail "the apply mounted $mnt as $(type_of "$mnt"), not ext4"
[ -e "$jbd" ] || fail "mounted as ext4 with has_journal, but no $jbd: the journal is not in use"
field "$r" $id .persistent.line | grep -q 'ext2 to ext4' || fail "the fstab advice does not change the type"
run_cmds "$r" $id revert
if dumpe2fs -h "$dev" 2>/dev/null | grep -q 'features:.*has_journal'; then
	fail "the revert left the journal"
fi
[ "$(type_of "$mnt")" = ext2 ] || fail "the revert mounted $mnt as $(type_of "$mnt")"

# 4. btrfs holding VM images written at random, mounted with compression: a No_COW directory made by
#    the printed command, whose rationale says the files lose compression.
img=$TMP/btrfs.img
make_image "$img" 1G
mkfs.btrfs -q -f "$img" >/dev/null || fail "mkfs.btrfs failed"
dev=$(attach_loop "$img")
mnt=$(mount_tmp "$dev" -o nobarrier,compress=zstd:3)
r=$TMP/btrfs.report
report_on "$mnt" "$r" --access random --file-size 1g-8g --io-size 4k
# btrfs takes barrier back on remount as ext4 does
id=$(jq -r '[.recommendations[].id | select(startswith("barriers.nobarrier"))][0]' "$r")
[ "$id" != null ] || fail "btrfs nobarrier not seen: $(jq -c '[.recommendations[].id]' "$r")"
run_cmds "$r" "$id" apply
[[ ,$(opts_of "$mnt"), != *,nobarrier,* ]] || fail "the apply left btrfs with $(opts_of "$mnt")"
run_cmds "$r" "$id" revert
[[ ,$(opts_of "$mnt"), == *,nobarrier,* ]] || fail "the revert did not put nobarrier back on btrfs"
id=cow.nocow_dir
[ "$(field "$r" $id .severity)" = suggest ] ||
	fail "btrfs under VM images: want $id at suggest: $(jq -c '[.recommendations[] | {id, severity}]' "$r")"
dir=$(field "$r" $id .recommended)
[ "$dir" = "$mnt/nocow" ] || fail "$id recommends $dir"
# btrfs lists compress= among the filesystem's options only (mountinfo's superblock field)
field "$r" $id .rationale | grep -q 'The mount compresses (compress=zstd:3)' ||
	fail "$id misses the compression: $(jq -c .facts.fs.super_options "$r")"
run_cmds "$r" $id apply
lsattr -d "$dir" | awk '{ print $1 }' | grep -q C || fail "the apply did not set C on $dir: $(lsattr -d "$dir")"
touch "$dir/disk.img"
lsattr "$dir/disk.img" | awk '{ print $1 }' | grep -q C || fail "a new file in $dir is not No_COW"
run_cmds "$r" $id revert
if lsattr -d "$dir" | awk '{ print $1 }' | grep -q C; then
	fail "the revert left C on $dir"
fi
# 5. What barriers.xfs_barrier_option says: a kernel from 4.19 on refuses an XFS mount naming
#    nobarrier or barrier (this one is newer), so an fstab that still carries them fails to mount.
if command -v mkfs.xfs >/dev/null; then
	img=$TMP/xfs.img
	make_image "$img" 1G
	mkfs.xfs -q -f "$img" >/dev/null || fail "mkfs.xfs failed"
	dev=$(attach_loop "$img")
	mnt=$(mount_tmp "$dev")
	umount "$mnt"
	for o in nobarrier barrier; do
		if mount -o "$o" "$dev" "$mnt" 2>/dev/null; then
			umount "$mnt"
			fail "XFS mounted with -o $o on $(uname -r): the rule's warning would be wrong"
		fi
	done
fi

# 6. fsync measured for real on an ext4 over a loop device: the finding names the loop device and
#    its backing file, never a VM's or a rotating disk's cache.
img=$TMP/fsync.img
make_image "$img" 600M
mkfs.ext4 -q -F "$img" || fail "mkfs.ext4 failed"
dev=$(attach_loop "$img")
mnt=$(mount_tmp "$dev")
r=$TMP/fsync.report
run_status 0 "$FSTUNE" report "$mnt" --tests fsync_4k_overwrite --size 256M --runtime 0.5 --no-system-rules \
	--format json
cp "$TMP/out" "$r"
[ "$(jq -r '.facts.bench.fsync_4k_overwrite.lat_p50_us | type' "$r")" = number ] || fail "fsync_4k_overwrite not measured"
title=$(field "$r" durability.loop_flush .title)
[[ $title == "${dev#/dev/} is a loop device over $img: its fsync ("*") is the backing file's" ]] ||
	fail "the loop device's fsync finding: $title ($(jq -c '[.recommendations[].id]' "$r"))"
jq -e 'all(.recommendations[]; .id != "durability.vm_cache_mode" and .id != "durability.flush_not_reaching_media")' \
	"$r" >/dev/null || fail "a loop device was judged as a disk: $(jq -c '[.recommendations[].id]' "$r")"
echo "ok"
