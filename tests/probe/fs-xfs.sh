#!/bin/bash
# XFS made by the real mkfs.xfs (1 GiB sparse images: it refuses under 300 MB, and under ~520 MiB
# with a stripe), probed as image files and mounted; every mkfs parameter is asserted, and the
# geometry is checked against xfs_db's reading of the same superblock.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
. "$FSTUNE_SRCDIR/tests/lib/fs.sh"
private_mount_ns "$@"
require_cmd mkfs.xfs xfs_db jq

# sb FIELD IMAGE: the superblock field as xfs_db prints it.
sb() { xfs_db -r -c 'sb 0' -c "print $1" "$2" | sed -n "s/^$1 = //p"; }

img=$TMP/stripe.img
make_image "$img" 1G
mkfs.xfs -q -f -b size=2048 -d su=64k,sw=4 -L xfs-lbl "$img" >/dev/null || fail "mkfs.xfs failed"
probe_json "$TMP/stripe.json" "$img"
j=$TMP/stripe.json
want "$j" .fs.type '"xfs"'
want "$j" .fs.block_size 2048
want "$j" .fs.fragment_size 2048
want "$j" '.sources["fs.block_size"]' '"xfs"'
want "$j" .fs.stripe_unit_bytes 65536
want "$j" .fs.stripe_width_bytes $((4 * 65536))
want "$j" .fs.label '"xfs-lbl"'
want "$j" .fs.uuid "\"$(sb uuid "$img")\""
want "$j" .fs.sector_size "$(sb sectsize "$img")"
want "$j" .fs.inode_size "$(sb inodesize "$img")"
want "$j" .fs.ag_count "$(sb agcount "$img")"
want "$j" .fs.log_size_bytes $(($(sb logblocks "$img") * 2048))
want "$j" .fs.size_bytes $(($(sb dblocks "$img") * 2048))
want "$j" .fs.version '"5"'
want "$j" '.fs.features | index("crc") != null' true
want "$j" '.unavailable["fs.mount_point"].status' '"not_applicable"'

# 4 KiB sectors and 1 KiB inodes, no stripe.
img2=$TMP/sect.img
make_image "$img2" 1G
mkfs.xfs -q -f -s size=4096 -i size=1024 "$img2" >/dev/null || fail "mkfs.xfs -s size=4096 failed"
probe_json "$TMP/sect.json" "$img2"
want "$TMP/sect.json" .fs.block_size 4096
want "$TMP/sect.json" .fs.sector_size 4096
want "$TMP/sect.json" .fs.inode_size 1024
want "$TMP/sect.json" .fs.stripe_unit_bytes 0
want "$TMP/sect.json" .fs.stripe_width_bytes 0
want "$TMP/sect.json" .fs.ag_count "$(sb agcount "$img2")"

# Mounted, through its directory.
probe_mounted xfs "$img"
want "$j" .fs.block_size 2048
want "$j" .fs.stripe_width_bytes $((4 * 65536))
want "$j" '.fs.super_options | index("sunit=128") != null' true
want "$j" .fs.free_bytes "$(($(stat -f -c '%a * %S' "$mnt")))"
want "$j" .fs.inode_count "$(stat -f -c %c "$mnt")"
echo "ok"
