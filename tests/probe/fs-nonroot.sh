#!/bin/bash
# The filesystem probes without root, on a loop device: what needs the raw device is needs_root with
# the reason, what statfs and mountinfo give is still there, and the status stays 0.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
. "$FSTUNE_SRCDIR/tests/lib/fs.sh"
private_mount_ns "$@"
require_loop
require_cmd jq mkfs.ext4
require_nobody

make_image "$TMP/ext4.img" 64M
mkfs.ext4 -q -F -b 2048 -I 512 "$TMP/ext4.img"
dev=$(attach_loop "$TMP/ext4.img")

# The unmounted device: nobody cannot open it, so not even the type is known.
run_status 0 as_nobody "$FSTUNE" probe "$dev" --format json
j=$TMP/dev.json
cp "$TMP/out" "$j"
want "$j" '.unavailable["fs.type"].status' '"needs_root"'
want "$j" '.unavailable["fs.type"].reason | test("Permission denied")' true
want "$j" '.fs.type // null' null
want "$j" .device.name "\"${dev#/dev/}\""

# Root reads the unmounted device itself.
probe_json "$TMP/dev-root.json" "$dev"
want "$TMP/dev-root.json" .fs.type '"ext4"'
want "$TMP/dev-root.json" .fs.block_size 2048
want "$TMP/dev-root.json" .fs.inode_size 512
want "$TMP/dev-root.json" '.unavailable["fs.mount_point"].status' '"not_applicable"'
want "$TMP/dev-root.json" .device.logical_block_size 512

# Mounted: type and options from mountinfo, sizes from statfs, the superblock details need root.
mnt=$(mount_tmp "$dev")
chmod 0755 "$mnt"
run_status 0 as_nobody "$FSTUNE" probe "$mnt" --format json
j=$TMP/mnt.json
cp "$TMP/out" "$j"
want "$j" .fs.type '"ext4"'
want "$j" '.sources["fs.type"]' '"mountinfo"'
want "$j" .fs.block_size 2048
want "$j" '.sources["fs.block_size"]' '"statfs"'
want "$j" .fs.mount_point "\"$mnt\""
want "$j" .fs.free_bytes "$(($(stat -f -c '%a * %S' "$mnt")))"
for key in inode_size features stripe_width_bytes log_size_bytes reserved_blocks; do
	want "$j" ".unavailable[\"fs.$key\"].status" '"needs_root"'
	want "$j" ".unavailable[\"fs.$key\"].reason | test(\"Permission denied\")" true
done
want "$j" '[.unavailable | to_entries[] | select(.value.status == "failed")] | length' 0

# As root the same mount gives the superblock's answers.
probe_json "$TMP/root.json" "$mnt"
want "$TMP/root.json" .fs.inode_size 512
want "$TMP/root.json" '.sources["fs.block_size"]' '"ext2fs"'
echo "ok"
