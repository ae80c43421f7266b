#!/bin/bash
# The stack keys through --sysroot: md RAID 5 (tests/fixtures/sysroot/md-raid5), its members and
# holders, other md levels, systemd's fstrim.timer, and topology_hidden on a hardware RAID volume.
# The fixture is copied to $TMP and varied there; the variations are hand-made and documented here:
#  - md levels: drivers/md (raid0 n, raid1 1, raid4/5 n-1, raid6 n-2; raid10 n / near copies when
#    that divides evenly, else n, as raid10.c sizes io_opt; layout bits 0-7 near copies, 8-15 far
#    copies: Documentation/admin-guide/md.rst);
#  - sdf: a Dell PERC H730P virtual disk behind megaraid_sas (SCSI vendor "DELL", model "PERC H730P
#    Mini", host proc_name "megaraid_sas"); its queue files are the captured sdb's, with
#    optimal_io_size 0 (the controller exports no stripe) and then 262144 (one that does);
#  - md0/holders/: empty, as the kernel makes it for every block device;
#  - fstrim.timer: the link `systemctl enable fstrim.timer` makes, then a mask to /dev/null.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
. "$FSTUNE_SRCDIR/tests/lib/fs.sh"
require_cmd jq

root=$TMP/sysroot
cp -a "$FSTUNE_SRCDIR/tests/fixtures/sysroot/md-raid5" "$root"
md=$root/sys/devices/virtual/block/md0/md
# the kernel gives every block device a holders/ directory; the fixture's md0 has none
mkdir -p "$root/sys/devices/virtual/block/md0/holders"

probe_json "$TMP/md0.json" md0 --sysroot "$root"
j=$TMP/md0.json
want "$j" .device.md_level '"raid5"'
want "$j" .device.md_chunk_bytes 65536
want "$j" .device.md_raid_disks 4
want "$j" .device.md_data_disks 3
want "$j" .device.members '["sdb","sdc","sdd","sde"]'
want "$j" .device.holders '[]'
want "$j" .device.topology_hidden false
want "$j" '.sources["device.md_level"]' '"sysfs"'
want "$j" .fs.type '"ext4"' # mounted on /srv in the capture's mountinfo
want "$j" '.unavailable["fs.uuid"].status' '"not_applicable"' # no device is opened under --sysroot
want "$j" '.unavailable["fs.block_size"].reason | test("not read under --sysroot")' true

probe_json "$TMP/sdb.json" sdb --sysroot "$root"
want "$TMP/sdb.json" .device.holders '["md0"]'
want "$TMP/sdb.json" '.unavailable["device.members"].status' '"not_applicable"'
want "$TMP/sdb.json" '.device.md_level // null' null

# A path on the md: the mount's facts come from the capture's mountinfo; statfs is not run.
probe_json "$TMP/srv.json" /srv --sysroot "$root"
j=$TMP/srv.json
want "$j" .device.name '"md0"'
want "$j" .device.md_data_disks 3
want "$j" .fs.type '"ext4"'
want "$j" '.sources["fs.type"]' '"mountinfo"'
want "$j" .fs.mount_point '"/srv"'
want "$j" .fs.mount_options '["rw","relatime"]'
want "$j" '.fs.super_options | index("stripe=48") != null' true
want "$j" '.unavailable["fs.free_bytes"].status' '"not_applicable"'
want "$j" '.unavailable["fs.fstrim_timer"].status' '"not_found"'

mkdir -p "$root/etc/systemd/system/timers.target.wants"
ln -s /lib/systemd/system/fstrim.timer "$root/etc/systemd/system/timers.target.wants/fstrim.timer"
probe_json "$TMP/trim.json" /srv --sysroot "$root"
want "$TMP/trim.json" .fs.fstrim_timer true
want "$TMP/trim.json" '.sources["fs.fstrim_timer"]' '"systemd"'
# The capture has no /run/systemd/system: systemd was not running, and the answer says it was read
# from the unit files, naming the link; the report's evidence carries that.
want "$TMP/trim.json" '.fs.fstrim_timer_from | startswith("systemd is not running: read from the unit files on disk")' true
want "$TMP/trim.json" '.fs.fstrim_timer_from | endswith("/etc/systemd/system/timers.target.wants/fstrim.timer")' true
printf '%s\n' '{"schema": "fstune.report/1", "facts": {"fs": {"fstrim_timer": false, "mount_options": ["rw"],
	"type": "ext4", "fstrim_timer_from": "systemd is not running: read from the unit files on disk"},
	"device": {"rotational": false, "discard_granularity": 4096}, "host": {"target_os": "linux"}}}' >"$TMP/trim-facts.json"
