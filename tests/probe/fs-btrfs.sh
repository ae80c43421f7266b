#!/bin/bash
# btrfs with a non-default node size, probed as an image (superblock) and mounted through its
# directory (ioctls and /sys/fs/btrfs/<fsid>/devices/, where st_dev names no block device).
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
. "$FSTUNE_SRCDIR/tests/lib/fs.sh"
private_mount_ns "$@"
require_cmd mkfs.btrfs jq

img=$TMP/btrfs.img
make_image "$img" 256M
uuid=0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d
mkfs.btrfs -q -f -n 32768 -s 4096 -L btr-lbl -U "$uuid" "$img" >/dev/null 2>&1 || fail "mkfs.btrfs failed"
probe_json "$TMP/image.json" "$img"
j=$TMP/image.json
want "$j" .fs.type '"btrfs"'
want "$j" .fs.node_size 32768
want "$j" .fs.block_size 4096
want "$j" '.sources["fs.node_size"]' '"btrfs"'
want "$j" .fs.size_bytes $((256 * 1024 * 1024))
want "$j" .fs.label '"btr-lbl"'
want "$j" .fs.uuid "\"$uuid\""
want "$j" .fs.device_count 1
want "$j" '.unavailable["fs.devices"].status' '"not_applicable"'

probe_mounted btrfs "$img"
want "$j" .fs.node_size 32768
want "$j" .fs.block_size 4096
want "$j" .fs.uuid "\"$uuid\""
want "$j" .fs.devices "[\"${dev#/dev/}\"]"
want "$j" '.unavailable["fs.inode_count"].status' '"not_applicable"'
want "$j" '.sources["fs.devices"]' '"sysfs"'

# Two devices, mirrored: every device is listed, and the superblock of one counts both.
make_image "$TMP/m1.img" 256M
make_image "$TMP/m2.img" 256M
d1=$(attach_loop "$TMP/m1.img")
d2=$(attach_loop "$TMP/m2.img")
mkfs.btrfs -q -f -m raid1 -d raid1 "$d1" "$d2" >/dev/null 2>&1 || fail "mkfs.btrfs raid1 failed"
probe_json "$TMP/one.json" "$TMP/m2.img"
want "$TMP/one.json" .fs.device_count 2
want "$TMP/one.json" '.unavailable["fs.devices"].status' '"not_applicable"'
mnt=$(mount_tmp "$d1")
probe_json "$TMP/raid1.json" "$mnt"
want "$TMP/raid1.json" .fs.device_count 2
want "$TMP/raid1.json" .fs.devices "$(jq -cn --arg a "${d1#/dev/}" --arg b "${d2#/dev/}" '[$a, $b] | sort')"
want "$TMP/raid1.json" '.device.name as $n | .fs.devices | index($n) != null' true
echo "ok"
