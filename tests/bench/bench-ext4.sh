#!/bin/bash
# fstune bench on a loop-mounted ext4 (the loop device with direct I/O, 4096-byte sectors): real short
# runs pass the consistency checks with direct I/O; sizes below the DIO alignment are skipped with the
# reason; naming the mounted device benchmarks its mount point and says so; the busy check runs.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
. "$FSTUNE_SRCDIR/tests/lib/bench.sh"
private_mount_ns "$@"
require_loop
require_cmd mkfs.ext4 jq

make_image "$TMP/img" 128M
dev=$(attach_loop "$TMP/img" --sector-size 4096)
mkfs.ext4 -q -F "$dev"
mnt=$(mount_tmp "$dev")

tests=rand_read_4k_qd1,rand_read_4k_qd32,rand_read_1k_qd1,rand_read_64k_qd1,rand_write_4k_qd32,seq_write_1m,fsync_4k_overwrite,fsync_4k_append
bench_run_consistent "rand_read_4k_qd1 rand_read_4k_qd32 rand_read_64k_qd1 rand_write_4k_qd32 seq_write_1m fsync_4k_overwrite fsync_4k_append" \
	"$FSTUNE" bench --json --tests "$tests" --size 32M --runtime 0.3 --warmup 0.1 --busy-check 0.2 "$mnt"
cp "$TMP/out" "$TMP/r.json"
for t in rand_read_4k_qd1 rand_read_4k_qd32 rand_read_64k_qd1 rand_write_4k_qd32 seq_write_1m fsync_4k_overwrite fsync_4k_append; do
	bench_assert_consistent "$TMP/r.json" "$t" 0.3
	assert_eq "$(json_get "$TMP/r.json" ".bench.$t.direct")" yes "$t direct"
done
# 1 KiB cannot be issued with 4096-byte direct-I/O alignment: absent, with the reason
jq -e '.bench.rand_read_1k_qd1 == null' "$TMP/r.json" >/dev/null || fail "1k ran under 4k alignment"
json_get "$TMP/r.json" '.unavailable["bench.rand_read_1k_qd1"].reason' | grep -q '4096-byte alignment' ||
	fail "1k: no alignment reason"
assert_eq "$(json_get "$TMP/r.json" '.bench.rand_read_4k_qd32.engine')" io_uring "QD32 engine"
jq -e '.bench.busy_check.busy | type == "boolean"' "$TMP/r.json" >/dev/null || fail "busy check did not run"
jq -e '.bench.busy_check.busy_share >= 0 and .bench.busy_check.busy_share <= 1' "$TMP/r.json" >/dev/null || fail "busy share"
assert_eq "$(json_get "$TMP/r.json" '.bench.busy_check.device')" "${dev#/dev/}" "busy check device"
# the results are facts: `report --facts` reads them back beside the probed ones (alone, with no
# device or filesystem to judge, they are status 2)
"$FSTUNE" probe --json "$mnt" >"$TMP/p.json" || fail "probe --json $mnt failed"
jq -s '.[0] * .[1]' "$TMP/p.json" "$TMP/r.json" >"$TMP/pr.json" || fail "cannot merge the probe and the results"
run_status 0 "$FSTUNE" report --no-system-rules --facts "$TMP/pr.json" --format json
jq -e '.facts.bench.rand_read_4k_qd1.iops > 0' "$TMP/out" >/dev/null || fail "report --facts lost the results"
run_status 2 "$FSTUNE" report --no-system-rules --facts "$TMP/r.json" --format json
grep -q "nothing could be judged" "$TMP/err" || fail "bench results alone: no 'nothing could be judged'"
bench_no_scratch "$mnt"

# the mounted device itself: its mount point is benchmarked, and the user is told
bench_run_consistent rand_read_4k_qd1 "$FSTUNE" bench --json --tests rand_read_4k_qd1 --size 16M "${BENCH_SHORT[@]}" "$dev"
grep -q "is mounted on $mnt: benchmarking the filesystem there" "$TMP/err" || fail "no mount-point note: $(cat "$TMP/err")"
bench_assert_consistent "$TMP/out" rand_read_4k_qd1 0.3
bench_no_scratch "$mnt"
exit 0
