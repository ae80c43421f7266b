# Helpers of the benchmark tests (tests/bench/bench-*.sh), sourced after tests/lib/common.sh.
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
# from the numbers themselves (not only fstune's own checks_ok). Two kinds:
# - arithmetic (iops x io_size = bw, percentiles in order, samples): true of any run on any machine,
#   so they must hold;
# - timing (busy time at QD1, the queue held full, completions covering the window, the run's length):
#   these measure the machine as well as the disk, and a loaded machine rightly fails them. The test
#   then checks that fstune ran them and reported what the numbers show, both ways, never that the
#   machine was fast.
BENCH_TIMING_CHECKS='^(at QD1 iops x mean latency|queue not held full|ran [0-9.]+ s, asked|completions do not cover|no I/O completed in the measured window)'
bench_assert_consistent() {
	local f=$1 t=$2 rt=$3 qd1_busy_ok queue_ok
	jq -e --arg t "$t" '.bench[$t] | type == "object"' "$f" >/dev/null || fail "$t: no results in $f"
	if jq -e --arg t "$t" '.bench[$t].samples == 0 and ((.bench[$t].checks_failed // []) | any(startswith("no I/O completed")))' \
		"$f" >/dev/null; then
		# a window shorter than one I/O took on a starved machine: reported, nothing else to check
		echo "note: $t: no I/O completed in the window, and fstune said so" >&2
		return 0
	fi
	jq -e --arg t "$t" '.bench[$t] | .samples > 0 and .iops > 0' "$f" >/dev/null || fail "$t: no samples"
	jq -e --arg t "$t" '.bench[$t] | ((.bw_bytes_per_s - .iops * .io_size_bytes) | fabs) <= 0.001 * .bw_bytes_per_s + 1' \
		"$f" >/dev/null || fail "$t: iops x io_size != bw"
	jq -e --arg t "$t" '.bench[$t] | [.lat_p50_us, .lat_p99_us, .lat_p999_us, .lat_max_us] | map(select(. != null)) |
		. as $a | [range(1; length)] | all(. as $i | $a[$i - 1] <= $a[$i])' "$f" >/dev/null ||
		fail "$t: percentiles out of order: $(jq -c --arg t "$t" '.bench[$t] | [.lat_p50_us, .lat_p99_us, .lat_p999_us, .lat_max_us]' "$f")"
	jq -e --arg t "$t" --argjson rt "$rt" '.bench[$t].runtime_s == $rt' "$f" >/dev/null || fail "$t: runtime_s is not $rt"
	jq -e --arg t "$t" '(.bench[$t].checks_ok == true) == ((.bench[$t].checks_failed // []) | length == 0)' "$f" >/dev/null ||
		fail "$t: checks_ok disagrees with checks_failed: $(jq -c --arg t "$t" '.bench[$t] | [.checks_ok, .checks_failed]' "$f")"
	jq -e --arg t "$t" --arg re "$BENCH_TIMING_CHECKS" '(.bench[$t].checks_failed // []) | all(test($re))' "$f" >/dev/null ||
		fail "$t: an arithmetic check failed: $(jq -c --arg t "$t" '.bench[$t].checks_failed' "$f")"
	# The two timing checks a test can recompute: fstune must report exactly what the numbers show.
	qd1_busy_ok=$(jq --arg t "$t" '.bench[$t] | .queue_depth > 1 or ((.iops * (.lat_mean_us + 5) / 1e6) >= 0.9 and
		(.iops * .lat_mean_us / 1e6) <= 1.02 + .lat_max_us / 1e6 / .runtime_s)' "$f")
	queue_ok=$(jq --arg t "$t" '.bench[$t] | .queue_depth == 1 or .inflight_mean >= 0.9 * .queue_depth' "$f")
	bench_reported "$f" "$t" "$qd1_busy_ok" "at QD1 iops x mean latency"
	bench_reported "$f" "$t" "$queue_ok" "queue not held full"
	if jq -e --arg t "$t" '.bench[$t].checks_ok != true' "$f" >/dev/null; then
		echo "note: $t: timing checks failed on this (loaded?) machine, and fstune said so: $(jq -c --arg t "$t" '.bench[$t].checks_failed' "$f")" >&2
	fi
}

# bench_reported JSON TEST HOLDS PREFIX: fstune reported a failed check starting with PREFIX exactly
# when the recomputed condition does not hold.
bench_reported() {
	local f=$1 t=$2 holds=$3 prefix=$4 said
	said=$(jq --arg t "$t" --arg p "$prefix" '(.bench[$t].checks_failed // []) | any(startswith($p))' "$f")
	if [ "$holds" = true ] && [ "$said" = true ]; then
		fail "$t: fstune reported '$prefix' but the numbers satisfy it: $(jq -c --arg t "$t" '.bench[$t]' "$f")"
	fi
	if [ "$holds" = false ] && [ "$said" = false ]; then
		fail "$t: the numbers fail '$prefix' and fstune did not report it: $(jq -c --arg t "$t" '.bench[$t]' "$f")"
	fi
	return 0
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

# blkio_throttle_cgroup KNOB: a new cgroup v1 blkio group in $cg (removed on exit), after checking that
# this kernel throttles with blkio.throttle.KNOB (cgroup v2's io.max is not available here); skips
# where it cannot. The caller writes "MAJ:MIN LIMIT" into $cg/blkio.throttle.KNOB.
blkio_throttle_cgroup() {
	local blkio=/sys/fs/cgroup/blkio
	[ -w "$blkio/cgroup.procs" ] && [ -e "$blkio/blkio.throttle.$1" ] ||
		skip "no cgroup v1 blkio controller with throttling ($1) at $blkio"
	cg=$(mktemp -d "$blkio/fstune-test.XXXXXX")
	on_exit "rmdir $cg"
}