"$FSTUNE" report --no-system-rules --facts "$TMP/trim-facts.json" >"$TMP/trim-report.txt" ||
	fail "report on fstrim facts failed"
tr -s ' \n' ' ' <"$TMP/trim-report.txt" |
	grep -qF "fs.fstrim_timer = no [user; systemd is not running: read from the unit files on disk]" || { cat "$TMP/trim-report.txt" >&2; fail "the evidence does not say where fstrim_timer came from"; }
mkdir -p "$root/run/systemd/system"
probe_json "$TMP/trim-running.json" /srv --sysroot "$root"
want "$TMP/trim-running.json" '.fs.fstrim_timer_from | contains("not running")' false
rmdir "$root/run/systemd/system"
ln -s /dev/null "$root/etc/systemd/system/fstrim.timer"
probe_json "$TMP/mask.json" /srv --sysroot "$root"
want "$TMP/mask.json" .fs.fstrim_timer false

# level FILE-VALUE... : rewrite md/ files, then check md_data_disks.
data_disks() {
	printf '%s\n' "$1" >"$md/level"
	printf '%s\n' "$2" >"$md/raid_disks"
	printf '%s\n' "$3" >"$md/layout"
	probe_json "$TMP/lvl.json" md0 --sysroot "$root"
	want "$TMP/lvl.json" .device.md_data_disks "$4" "md $1 of $2 disks, layout $3"
}
data_disks raid6 4 2 2
data_disks raid0 4 0 4
data_disks raid1 4 0 1
data_disks raid10 4 258 2 # 0x102: near 2, far 1
data_disks raid10 6 513 6 # 0x201: near 1, far 2 (far copies do not narrow the stripe)
data_disks raid10 3 258 3 # near 2 does not divide 3 disks: the stripe spans all three

# A hardware RAID volume: the sdb copy moved behind a megaraid_sas host.
hba=sys/devices/pci0000:00/0000:00:03.0/0000:02:00.0/host5
sdev=$hba/target5:2:0/5:2:0:0
mkdir -p "$root/$sdev/block" "$root/$hba/scsi_host/host5" "$root/sys/class/scsi_host"
cp -a "$root/sys/devices/pci0000:00/0000:00:1f.2/ata2/host1/target1:0:0/1:0:0:0/block/sdb" \
	"$root/$sdev/block/sdf"
rm -rf "$root/$sdev/block/sdf/holders" "$root/$sdev/block/sdf/device"
mkdir "$root/$sdev/block/sdf/holders"
ln -s ../../../5:2:0:0 "$root/$sdev/block/sdf/device"
echo 8:80 >"$root/$sdev/block/sdf/dev"
echo DELL >"$root/$sdev/vendor"
echo "PERC H730P Mini" >"$root/$sdev/model"
echo megaraid_sas >"$root/$hba/scsi_host/host5/proc_name"
ln -s "../../${hba#sys/}/scsi_host/host5" "$root/sys/class/scsi_host/host5"
ln -s "../../${sdev#sys/}/block/sdf" "$root/sys/class/block/sdf"
ln -s "../${sdev#sys/}/block/sdf" "$root/sys/block/sdf"
ln -s "../../${sdev#sys/}/block/sdf" "$root/sys/dev/block/8:80"
echo 0 >"$root/$sdev/block/sdf/queue/optimal_io_size"
probe_json "$TMP/perc.json" sdf --sysroot "$root"
want "$TMP/perc.json" .device.topology_hidden true
want "$TMP/perc.json" '.sources["device.topology_hidden"]' '"sysfs"'
echo 262144 >"$root/$sdev/block/sdf/queue/optimal_io_size"
probe_json "$TMP/perc2.json" sdf --sysroot "$root"
want "$TMP/perc2.json" .device.topology_hidden false
# The same disk behind a plain HBA driver is a disk, whatever its model says.
echo 0 >"$root/$sdev/block/sdf/queue/optimal_io_size"
echo ahci >"$root/$hba/scsi_host/host5/proc_name"
echo "RAID Edition HDD" >"$root/$sdev/model"
probe_json "$TMP/ahci.json" sdf --sysroot "$root"
want "$TMP/ahci.json" .device.topology_hidden false
echo "ok"
