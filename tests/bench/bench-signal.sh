#!/bin/bash
# SIGINT and SIGTERM mid-run, with psync (QD1) and with io_uring (QD32: its in-flight I/O drained
# first): the scratch directory is removed and the process ends by the signal (130, 143). A run killed with SIGKILL leaves its directory; the next run reports it (status 0).
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
. "$FSTUNE_SRCDIR/tests/lib/bench.sh"
require_cmd timeout

d=$TMP/dir
mkdir "$d"

# start_bench [TEST]: a long run in the background; waits until its scratch directory exists
start_bench() {
	"$FSTUNE" bench --tests "${1:-rand_read_4k_qd1}" --size 16M --runtime 60 --warmup 0 --busy-check 0 "$d" \
		>"$TMP/out" 2>"$TMP/err" &
	pid=$!
	wait_for_glob 10 "$d/.fstune-bench.*" || fail "no scratch directory appeared"
	sleep 0.5 # into the measurement
}

for t in rand_read_4k_qd1 rand_read_4k_qd32; do
	for sig in INT TERM; do
		start_bench "$t"
		kill -s "$sig" "$pid"
		st=0
		timeout 20 tail --pid="$pid" -f /dev/null || fail "$t, SIG$sig: still running after 20 s"
		wait "$pid" || st=$?
		want=$((128 + $(kill -l "$sig")))
		assert_eq "$st" "$want" "$t: exit status after SIG$sig"
		bench_no_scratch "$d"
		[ ! -s "$TMP/out" ] || fail "$t, SIG$sig: results printed: $(cat "$TMP/out")"
	done
done

start_bench
kill -s KILL "$pid"
wait "$pid" || true
left=$(find "$d" -maxdepth 1 -name '.fstune-bench.*')
[ -n "$left" ] || fail "SIGKILL should leave the scratch directory"
run_status 0 "$FSTUNE" bench --tests rand_read_4k_qd1 --size 16M "${BENCH_SHORT[@]}" "$d"
grep -q "of a killed run (pid ${left##*.}) holds [0-9.]* [KMG]*i*B: $left; .fstune bench --clean" "$TMP/err" || fail "leftover not reported: $(cat "$TMP/err")"
rm -rf "$left"
exit 0
