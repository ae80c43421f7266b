#!/bin/bash
# `fstune probe` on real loop devices: 4096-byte sectors, direct I/O on and off, a loop-mounted
# ext4 probed through a directory, the image file itself, and a tmpfs.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
private_mount_ns "$@"
require_loop
require_cmd jq mkfs.ext4 mount partx
host_sysctl_lock

jq_eq() { assert_eq "$(jq -r "$2" "$1")" "$3" "$4: $2"; }

# A loop device with 4096-byte logical sectors reports 4096/4096 (a 512-byte file system would not).
make_image "$TMP/sec4k.img" 64M
dev=$(attach_loop "$TMP/sec4k.img" --direct-io=on --sector-size 4096)
name=${dev#/dev/}
run_status 0 "$FSTUNE" probe --json "$dev"
cp "$TMP/out" "$TMP/sec4k.json"
jq_eq "$TMP/sec4k.json" .device.name "$name" "4k loop"
jq_eq "$TMP/sec4k.json" .device.path "$dev" "4k loop"
jq_eq "$TMP/sec4k.json" .device.transport loop "4k loop"
jq_eq "$TMP/sec4k.json" .device.logical_block_size 4096 "4k loop"
jq_eq "$TMP/sec4k.json" .device.physical_block_size 4096 "4k loop"
jq_eq "$TMP/sec4k.json" .device.size_bytes $((64 * 1024 * 1024)) "4k loop"
jq_eq "$TMP/sec4k.json" .device.loop_direct_io true "4k loop"
jq_eq "$TMP/sec4k.json" .device.loop_backing_file "$TMP/sec4k.img" "4k loop"
jq_eq "$TMP/sec4k.json" '.unavailable["device.model"].status' not_applicable "4k loop"
jq_eq "$TMP/sec4k.json" '.vm.bdi.max_ratio | type' number "4k loop"

# The same device as lsblk sees it.
if command -v lsblk >/dev/null 2>&1; then
	# lsblk's column of each device key, one column a call: an empty one cannot shift the others.
	for pair in LOG-SEC:logical_block_size PHY-SEC:physical_block_size MIN-IO:minimum_io_size \
		OPT-IO:optimal_io_size ALIGNMENT:alignment_offset RA:read_ahead_kb ROTA:rotational \
		SCHED:scheduler RQ-SIZE:nr_requests DISC-GRAN:discard_granularity SIZE:size_bytes; do
		col=${pair%%:*}
		read -r val < <(lsblk -b -dn -o "$col" "$dev")
		[ "$col" != ROTA ] || val=$([ "$val" = 1 ] && echo true || echo false)
		jq_eq "$TMP/sec4k.json" ".device.${pair#*:}" "$val" "lsblk $col"
	done
fi

# Direct I/O off is reported as such.
make_image "$TMP/buffered.img" 16M
bdev=$(attach_loop "$TMP/buffered.img" --direct-io=off)
run_status 0 "$FSTUNE" probe --json "$bdev"
jq_eq "$TMP/out" .device.loop_direct_io false "buffered loop"
jq_eq "$TMP/out" .device.logical_block_size 512 "buffered loop"

# A loop-mounted ext4, probed through a directory inside it.
make_image "$TMP/ext4.img" 128M
edev=$(attach_loop "$TMP/ext4.img" --direct-io=on)
mkfs.ext4 -q -F "$edev"
mnt=$(mount_tmp "$edev")
mkdir -p "$mnt/a/b"
run_status 0 "$FSTUNE" probe --json "$mnt/a/b"
cp "$TMP/out" "$TMP/dir.json"
jq_eq "$TMP/dir.json" .device.name "${edev#/dev/}" "ext4 dir"
jq_eq "$TMP/dir.json" .device.disk "${edev#/dev/}" "ext4 dir"
jq_eq "$TMP/dir.json" .device.transport loop "ext4 dir"
jq_eq "$TMP/dir.json" .device.loop_direct_io true "ext4 dir"
jq_eq "$TMP/dir.json" .device.size_bytes $((128 * 1024 * 1024)) "ext4 dir"
jq_eq "$TMP/dir.json" .device.logical_block_size 512 "ext4 dir"
jq_eq "$TMP/dir.json" '.unavailable["device.partition_start_bytes"].status' not_applicable "ext4 dir"
jq_eq "$TMP/dir.json" '.sources["device.transport"]' sysfs "ext4 dir"
# The same through the block device node finds the same device.
run_status 0 "$FSTUNE" probe --json "$edev"
jq_eq "$TMP/out" .device.name "${edev#/dev/}" "ext4 node"

# The host and writeback branches match this machine.
jq_eq "$TMP/dir.json" .host.kernel "$(uname -r)" "host"
jq_eq "$TMP/dir.json" .host.page_size_bytes "$(getconf PAGESIZE)" "host"
jq_eq "$TMP/dir.json" .host.cpus "$(getconf _NPROCESSORS_ONLN)" "host"
jq_eq "$TMP/dir.json" .vm.dirty_ratio "$(cat /proc/sys/vm/dirty_ratio)" "vm"
jq_eq "$TMP/dir.json" .vm.dirty_expire_centisecs "$(cat /proc/sys/vm/dirty_expire_centisecs)" "vm"
jq_eq "$TMP/dir.json" .vm.bdi.max_ratio "$(cat "/sys/class/block/${edev#/dev/}/bdi/max_ratio")" "bdi"
mem=$(awk '/^MemTotal:/ {printf "%.0f", $2 * 1024}' /proc/meminfo)
jq_eq "$TMP/dir.json" .host.mem_total_bytes "$mem" "host"
# MemAvailable moves from moment to moment: present, from procfs, and no more than MemTotal.
jq -e --argjson m "$mem" '.host.mem_available_bytes > 0 and .host.mem_available_bytes <= $m' \
	"$TMP/dir.json" >/dev/null || fail "host.mem_available_bytes: $(jq -c .host "$TMP/dir.json")"

# A partition: its own size and start, the whole disk's queue. The MBR is written by hand (one
# Linux partition at sector 2048, 65536 sectors) and added with partx, which works even where the
# kernel does not parse partition tables itself.
make_image "$TMP/parted.img" 64M
printf '\x00\x00\x00\x00\x83\x00\x00\x00\x00\x08\x00\x00\x00\x00\x01\x00' |
	dd of="$TMP/parted.img" bs=1 seek=446 conv=notrunc status=none
printf '\x55\xaa' | dd of="$TMP/parted.img" bs=1 seek=510 conv=notrunc status=none
pdev=$(attach_loop "$TMP/parted.img" --direct-io=on)
partx -a "$pdev"
on_exit "partx -d $pdev"
for _ in $(seq 50); do [ -b "${pdev}p1" ] && break; sleep 0.1; done
[ -b "${pdev}p1" ] || fail "partx added no ${pdev}p1"
run_status 0 "$FSTUNE" probe --json "${pdev}p1"
jq_eq "$TMP/out" .device.name "${pdev#/dev/}p1" "partition"
jq_eq "$TMP/out" .device.disk "${pdev#/dev/}" "partition"
jq_eq "$TMP/out" .device.size_bytes $((65536 * 512)) "partition"
jq_eq "$TMP/out" .device.partition_start_bytes $((2048 * 512)) "partition"
jq_eq "$TMP/out" .device.alignment_offset "$(cat "/sys/class/block/${pdev#/dev/}p1/alignment_offset")" "partition"
jq_eq "$TMP/out" .device.transport loop "partition"
jq_eq "$TMP/out" .device.loop_direct_io true "partition: the disk's loop settings"
jq_eq "$TMP/out" .device.nr_requests "$(cat "/sys/class/block/${pdev#/dev/}/queue/nr_requests")" "partition: the disk's queue"

# The image file itself: no device branch.
run_status 0 "$FSTUNE" probe --json "$TMP/ext4.img"
jq_eq "$TMP/out" '.unavailable.device.status' not_applicable "image"
jq_eq "$TMP/out" '.unavailable.device.reason' "image file" "image"

# tmpfs: the device branch is one not_applicable entry naming tmpfs; status 0.
tdir=$(mount_tmp tmpfs -t tmpfs -o size=8m)
run_status 0 "$FSTUNE" probe --json "$tdir"
jq_eq "$TMP/out" '.unavailable.device.status' not_applicable "tmpfs"
jq_eq "$TMP/out" '.unavailable.device.reason' tmpfs "tmpfs"
jq_eq "$TMP/out" '.device // "absent"' absent "tmpfs"
jq_eq "$TMP/out" '.unavailable["vm.bdi"].status' not_applicable "tmpfs"
run_status 0 "$FSTUNE" probe "$tdir"
grep -q '(not applicable: tmpfs)' "$TMP/out" || fail "tmpfs: text output does not say why"

# overlay (when the kernel has it): no block device of its own either.
mkdir -p "$TMP/ovl/lower" "$TMP/ovl/upper" "$TMP/ovl/work" "$TMP/ovl/merged"
if mount -t overlay overlay -o "lowerdir=$TMP/ovl/lower,upperdir=$TMP/ovl/upper,workdir=$TMP/ovl/work" \
	"$TMP/ovl/merged" 2>/dev/null; then
	on_exit "umount -l $TMP/ovl/merged"
	run_status 0 "$FSTUNE" probe --json "$TMP/ovl/merged"
	jq_eq "$TMP/out" '.unavailable.device.reason' overlay "overlay"
else
	echo "note: overlay not mountable here; its case is not checked" >&2
fi
exit 0
