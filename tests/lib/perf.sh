# Shared by the perf scripts that measure on a filesystem of their own (sourced, not run).

# loop_ext4 IMG MNT SIZE [mkfs.ext4 options...]: a new ext4 on a sparse image of SIZE, mounted on MNT
# (which must exist) through a loop device with direct I/O, without which the benchmark would measure
# the page cache under the loop device; sets loopdev for the caller's cleanup
loop_ext4() {
	local img=$1 mnt=$2 size=$3
	shift 3
	truncate -s "$size" "$img"
	loopdev=$(losetup --find --show --direct-io=on "$img")
	mkfs.ext4 -q -F "$@" "$loopdev"
	mount "$loopdev" "$mnt"
}
