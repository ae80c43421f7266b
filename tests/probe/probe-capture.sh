#!/bin/bash
# Members of mounted filesystems on captured machines (--sysroot), and udev data from a capture:
#  - tests/fixtures/sysroot/bcachefs-multi (from util-linux's multi-devs-bcachefs, no
#    sys/class/block): udev data from dev/<NAME> and run/udev/data/b<MAJ>:<MIN>, and the second
#    bcachefs member is a member of the mount made through the first; the SATA disk sdb's model is
#    udev's whole ID_MODEL_ENC, not sysfs's 16 bytes;
#  - tests/fixtures/sysroot/md-raid5: a leaf under a mounted md is a member through holders/.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
. "$FSTUNE_SRCDIR/tests/lib/fs.sh"
require_cmd jq timeout

FIX=$FSTUNE_SRCDIR/tests/fixtures/sysroot

# --- bcachefs over two partitions, mounted through sdc1 ---
B=$FIX/bcachefs-multi
uuid=84684e5c-1a29-4dd5-98cc-a9e175a7ce2e
probe_json "$TMP/sdc2.json" sdc2 --sysroot "$B"
j=$TMP/sdc2.json
want "$j" .fs.type '"bcachefs"'
want "$j" '.sources["fs.type"]' '"udev"'
want "$j" .fs.uuid "\"$uuid\""
want "$j" .fs.uuid_sub '"22a706ba-9c4b-488e-b0c3-d8de6393cfa6"'
want "$j" .fs.version '"1.28"'
want "$j" '.unavailable["fs.label"].status' '"not_found"' "no ID_FS_LABEL in the udev data"
want "$j" .fs.member_of "{\"type\":\"bcachefs\",\"uuid\":\"$uuid\",\"devices\":[\"sdc1\",\"sdc2\"],\"mount_point\":\"/mnt/test\"}"
want "$j" '.unavailable["fs.mount_point"].reason' '"not mounted through this device: a member of the bcachefs mounted on /mnt/test (fs.member_of)"'
# identity as libudev gives it live: model from ID_MODEL_ENC, serial and WWN with their property
want "$j" .device.model '"scsi_debug"'
want "$j" .device.serial '"33333330000036b0"'
want "$j" .device.serial_udev_property '"ID_SERIAL_SHORT"'
want "$j" .device.wwn '"0x33333330000036b0"'
want "$j" .device.wwn_udev_property '"ID_WWN_WITH_EXTENSION"'
want "$j" .device.id_bus '"scsi"'
want "$j" '.sources["device.serial"]' '"udev"'
# sdb: the capture's sysfs model is cut at 16 bytes (SCSI's INQUIRY field); udev's ID_MODEL_ENC has
# the whole ATA model, as lsblk shows it (util-linux's lsblk-multi-devs-bcachefs-vendor, read from
# the capture's ID_MODEL, spells its blanks as udev's underscores)
assert_eq "$(cat "$B/sys/block/sdb/device/model")" "WDC WD800JD-00MS" "the capture's sysfs model"
probe_json "$TMP/sdb.json" sdb --sysroot "$B"
want "$TMP/sdb.json" '[.device.model, .sources["device.model"]]' '["WDC WD800JD-00MSA1","udev"]'
# without the udev data, sysfs's
cp -a "$B" "$TMP/nodev"
rm "$TMP/nodev/dev/sdb"
probe_json "$TMP/sdb-sysfs.json" sdb --sysroot "$TMP/nodev"
want "$TMP/sdb-sysfs.json" '[.device.model, .sources["device.model"]]' '["WDC WD800JD-00MS","sysfs"]'
# sdc2's signature came from run/udev/data/b8:34: without dev/sdc2 it is still there
cp -a "$B" "$TMP/b"
rm "$TMP/b/dev/sdc2"
probe_json "$TMP/db.json" sdc2 --sysroot "$TMP/b"
want "$TMP/db.json" .fs.uuid_sub '"22a706ba-9c4b-488e-b0c3-d8de6393cfa6"' "udev database form"
# a capture holding device nodes (here a FIFO, which would block) is never read through them; the
# kernel's member list still names the type
rm "$TMP/b/run/udev/data/b8:34"
mkfifo "$TMP/b/dev/sdc2"
run_status 0 timeout 60 "$FSTUNE" probe --sysroot "$TMP/b" --format json sdc2
want "$TMP/out" '[.fs.type, .sources["fs.type"], .fs.member_of.mount_point]' '["bcachefs","sysfs","/mnt/test"]' \
	"no udev data for sdc2"
# the first member is mounted by device number, and a member as well
probe_json "$TMP/sdc1.json" sdc1 --sysroot "$B"
want "$TMP/sdc1.json" .fs.mount_point '"/mnt/test"'
want "$TMP/sdc1.json" .fs.uuid_sub '"c943a64e-d153-4f88-99c2-2f36b6830972"' "from dev/sdc1"
want "$TMP/sdc1.json" .fs.member_of.devices '["sdc1","sdc2"]'
# the disk holds a partition table, as udev's blkid saw it
probe_json "$TMP/sdc.json" sdc --sysroot "$B"
want "$TMP/sdc.json" .unavailable.fs.reason '"/dev/sdc holds a dos partition table, not a filesystem: give one of its partitions"'
# the mount point as a directory target
probe_json "$TMP/mnt.json" /mnt/test --sysroot "$B"
want "$TMP/mnt.json" .device.name '"sdc1"'
want "$TMP/mnt.json" .fs.type '"bcachefs"'
# the report says member-of and proposes no mkfs
run_status 0 "$FSTUNE" report --no-system-rules --sysroot "$B" sdc2
tr -s ' \n' '  ' <"$TMP/out" | grep -qF "member of the bcachefs mounted on /mnt/test (2 devices)" ||
	fail "report: no member line"
run_status 0 "$FSTUNE" report --no-system-rules --format json --sysroot "$B" sdc2
want "$TMP/out" '[.recommendations[] | select(.setting // "" | startswith("mkfs."))] | length' 0 "report mkfs"

# --- a member of md0, which is mounted on /srv ---
probe_json "$TMP/sdb.json" sdb --sysroot "$FIX/md-raid5"
want "$TMP/sdb.json" .fs.member_of '{"type":"ext4","devices":["sdb","sdc","sdd","sde"],"mount_point":"/srv"}'
run_status 0 "$FSTUNE" report --no-system-rules --format json --sysroot "$FIX/md-raid5" sdb
want "$TMP/out" '[.recommendations[] | select(.setting // "" | startswith("mkfs."))] | length' 0 "md member mkfs"
echo "ok"
