# Helpers of the benchmark tests (tests/bench-*.sh), sourced after tests/lib/common.sh.
# shellcheck shell=bash

# Short runs: make check keeps the whole benchmark group well under a minute.
BENCH_SHORT=(--runtime 0.3 --warmup 0.1 --busy-check 0)

# bench_no_scratch DIR: fails if a scratch directory is left in DIR.
bench_no_scratch() {
	local left
	left=$(find "$1" -maxdepth 1 -name '.fstune-bench.*' | head -1)
	[ -z "$left" ] || fail "scratch directory left behind: $left"
}

# bench_assert_consistent JSON TEST RUNTIME: the internal consistency checks of DESIGN.md, recomputed
# from the numbers themselves (not only fstune's own checks_ok).
bench_assert_consistent() {
	local f=$1 t=$2 rt=$3
	jq -e --arg t "$t" '.bench[$t] | type == "object"' "$f" >/dev/null || fail "$t: no results in $f"
	jq -e --arg t "$t" '.bench[$t].checks_ok == true' "$f" >/dev/null ||
		fail "$t: fstune's own checks failed: $(jq -c --arg t "$t" '.bench[$t].checks_failed' "$f")"
	jq -e --arg t "$t" '.bench[$t] | .samples > 0 and .iops > 0' "$f" >/dev/null || fail "$t: no samples"
	jq -e --arg t "$t" '.bench[$t] | ((.bw_bytes_per_s - .iops * .io_size_bytes) | fabs) <= 0.001 * .bw_bytes_per_s + 1' \
		"$f" >/dev/null || fail "$t: iops x io_size != bw"
	jq -e --arg t "$t" '.bench[$t] | [.lat_p50_us, .lat_p99_us, .lat_p999_us, .lat_max_us] | map(select(. != null)) |
		. as $a | [range(1; length)] | all(. as $i | $a[$i - 1] <= $a[$i])' "$f" >/dev/null ||
		fail "$t: percentiles out of order: $(jq -c --arg t "$t" '.bench[$t] | [.lat_p50_us, .lat_p99_us, .lat_p999_us, .lat_max_us]' "$f")"
	jq -e --arg t "$t" '.bench[$t] | .queue_depth > 1 or ((.iops * (.lat_mean_us + 5) / 1e6) >= 0.9 and (.iops * .lat_mean_us / 1e6) <= 1.02 + .lat_max_us / 1e6 / .runtime_s)' \
		"$f" >/dev/null || fail "$t: at QD1 iops x mean latency is not ~1 s"
	jq -e --arg t "$t" '.bench[$t] | .queue_depth == 1 or .inflight_mean >= 0.9 * .queue_depth' "$f" >/dev/null ||
		fail "$t: queue not held full: $(jq --arg t "$t" '.bench[$t].inflight_mean' "$f")"
	jq -e --arg t "$t" --argjson rt "$rt" '.bench[$t].runtime_s == $rt' "$f" >/dev/null || fail "$t: runtime_s is not $rt"
}

# bench_run_consistent "TEST..." CMD...: runs a benchmark command (status 0, output in $TMP/out: the
# bench.* facts or a JSON report holding them) until
# fstune's own consistency checks pass for every named test, three tries at most. The timing checks
# (busy time at QD1, the queue held full, completions covering the window) measure the machine as
# well as the disk: on a loaded 2-core machine running the suite in parallel a run can lose the CPU,
# which fstune rightly reports. A broken engine fails every try; a preempted run passes the next.
bench_run_consistent() {
	local tests=$1 try t ok
	shift
	for try in 1 2 3; do
		run_status 0 "$@"
		ok=1
		for t in $tests; do
			jq -e --arg t "$t" '(.bench // .facts.bench)[$t].checks_ok == true' "$TMP/out" >/dev/null || ok=0
		done
		[ "$ok" = 1 ] && return 0
		echo "note: try $try: fstune's own checks failed: $(jq -c '[(.bench // .facts.bench)[] | objects | .checks_failed // empty]' "$TMP/out")" >&2
	done
}
