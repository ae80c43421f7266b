#!/bin/bash
# An unmounted block device is benchmarked read-only: O_DIRECT, O_EXCL, its contents unchanged
# (sha256 before and after); the suite's write tests are skipped with the reason and a write test named
# in --tests is refused with status 4 and a pointer to `fstune trial`.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
. "$FSTUNE_SRCDIR/tests/lib/bench.sh"
private_mount_ns "$@"
require_loop
require_cmd jq sha256sum

head -c 48M /dev/urandom >"$TMP/img"
dev=$(attach_loop "$TMP/img")
before=$(sha256sum <"$dev")

bench_run_consistent "rand_read_4k_qd1 rand_read_4k_qd32 seq_read_1m" "$FSTUNE" bench --json --quick --size 32M "${BENCH_SHORT[@]}" "$dev"
cp "$TMP/out" "$TMP/r.json"
for t in rand_read_4k_qd1 rand_read_4k_qd32 seq_read_1m; do
	bench_assert_consistent "$TMP/r.json" "$t" 0.3
	assert_eq "$(json_get "$TMP/r.json" ".bench.$t.direct")" yes "$t direct"
done
for t in seq_write_1m fsync_4k_overwrite; do
	jq -e --arg t "$t" '.bench[$t] == null' "$TMP/r.json" >/dev/null || fail "$t ran on a raw device"
	json_get "$TMP/r.json" ".unavailable.\"bench.$t\".reason" | grep -q "read tests only" || fail "$t: no reason"
done
assert_eq "$(json_get "$TMP/r.json" '.bench.parameters.mode')" device-read-only "mode"

run_status 4 "$FSTUNE" bench --tests rand_read_4k_qd1,rand_write_4k_qd1 --size 32M "${BENCH_SHORT[@]}" "$dev"
grep -q "rand_write_4k_qd1 writes; to measure writes, use \`fstune trial\`" "$TMP/err" || fail "refusal message: $(cat "$TMP/err")"
run_status 0 "$FSTUNE" bench --fio-commands --size 32M "$dev"
grep -q -- "--filename=$dev .*--readonly" "$TMP/out" || fail "fio command for a raw device"
! grep -q -- "--rw=.*write" "$TMP/out" || fail "a write fio command for a raw device"

after=$(sha256sum <"$dev")
assert_eq "$after" "$before" "device contents"
exit 0
