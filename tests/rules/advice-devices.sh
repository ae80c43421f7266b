#!/bin/bash
# The durability and device-kind advice on devices this machine lacks, through captured sysfs trees
# (tests/fixtures/sysroot) varied in a copy, and on hand-written facts for the root filesystem. The
# variations are hand-made: md0/md/stripe_cache_size 256 (the kernel's default, md.rst);
# queue/zoned host-managed on the capture's SATA HDD (a value sysfs-block documents); queue/
# physical_block_size 4096 on the capture's NVMe namespace (a 512e namespace).
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
require_cmd jq

FIX=$FSTUNE_SRCDIR/tests/fixtures/sysroot

# report OUT ARGS...: a JSON report without rule errors.
report() {
	local out=$1
	shift
	run_status 0 "$FSTUNE" report --no-system-rules --format json "$@"
	cp "$TMP/out" "$out"
	jq -e '.errors | length == 0' "$out" >/dev/null || fail "rule errors: $(jq -c .errors "$out")"
}

# want REPORT ID FILTER EXPECTED: a field of recommendation ID (null when ID is absent).
want() {
	local got
	got=$(jq -c --arg id "$2" "[.recommendations[] | select(.id == \$id)][0] | $3" "$1")
	[ "$got" = "$4" ] || fail "$2 $3: got $got, want $4 (ids: $(jq -c '[.recommendations[].id]' "$1"))"
}

# 1. md RAID5: the stripe cache is probed, and the printed command, run against the copy of sysfs,
#    sets what the next probe reads.
root=$TMP/md
cp -a "$FIX/md-raid5" "$root"
echo 256 >"$root/sys/devices/virtual/block/md0/md/stripe_cache_size"
run_status 0 "$FSTUNE" probe --sysroot "$root" md0 --format json
cp "$TMP/out" "$TMP/md0.json"
k=device.md_stripe_cache_stripes
[ "$(jq -c --arg k $k '[.device.md_stripe_cache_stripes, .sources[$k]]' "$TMP/md0.json")" = '[256,"sysfs"]' ] ||
	fail "md stripe cache not probed: $(jq -c .device "$TMP/md0.json")"
jq '.workload = {read_share: 0.25} | .sources["workload.read_share"] = "observe"
	| .host.mem_total_bytes = 17179869184' "$TMP/md0.json" >"$TMP/md0-writes.json"
r=$TMP/md.report
report "$r" --facts "$TMP/md0-writes.json"
id=md_raid.stripe_cache
want "$r" $id .severity '"suggest"'
want "$r" $id .disruption '"runtime"'
want "$r" $id .apply '["echo 4096 > /sys/block/md0/md/stripe_cache_size"]'
want "$r" $id .revert '["echo 256 > /sys/block/md0/md/stripe_cache_size"]'
want "$r" $id '.persistent.line | test("ATTR\\{md/stripe_cache_size\\}=\"4096\"")' true
cmd=$(jq -r --arg id $id '.recommendations[] | select(.id == $id) | .apply[0]' "$r")
bash -c "${cmd//\/sys\//$root/sys/}" || fail "'$cmd' failed on the copy of sysfs"
run_status 0 "$FSTUNE" probe --sysroot "$root" md0 --format json
[ "$(jq .device.md_stripe_cache_stripes "$TMP/out")" = 4096 ] || fail "the apply did not set the stripe cache"
# read-mostly: nothing
jq '.workload = {read_share: 0.9} | .sources["workload.read_share"] = "observe"' "$TMP/md0.json" \
	>"$TMP/md0-reads.json"
report "$r" --facts "$TMP/md0-reads.json"
want "$r" $id .severity null

# 2. A host-managed zoned disk: what to make on the blank disk (and no ext4/XFS choice), a warning for
#    the ext4 on its partition.
root=$TMP/zoned
cp -a "$FIX/simple-nvme" "$root"
zf=$(find "$root/sys/devices" -path '*/block/sdb/queue/zoned')
echo host-managed >"$zf"
report "$TMP/zoned-disk.report" --sysroot "$root" sdb
want "$TMP/zoned-disk.report" zoned.zoned_disk_choice .severity '"suggest"'
[ "$(jq '[.recommendations[] | select(.rule == "fschoice")] | length' "$TMP/zoned-disk.report")" = 0 ] ||
	fail "fschoice proposed a filesystem for a zoned disk"
