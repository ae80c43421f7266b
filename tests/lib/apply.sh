# Shared set-up of the tests of fstune apply/undo/history (tests/apply/apply-*.sh): a loop-mounted ext4
# whose settings the test rules (tests/apply/rules) and the shipped ones recommend changing, and a
# scratch --root with an fstab entry for the mount. Source after tests/lib/common.sh and
# private_mount_ns. Every value the tests may change on the loop device is put back on exit.
# shellcheck shell=bash
export FSTUNE_RULES_PATH=
RULES=(--no-system-rules --rules-dir "$FSTUNE_SRCDIR/tests/apply/rules")
# A workload for which readahead.lower_for_random asks for 128 KiB (random access through mmap).
WORKLOAD=(--access random --io-mode mmap --io-size 4096)

# apply_setup: $dev, $disk, $mnt (ext4 mounted strictatime, so mount.strictatime recommends noatime),
# read-ahead 1024 KiB, and $ROOT with etc/fstab naming the mount.
apply_setup() {
	require_loop
	require_cmd mkfs.ext4 jq md5sum
	make_image "$TMP/img" 64M
	dev=$(attach_loop "$TMP/img")
	disk=${dev#/dev/}
	mkfs.ext4 -q -F "$dev"
	mnt=$(mount_tmp "$dev" -o strictatime)
	local q=/sys/block/$disk
	on_exit "echo $(cat "$q/queue/read_ahead_kb") > $q/queue/read_ahead_kb"
	on_exit "echo $(cat "$q/bdi/max_ratio") > $q/bdi/max_ratio"
	on_exit "echo $(cat "$q/bdi/strict_limit") > $q/bdi/strict_limit"
	echo 1024 >"$q/queue/read_ahead_kb"
	ROOT=$TMP/root
	mkdir -p "$ROOT/etc"
	printf '# /etc/fstab of a test\n/dev/vda1 / ext4 defaults 0 1\n%s %s ext4 strictatime,nofail 0 2\n' \
		"$dev" "$mnt" >"$ROOT/etc/fstab"
}

# The loop device's values the tests change, on one line.
values() {
	local q=/sys/block/$disk
	echo "ra=$(cat "$q/queue/read_ahead_kb") max_ratio=$(cat "$q/bdi/max_ratio") strict=$(cat "$q/bdi/strict_limit")" \
		"opts=$(awk -v m="$mnt" '$2 == m { print $4 }' /proc/self/mounts)"
}

# Checksums of every file and the list of directories under $ROOT, fstune's journals left out.
tree_sum() {
	(cd "$ROOT" && find . -path ./var -prune -o -type d -print | sort &&
		find . -path ./var -prune -o -type f -print0 | sort -z | xargs -0 -r md5sum)
}

# The newest journal under $ROOT.
last_journal() { ls "$ROOT"/var/lib/fstune/journal/*.json | tail -n 1; }
