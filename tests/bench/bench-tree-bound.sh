#!/bin/bash
# The tree test's read phase stops at the time bound: ext4 on a loop device whose reads a cgroup v1
# blkio throttle (blkio.throttle.read_iops_device) holds to 25 a second, so reading back 400 small
# files cold would take 16 s; the read ends after the 0.5 s bound with fewer files read than written,
# says so in a note, and what it read is checked against what those directories were written with.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
. "$FSTUNE_SRCDIR/tests/lib/bench.sh"
private_mount_ns "$@"
require_loop
require_cmd jq mkfs.ext4 lsblk
blkio_throttle_cgroup read_iops_device

make_image "$TMP/img" 256M
dev=$(attach_loop "$TMP/img")
mkfs.ext4 -q -F "$dev"
mnt=$(mount_tmp "$dev")
echo "$(lsblk -dno MAJ:MIN "$dev" | tr -d ' ') 25" >"$cg/blkio.throttle.read_iops_device"

st=0
(
	echo "$BASHPID" >"$cg/cgroup.procs"
	exec "$FSTUNE" bench --json --tests tree --runtime 0.5 --busy-check 0 --files 400 --files-per-dir 10 \
		--file-size 100-3000 "$mnt" >"$TMP/out" 2>"$TMP/err"
) || st=$?
assert_eq "$st" 0 "the throttled tree run"
jq -e '.bench.tree | .checks_ok == true and .files_read > 0 and .files_read < .files and
	.read_files_per_s > 0' "$TMP/out" >/dev/null || fail "the read did not stop at the bound: $(jq -c .bench.tree "$TMP/out")"
grep -Eq 'tree: reading reached the time bound after [0-9]+ of [0-9]+ directories' "$TMP/err" ||
	fail "no note: $(cat "$TMP/err")"
bench_no_scratch "$mnt"
exit 0
