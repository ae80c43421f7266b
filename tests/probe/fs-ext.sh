#!/bin/bash
# ext2/ext4 made by the real mke2fs with each parameter the probes must report, probed as image files
# (fstune probe IMG) and one mounted through its directory. Every mkfs parameter is asserted.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
. "$FSTUNE_SRCDIR/tests/lib/fs.sh"
private_mount_ns "$@"
require_cmd mkfs.ext2 mkfs.ext4 dumpe2fs jq

n=0
# mk NAME MKFS-ARGS...: a 64 MiB sparse image with that filesystem, probed into $TMP/NAME.json.
mk() {
	local name=$1
	shift
	make_image "$TMP/$name.img" 64M
	"$@" -q -F "$TMP/$name.img" >/dev/null 2>&1 || fail "$* failed"
	probe_json "$TMP/$name.json" "$TMP/$name.img"
	n=$((n + 1))
}

# Block sizes, ext2 and ext4.
for fs in ext2 ext4; do
	for bs in 1024 2048 4096; do
		j=$TMP/$fs-$bs.json
		mk "$fs-$bs" "mkfs.$fs" -b "$bs"
		want "$j" .fs.type "\"$fs\""
		want "$j" .fs.block_size "$bs"
		want "$j" .fs.fragment_size "$bs"
		want "$j" '.sources["fs.block_size"]' '"ext2fs"'
		want "$j" .fs.size_bytes $((64 * 1024 * 1024))
		want "$j" .fs.inode_count "$(dumpe2fs_field "$TMP/$fs-$bs.img" "Inode count")"
		want "$j" .fs.inodes_free "$(dumpe2fs_field "$TMP/$fs-$bs.img" "Free inodes")"
		want "$j" .fs.reserved_blocks "$(dumpe2fs_field "$TMP/$fs-$bs.img" "Reserved block count")"
		want "$j" .fs.reserved_bytes $(($(dumpe2fs_field "$TMP/$fs-$bs.img" "Reserved block count") * bs))
		want "$j" .fs.stripe_unit_bytes 0
		want "$j" .fs.uuid "\"$(dumpe2fs_field "$TMP/$fs-$bs.img" "Filesystem UUID")\""
		want "$j" '.unavailable["fs.mount_point"].status' '"not_applicable"'
		want "$j" '.unavailable.device.status' '"not_applicable"'
		has_feature "$j" dir_index
		if [ "$fs" = ext2 ]; then
			lacks_feature "$j" has_journal
			lacks_feature "$j" extent
			want "$j" '.unavailable["fs.log_size_bytes"].status' '"not_applicable"'
		else
			has_feature "$j" has_journal
			has_feature "$j" extent
			has_feature "$j" flex_bg
			want "$j" '.fs.log_size_bytes > 0' true
		fi
	done
done

mk nodirindex mkfs.ext4 -O ^dir_index
lacks_feature "$TMP/nodirindex.json" dir_index
has_feature "$TMP/nodirindex.json" has_journal

mk inline mkfs.ext4 -O inline_data
has_feature "$TMP/inline.json" inline_data

mk inode512 mkfs.ext4 -I 512
want "$TMP/inode512.json" .fs.inode_size 512

# -i 8192 on 64 MiB: one inode per 8 KiB.
mk ratio mkfs.ext4 -b 4096 -i 8192
want "$TMP/ratio.json" .fs.inode_count $((64 * 1024 * 1024 / 8192))
want "$TMP/ratio.json" .fs.inode_size 256

mk bigalloc mkfs.ext4 -b 4096 -O bigalloc -C 65536
want "$TMP/bigalloc.json" .fs.block_size 4096
want "$TMP/bigalloc.json" .fs.fragment_size 65536
has_feature "$TMP/bigalloc.json" bigalloc

mk stripe mkfs.ext4 -b 4096 -E stride=16,stripe_width=64
want "$TMP/stripe.json" .fs.stripe_unit_bytes $((16 * 4096))
want "$TMP/stripe.json" .fs.stripe_width_bytes $((64 * 4096))

mk misc mkfs.ext4 -b 4096 -m 10 -J size=4 -L fstune-lbl -U 0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0
want "$TMP/misc.json" .fs.label '"fstune-lbl"'
want "$TMP/misc.json" .fs.uuid '"0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"'
want "$TMP/misc.json" .fs.log_size_bytes $((4 * 1024 * 1024))
want "$TMP/misc.json" .fs.reserved_blocks $((16384 / 10))
want "$TMP/misc.json" .fs.version '"1.0"'

# One mounted, through its directory: the superblock facts plus statfs and mountinfo.
probe_mounted ext4 "$TMP/stripe.img" -o noatime
want "$j" .fs.block_size 4096
want "$j" .fs.stripe_width_bytes $((64 * 4096))
want "$j" '.fs.mount_options | index("noatime") != null' true
want "$j" '.fs.super_options | index("stripe=64") != null' true
want "$j" '.sources["fs.mount_options"]' '"mountinfo"'
want "$j" .fs.free_bytes "$(($(stat -f -c '%a * %S' "$mnt")))"
want "$j" .fs.inodes_free "$(stat -f -c %d "$mnt")"
want "$j" '.sources["fs.free_bytes"]' '"statfs"'
want "$j" '.sources["fs.inodes_free"]' '"statfs"'
want "$j" '.fs.fstrim_timer | type' '"boolean"'
echo "ok: $n images and one mount"
