#!/bin/bash
# fstune bench in a plain directory (no root needed): short real runs whose numbers pass the
# consistency checks, nothing left behind, the fio command lines, the table, and bad input.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
. "$FSTUNE_SRCDIR/tests/lib/bench.sh"
require_cmd jq

d=$TMP/dir
mkdir "$d"
tests=rand_read_4k_qd1,rand_read_4k_qd32,rand_write_4k_qd1,seq_read_1m,fsync_4k_append
bench_run_consistent "${tests//,/ }" "$FSTUNE" bench --json --tests "$tests" --size 32M "${BENCH_SHORT[@]}" "$d"
cp "$TMP/out" "$TMP/r.json"
for t in ${tests//,/ }; do
	bench_assert_consistent "$TMP/r.json" "$t" 0.3
done
assert_eq "$(json_get "$TMP/r.json" '.bench.rand_read_4k_qd32.span_bytes')" 33554432 "span"
assert_eq "$(json_get "$TMP/r.json" '.bench.rand_read_4k_qd1.engine')" psync "QD1 engine"
case $(json_get "$TMP/r.json" '.bench.rand_read_4k_qd32.engine') in
io_uring | psync-threads) ;;
*) fail "QD32 engine" ;;
esac
assert_eq "$(json_get "$TMP/r.json" '.bench.parameters.runtime_s')" 0.3 "parameters used: runtime"
assert_eq "$(json_get "$TMP/r.json" '.sources["bench.rand_read_4k_qd1.iops"]')" bench "source"
bench_no_scratch "$d"

# psync forced at QD32: one thread per slot. On a starved CPU (a sanitized build on a busy machine) the
# threads cannot keep 32 in flight; then the run must say so rather than pass silently.
run_status 0 "$FSTUNE" bench --json --tests rand_read_4k_qd32 --engine psync --size 16M "${BENCH_SHORT[@]}" "$d"
assert_eq "$(json_get "$TMP/out" '.bench.rand_read_4k_qd32.engine')" psync-threads "forced psync at QD32"
if jq -e '.bench.rand_read_4k_qd32.inflight_mean >= 28.8' "$TMP/out" >/dev/null; then
	bench_assert_consistent "$TMP/out" rand_read_4k_qd32 0.3
else
	json_get "$TMP/out" '.bench.rand_read_4k_qd32.checks_failed[]' | grep -q "queue not held full" ||
		fail "queue not held, and not reported: $(cat "$TMP/out")"
	grep -q "consistency check failed: queue not held full" "$TMP/err" || fail "no note on the failed check"
fi

# The adaptive runtime (no --runtime): the null engine's constant latencies settle at once, so each test
# stops after the minimum 0.5 s with its interval within 3%; a real run stops at the first slice where
# its interval is within 3%, or at the cap (0.7 s) with what it reached: either way it says so.
run_status 0 "$FSTUNE" bench --json --engine null --tests rand_read_4k_qd1,rand_read_4k_qd32 --busy-check 0 "$d"
for t in rand_read_4k_qd1 rand_read_4k_qd32; do
	jq -e --arg t "$t" '.bench[$t] | .runtime_s == 0.5 and .ci95_pct <= 3' "$TMP/out" >/dev/null ||
		fail "null engine, adaptive: $t $(jq -c --arg t "$t" '.bench[$t] | [.runtime_s, .ci95_pct]' "$TMP/out")"
done
assert_eq "$(json_get "$TMP/out" '.bench.parameters.runtime_mode')" adaptive "parameters used: runtime mode"
run_status 0 "$FSTUNE" bench --json --tests rand_read_4k_qd1,seq_read_1m --size 16M --warmup 0.1 --busy-check 0 "$d"
for t in rand_read_4k_qd1 seq_read_1m; do
	jq -e --arg t "$t" '.bench[$t] | .runtime_s >= 0.5 and .runtime_s <= 0.7 and
		((.runtime_s * 10 | round) == (.runtime_s * 10)) and (.ci95_pct <= 3 or .runtime_s == 0.7)' "$TMP/out" >/dev/null ||
		fail "real, adaptive: $t stopped at $(jq -c --arg t "$t" '.bench[$t] | [.runtime_s, .ci95_pct]' "$TMP/out")"
	bench_assert_consistent "$TMP/out" "$t" "$(jq --arg t "$t" '.bench[$t].runtime_s' "$TMP/out")"
done
bench_no_scratch "$d"

# the table
run_status 0 "$FSTUNE" bench --tests rand_read_4k_qd1 --size 16M "${BENCH_SHORT[@]}" "$d"
grep -q '^test  *IOPS  *MB/s  *p50  *p99  *±%  *direct' "$TMP/out" || fail "table header"
grep -q '^rand_read_4k_qd1 ' "$TMP/out" || fail "table row"
grep -q 'span_bytes  *16 MiB' "$TMP/out" || fail "parameters used block"

# fio command lines: nothing runs, nothing stays
run_status 0 "$FSTUNE" bench --fio-commands --quick "$d"
grep -q "^fio --name=rand_read_4k_qd32 --filename=$d/fstune-fio.dat .*--rw=randread --bs=4096 .*--iodepth=32" "$TMP/out" ||
	fail "fio command: $(cat "$TMP/out")"
[ "$(grep -c '^fio ' "$TMP/out")" = 5 ] || fail "5 fio commands for the quick suite"
# fio's default form for writes too (refilling every buffer costs fio several times fstune's CPU per
# MiB); what a compressing device needs instead is said in a comment line
grep -q "^fio --name=seq_write_1m .*--rw=write " "$TMP/out" && ! grep -q -- "^fio .*--refill_buffers" "$TMP/out" ||
	fail "fio's default form for seq_write_1m: $(grep seq_write "$TMP/out")"
grep -q "^# on a compressing device .*add --refill_buffers" "$TMP/out" || fail "no word on compressing devices: $(cat "$TMP/out")"
bench_no_scratch "$d"
[ -z "$(ls -A "$d")" ] || fail "the directory is not empty: $(ls -A "$d")"

# bad input: one clear line, status 2
run_status 2 "$FSTUNE" bench --engine warp "$d"
grep -q "unknown engine 'warp'" "$TMP/err" || fail "bad engine message"
run_status 2 "$FSTUNE" bench --tests rand_read_4k_qd1,nope "$d"
grep -q "unknown test 'nope'" "$TMP/err" || fail "bad test message"
run_status 2 "$FSTUNE" bench --runtime soon "$d"
run_status 2 "$FSTUNE" bench "$TMP/missing"
truncate -s 64M "$TMP/img"
run_status 2 "$FSTUNE" bench "$TMP/img"
grep -q "image file" "$TMP/err" || fail "image message"
# a span below the floor
run_status 4 "$FSTUNE" bench --tests rand_read_4k_qd1 --size 4M "${BENCH_SHORT[@]}" "$d"
bench_no_scratch "$d"
exit 0
