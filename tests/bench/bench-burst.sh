#!/bin/bash
# Burst versus sustained on a real run: sequential writes to ext4 on a loop device, from a cgroup whose
# blkio throttle (cgroup v1 blkio.throttle.write_bps_device) starts once the test is writing: the
# first part fast, the rest at the throttle's rate. The test keeps both (burst {burst_bytes,
# burst_rate, sustained_rate}) and the table says it. The detection itself, on fixed slice counts, is
# tests/bench/test_burst.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
. "$FSTUNE_SRCDIR/tests/lib/bench.sh"
private_mount_ns "$@"
require_loop
require_cmd jq mkfs.ext4 lsblk
blkio_throttle_cgroup write_bps_device

RATE=$((20 * 1024 * 1024))
SPAN=$((32 * 1024 * 1024))
make_image "$TMP/img" 512M
dev=$(attach_loop "$TMP/img")
mkfs.ext4 -q -F "$dev"
mnt=$(mount_tmp "$dev")
devno=$(lsblk -dno MAJ:MIN "$dev" | tr -d ' ')

# written: sectors the loop device has written so far
written() { awk '{print $7}' "/sys/block/${dev#/dev/}/stat"; }

# run FORMAT: the test in the cgroup; the throttle starts after the layout and 64 MiB more
run() {
	local st=0 pid start
	echo "$devno 0" >"$cg/blkio.throttle.write_bps_device" 2>/dev/null || true
	start=$(written)
	(
		echo "$BASHPID" >"$cg/cgroup.procs"
		exec env FSTUNE_TEST_SCALE=1 "$FSTUNE" bench --format "$1" --tests seq_write_1m --runtime 3 --warmup 0.1 \
			--size "$SPAN" --busy-check 0 "$mnt" >"$TMP/out" 2>"$TMP/err"
	) &
	pid=$!
	for ((i = 0; i < 600; i++)); do
		[ $(($(written) - start)) -ge $(((SPAN + 64 * 1024 * 1024) / 512)) ] && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.02
	done
	echo "$devno $RATE" >"$cg/blkio.throttle.write_bps_device"
	wait "$pid" || st=$?
	assert_eq "$st" 0 "the throttled run"
}

run json
jq -e --argjson r "$RATE" '.bench.seq_write_1m | .burst.sustained_rate > 0.7 * $r and .burst.sustained_rate < 1.3 * $r and
	.burst.burst_rate > 3 * .burst.sustained_rate and .burst.burst_bytes >= 32 * 1048576 and
	.burst.burst_bytes < .bytes_written' "$TMP/out" >/dev/null ||
	fail "no burst at the throttle's rate: $(jq -c '.bench.seq_write_1m | {bw_bytes_per_s, burst, bytes_written}' "$TMP/out")"
grep -q 'seq_write_1m: burst: .* for the first .*, then 2[0-9.]* MB/s' "$TMP/err" || fail "no note: $(cat "$TMP/err")"

run text
grep -Eq '^seq_write_1m .* yes( cache\?)? burst$' "$TMP/out" || fail "table row: $(cat "$TMP/out")"
grep -Eq '^burst seq_write_1m: .* for the first .*, then 2[0-9.]* MB/s sustained$' "$TMP/out" || fail "table note: $(cat "$TMP/out")"
bench_no_scratch "$mnt"
exit 0
