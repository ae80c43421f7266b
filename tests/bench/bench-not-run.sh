#!/bin/bash
# After a failed test the rest are still there: with ENOSPC at the third test (another writer fills a
# tmpfs while the append test runs) the two after it are listed as not_run, naming it, in the JSON and
# in the table, status 3, nothing left behind; a layout that fails (an ext4 whose loop device's backing
# file sits on a full tmpfs: EIO) leaves a failure record on the test that needed it and the rest not_run.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
. "$FSTUNE_SRCDIR/tests/lib/bench.sh"
private_mount_ns "$@"
require_loop
require_cmd jq dd timeout mkfs.ext4

TESTS=rand_read_4k_qd1,seq_read_1m,fsync_4k_append,smallfile,metadata
full=$(mount_tmp tmpfs -t tmpfs -o size=64m)

# fill_at_append FORMAT: runs the five tests, fills $full once the append test (the third) has its
# file, and leaves the output in $TMP/out; status 3
fill_at_append() {
	local st=0 pid
	FSTUNE_TEST_SCALE=1 "$FSTUNE" bench --format "$1" --tests "$TESTS" --runtime 2 --warmup 0.1 --busy-check 0 \
		"$full" >"$TMP/out" 2>"$TMP/err" &
	pid=$!
	wait_for_glob 30 "$full/.fstune-bench.*/append" || { kill "$pid" 2>/dev/null || true; fail "no append file: $(cat "$TMP/err")"; }
	dd if=/dev/zero of="$full/filler" bs=64k 2>/dev/null || true # until ENOSPC
	timeout 60 tail --pid="$pid" -f /dev/null || { kill "$pid" 2>/dev/null || true; fail "ENOSPC did not end the run"; }
	wait "$pid" || st=$?
	assert_eq "$st" 3 "status after ENOSPC at the third test"
	rm -f "$full/filler"
	bench_no_scratch "$full"
}

fill_at_append json
grep -q 'fsync_4k_append: write at offset .*No space left on device' "$TMP/err" || fail "ENOSPC message: $(cat "$TMP/err")"
jq -e '.bench.rand_read_4k_qd1.iops > 0 and .bench.seq_read_1m.iops > 0' "$TMP/out" >/dev/null ||
	fail "the first two tests lost: $(jq -c .bench "$TMP/out")"
jq -e '.bench.fsync_4k_append == null and .unavailable["bench.fsync_4k_append"].status == "failed"' "$TMP/out" >/dev/null ||
	fail "the third test not failed: $(jq -c '.unavailable' "$TMP/out")"
for t in smallfile metadata; do
	jq -e --arg t "$t" '.bench[$t] == null and .unavailable["bench." + $t].status == "not_run" and
		(.unavailable["bench." + $t].reason | startswith("fsync_4k_append failed before it"))' "$TMP/out" >/dev/null ||
		fail "$t not listed as not_run: $(jq -c --arg t "$t" '.unavailable["bench." + $t]' "$TMP/out")"
done

fill_at_append text
grep -Eq '^fsync_4k_append +- .*\(failed: fsync_4k_append: write at offset [0-9]+ failed: No space left on device' "$TMP/out" ||
	fail "table: the failed test: $(cat "$TMP/out")"
for t in smallfile metadata; do
	grep -Eq "^$t +- .*\(not run: fsync_4k_append failed before it" "$TMP/out" || fail "table: $t: $(cat "$TMP/out")"
done

# --- the layout fails: the first test that needed it says why, the rest are not_run ---
small=$(mount_tmp tmpfs -t tmpfs -o size=24m)
make_image "$small/img" 256M
dev=$(attach_loop "$small/img")
mkfs.ext4 -q -F -E lazy_itable_init=1,nodiscard "$dev"
mnt=$(mount_tmp "$dev")
run_status 3 env FSTUNE_TEST_SCALE=1 "$FSTUNE" bench --json --tests rand_read_4k_qd1,seq_read_1m --size 64M \
	"${BENCH_SHORT[@]}" "$mnt"
jq -e '.unavailable["bench.rand_read_4k_qd1"].status == "failed" and
	(.unavailable["bench.rand_read_4k_qd1"].reason | test("^laying out the [0-9]+-byte test file in .* failed at offset"))' \
	"$TMP/out" >/dev/null || fail "layout: no failure record: $(jq -c .unavailable "$TMP/out")"
jq -e '.unavailable["bench.seq_read_1m"].status == "not_run"' "$TMP/out" >/dev/null ||
	fail "layout: the second test not listed: $(jq -c .unavailable "$TMP/out")"
bench_no_scratch "$mnt"
exit 0
