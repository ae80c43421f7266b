#!/bin/bash
# A run the CPU limits says so: 4 KiB reads at QD32 from ext4 on a zram disk (memory: every I/O is a
# decompression on the submitting thread) are cpu_bound, with the figures in the reason, in the JSON
# and the table. Where the kernel has no zram (no /sys/class/zram-control), a tmpfs is the nearest
# real case: the same reads are page-cache copies on the same thread.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
. "$FSTUNE_SRCDIR/tests/lib/bench.sh"
private_mount_ns "$@"
require_root
require_cmd jq mkfs.ext4

if [ -w /sys/class/zram-control/hot_add ] && id=$(cat /sys/class/zram-control/hot_add 2>/dev/null); then
	on_exit "echo $id >/sys/class/zram-control/hot_remove"
	echo 600M >"/sys/block/zram$id/disksize" || fail "zram$id: cannot size it"
	mkfs.ext4 -q -F "/dev/zram$id"
	mnt=$(mount_tmp "/dev/zram$id")
	kind="zram$id"
else
	echo "note: no zram in this kernel: a tmpfs stands in for it" >&2
	mnt=$(mount_tmp tmpfs -t tmpfs -o size=600m)
	kind=tmpfs
fi

run_status 0 env FSTUNE_TEST_SCALE=1 "$FSTUNE" bench --json --tests rand_read_4k_qd32 --size 256M --runtime 0.5 \
	--warmup 0.1 --busy-check 0 "$mnt"
jq -e '.bench.rand_read_4k_qd32 | .direct == "memory" and .cpu_bound == true and
	(.cpu_bound_reason | test("^the thread that submitted I/O was on a CPU [0-9]+% of the run and waiting for one [0-9]+%, never for the device \\([0-9.]+ us of CPU per I/O at [0-9]+ IOPS, [0-9.]+ CPUs of [0-9]+.*\\): the CPU, not the device, set this rate$"))' \
	"$TMP/out" >/dev/null || fail "$kind: not cpu_bound: $(jq -c .bench.rand_read_4k_qd32 "$TMP/out")"
grep -q 'rand_read_4k_qd32: cpu_bound: the thread that submitted I/O' "$TMP/err" || fail "$kind: no note: $(cat "$TMP/err")"

run_status 0 env FSTUNE_TEST_SCALE=1 "$FSTUNE" bench --tests rand_read_4k_qd32 --size 256M --runtime 0.5 \
	--warmup 0.1 --busy-check 0 "$mnt"
grep -Eq '^rand_read_4k_qd32 .* memory cpu-bound$' "$TMP/out" || fail "$kind: table row: $(cat "$TMP/out")"
grep -q '^cpu-bound rand_read_4k_qd32: the thread that submitted I/O' "$TMP/out" || fail "$kind: table note"
bench_no_scratch "$mnt"
exit 0
