#!/bin/bash
# util-linux's own captures (../shared/fixtures/lsblk-dumps/*.tar.xz), unpacked here exactly as
# shipped: no sys/class/block, only sys/block and sys/dev/block. Every device probes, under lsblk's
# name, with its size and lsblk's mount point.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
. "$FSTUNE_SRCDIR/tests/lib/fs.sh"
require_cmd jq tar xz

# CI keeps a copy of shared/ beside the clone, as the worktrees here have it.
DUMPS=${FSTUNE_LSBLK_DUMPS:-$FSTUNE_SRCDIR/../shared/fixtures/lsblk-dumps}
[ -f "$DUMPS/simple-nvme.tar.xz" ] || skip "no util-linux captures in $DUMPS (set FSTUNE_LSBLK_DUMPS)"
total=0
for tarball in "$DUMPS"/*.tar.xz; do
	cap=$(basename "$tarball" .tar.xz)
	mkdir -p "$TMP/$cap"
	tar -xJf "$tarball" -C "$TMP/$cap"
	root=$TMP/$cap/$cap
	[ ! -e "$root/sys/class/block" ] || fail "$cap: the capture has sys/class/block; this test wants one without"
	n=0
	for link in "$root"/sys/dev/block/*; do
		name=$(basename "$(readlink "$link")")
		probe_json "$TMP/d.json" "$name" --sysroot "$root"
		want "$TMP/d.json" .device.name "\"$name\"" "$cap $name"
		want "$TMP/d.json" .device.path "\"/dev/$name\"" "$cap $name"
		want "$TMP/d.json" .device.size_bytes "$(($(cat "$link/size") * 512))" "$cap $name"
		# lsblk's mount point for the same device (its basic answer: KNAME and MOUNTPOINT)
		mp=$(awk -v k="$name" 'NR > 1 && $2 == k { print ($7 == "" ? "null" : "\"" $7 "\""); exit }' \
			"$root/lsblk-$cap-basic")
		[ -n "$mp" ] || fail "$cap: lsblk does not list $name"
		want "$TMP/d.json" '.fs.mount_point // null' "$mp" "$cap $name mount point"
		n=$((n + 1))
	done
	[ "$n" -gt 0 ] || fail "$cap: no device in sys/dev/block"
	total=$((total + n))
	run_status 2 "$FSTUNE" probe --sysroot "$root" nosuchdev
	grep -q "sys/dev/block" "$TMP/err" || fail "$cap: the error does not say where devices were looked for"
done
echo "util-linux captures: $total devices probed"

echo "ok"
