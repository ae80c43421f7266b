#!/bin/bash
# A benchmark starved of CPU says so: two busy loops share one CPU with a QD1 run at nice 19, the
# worker then waits for the CPU most of the time (those waits end up inside the measured latencies,
# where no consistency check can see them): bench.<test>.cpu_wait_pct holds the share, and a note
# names the cause.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
. "$FSTUNE_SRCDIR/tests/lib/bench.sh"
require_cmd jq taskset nice

d=$TMP/dir
mkdir "$d"
for _ in 1 2; do
	taskset -c 0 sh -c 'while :; do :; done' &
	on_exit "kill $! 2>/dev/null"
done
run_status 0 taskset -c 0 nice -n 19 "$FSTUNE" bench --json --tests rand_read_4k_qd1 --size 32M \
	"${BENCH_SHORT[@]}" "$d"
# How much of the run it waits depends on what else the machine runs (a loaded CI host lets the
# hogs have less of CPU 0); any starved run waits well past the note's 10%, an idle one ~0%.
jq -e '.bench.rand_read_4k_qd1.cpu_wait_pct > 10' "$TMP/out" >/dev/null ||
	fail "cpu_wait_pct of a CPU-starved run: $(jq -c '.bench.rand_read_4k_qd1' "$TMP/out")"
grep -Eq "rand_read_4k_qd1: the benchmark thread waited for a CPU [0-9]+% of the run: other work competed" \
	"$TMP/err" || fail "no note of the CPU wait: $(cat "$TMP/err")"
# the report shows it beside what was measured
run_status 0 taskset -c 0 nice -n 19 "$FSTUNE" report --no-system-rules --tests rand_read_4k_qd1 --size 32M \
	"${BENCH_SHORT[@]}" "$d"
grep -q "the benchmark waited for a CPU (share of the run):" "$TMP/out" ||
	fail "the report does not show the CPU wait: $(cat "$TMP/out")"
bench_no_scratch "$d"
exit 0