report "$TMP/zoned-part.report" --sysroot "$root" sdb1
[ "$(jq -r .facts.fs.type "$TMP/zoned-part.report")" = ext4 ] || fail "sdb1 is not the capture's ext4"
want "$TMP/zoned-part.report" zoned.zoned_disk_wrong_fs .severity '"warn"'
report "$TMP/plain.report" --sysroot "$FIX/simple-nvme" sdb
want "$TMP/plain.report" zoned.zoned_disk_choice .severity null

# 3. An NVMe namespace with 512-byte LBAs over 4 KiB physical blocks: the note; the capture as made
#    (512 physical) gets none.
report "$TMP/nvme.report" --sysroot "$FIX/simple-nvme" nvme0n1
want "$TMP/nvme.report" nvme_lbaf.lba_format_512e .severity null
root=$TMP/nvme
cp -a "$FIX/simple-nvme" "$root"
pf=$(find "$root/sys/devices" -path '*/nvme0n1/queue/physical_block_size')
echo 4096 >"$pf"
report "$TMP/nvme.report" --sysroot "$root" nvme0n1
want "$TMP/nvme.report" nvme_lbaf.lba_format_512e .severity '"info"'
want "$TMP/nvme.report" nvme_lbaf.lba_format_512e '.rationale | test("nvme id-ns -H /dev/nvme0n1")' true

# 4. The root filesystem, hand-written: data=journal under fsync-heavy work is a reboot (rootflags=
#    and fstab, nothing to run now); an ext2 / gets tune2fs -j mounted and a reboot.
cat >"$TMP/root-journal.json" <<'EOF'
{"host": {"target_os": "linux", "kernel": "6.8.0"},
 "device": {"path": "/dev/sda2", "name": "sda2", "disk": "sda", "write_cache": "write back"},
 "fs": {"type": "ext4", "mount_point": "/", "mount_options": ["rw", "relatime"],
        "super_options": ["rw", "nodelalloc", "data=journal"], "features": ["has_journal", "extent"]},
 "workload": {"sync_heavy": true}}
EOF
r=$TMP/root-journal.report
report "$r" --facts "$TMP/root-journal.json"
want "$r" journal.data_journal .disruption '"reboot"'
want "$r" journal.data_journal .apply '[]'
want "$r" journal.data_journal .persistent.kind '"cmdline"'
want "$r" journal.data_journal '.persistent.line | test("rootflags=data=ordered")' true
cat >"$TMP/root-ext2.json" <<'EOF'
{"host": {"target_os": "linux"},
 "device": {"path": "/dev/sda2", "name": "sda2", "disk": "sda"},
 "fs": {"type": "ext2", "mount_point": "/", "mount_options": ["rw", "relatime"],
        "features": ["ext_attr", "dir_index", "filetype"]}}
EOF
r=$TMP/root-ext2.report
report "$r" --facts "$TMP/root-ext2.json"
want "$r" journal.no_journal .disruption '"reboot"'
want "$r" journal.no_journal .apply '["tune2fs -j /dev/sda2"]'
want "$r" journal.no_journal .revert '[]'

# 5. XFS carrying nobarrier on an old kernel: advice to drop it before 4.19, no command.
cat >"$TMP/xfs-nobarrier.json" <<'EOF'
{"host": {"target_os": "linux", "kernel": "4.14.0"},
 "device": {"path": "/dev/sdb1", "name": "sdb1", "disk": "sdb", "write_cache": "write back"},
 "fs": {"type": "xfs", "mount_point": "/srv", "mount_options": ["rw", "relatime"],
        "super_options": ["rw", "attr2", "nobarrier", "inode64"]}}
EOF
r=$TMP/xfs.report
report "$r" --facts "$TMP/xfs-nobarrier.json"
want "$r" barriers.xfs_barrier_option .severity '"warn"'
want "$r" barriers.xfs_barrier_option .apply '[]'
want "$r" barriers.nobarrier_volatile_cache .severity null
# 6. The healthy default server (tests/servers) gets nothing from these rules, not even a note.
report "$TMP/healthy.report" --facts "$FSTUNE_SRCDIR/tests/servers/healthy-default.json"
mine=$(jq -r '[.recommendations[] | select(.rule | IN("barriers", "journal", "cow", "zoned", "md_raid",
	"nvme_lbaf", "freebsd_flash")) | .id] | join(" ")' "$TMP/healthy.report")
[ -z "$mine" ] || fail "the healthy server got $mine"
echo "ok"
