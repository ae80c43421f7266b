#!/bin/bash
# Refusals for safety (status 4), each with nothing written: a filesystem too small for the span floor
# (with nothing to give, and with a budget whose test file, 3/4 of it, is below the floor),
# one without free inodes, and a read-only mount. Then ENOSPC mid-run: a clear error, no numbers
# shown as results, status 3, nothing left behind.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
. "$FSTUNE_SRCDIR/tests/lib/bench.sh"
private_mount_ns "$@"
require_root
require_cmd jq dd

small=$(mount_tmp tmpfs -t tmpfs -o size=4m)
run_status 4 "$FSTUNE" bench --quick "${BENCH_SHORT[@]}" "$small"
grep -q "and its test file 75% of that, 0 B, less than the 8 MiB that honest numbers need" "$TMP/err" ||
	fail "too small: $(cat "$TMP/err")"
[ -z "$(ls -A "$small")" ] || fail "something was written to the small filesystem"
# Room for a run of 10 MiB but not for its test file of 3/4 of it: the message says both numbers, not
# a budget larger than the floor it says it is below.
tight=$(mount_tmp tmpfs -t tmpfs -o size=26m)
run_status 4 "$FSTUNE" bench --quick "${BENCH_SHORT[@]}" "$tight"
grep -q "may write 10 MiB there .* and its test file 75% of that, 7 MiB, less than the 8 MiB that honest numbers need" \
	"$TMP/err" || fail "a budget above the floor, a span below it: $(cat "$TMP/err")"
[ -z "$(ls -A "$tight")" ] || fail "something was written to the tight filesystem"

noinodes=$(mount_tmp tmpfs -t tmpfs -o size=64m,nr_inodes=8)
run_status 4 "$FSTUNE" bench --quick "${BENCH_SHORT[@]}" "$noinodes"
grep -q "free inodes" "$TMP/err" || fail "inodes: $(cat "$TMP/err")"

ro=$(mount_tmp tmpfs -t tmpfs -o size=64m,ro)
run_status 4 "$FSTUNE" bench --quick "${BENCH_SHORT[@]}" "$ro"
grep -q "read-only mount" "$TMP/err" || fail "read-only: $(cat "$TMP/err")"

full=$(mount_tmp tmpfs -t tmpfs -o size=64m)
"$FSTUNE" bench --json --tests fsync_4k_append --size 16M --runtime 60 --warmup 0 --busy-check 0 "$full" \
	>"$TMP/out" 2>"$TMP/err" &
pid=$!
wait_for_glob 10 "$full/.fstune-bench.*/append" || : # not yet: the filling below goes on all the same
# Fill the filesystem, and keep it full: the append test truncates its file when it reaches its
# limit, and space freed that way would let it cycle on without ever meeting ENOSPC.
for _ in $(seq 400); do
	kill -0 "$pid" 2>/dev/null || break
	dd if=/dev/zero of="$full/filler" bs=4k oflag=append conv=notrunc 2>/dev/null || true # until ENOSPC
	sleep 0.05
done
st=0
kill -0 "$pid" 2>/dev/null && { kill "$pid"; fail "ENOSPC did not end the run"; }
wait "$pid" || st=$?
assert_eq "$st" 3 "status after ENOSPC mid-run"
grep -q "No space left on device (the filesystem filled up during the run)" "$TMP/err" || fail "ENOSPC message: $(cat "$TMP/err")"
jq -e '.bench.fsync_4k_append == null and .unavailable["bench.fsync_4k_append"].status == "failed"' "$TMP/out" >/dev/null ||
	fail "numbers kept after ENOSPC: $(cat "$TMP/out")"
rm -f "$full/filler"
bench_no_scratch "$full"
exit 0
