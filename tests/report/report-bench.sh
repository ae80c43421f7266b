#!/bin/bash
# `fstune report` with benchmarks: --bench quick on a loop-mounted ext4 (direct I/O) puts bench.* into
# the report's facts, the "what was measured" lines name only real tests, the parameters used are shown,
# and a rule that needs a bench key is evaluated (with --bench none it is listed as not evaluated). The
# default is quick on a writable directory from a terminal, and none without one (writing nothing there,
# Measured saying why), with --facts, on a read-only mount (with a note) and under --sysroot. The workload flags join report: a preset gives source "preset", an override "user";
# --sample with --facts is a usage error. SIGINT mid-benchmark ends the run by the signal (130) and
# leaves no scratch directory.
. "${FSTUNE_SRCDIR:?run the tests through make check}/tests/lib/common.sh" || exit 99
. "$FSTUNE_SRCDIR/tests/lib/bench.sh"
private_mount_ns "$@"
require_loop
require_cmd mkfs.ext4 jq timeout

# Short runs (make check): the span floor is lowered by FSTUNE_TEST_SCALE, set by the harness.
SHORT=(--runtime 0.3 --warmup 0.1 --busy-check 0.2 --size 32M)
QUICK="rand_read_4k_qd1 rand_read_4k_qd32 seq_read_1m seq_write_1m fsync_4k_overwrite"
export FSTUNE_RULES_PATH=
# needs_bench: a rule that cannot run without a measurement
R=("$FSTUNE" report --no-system-rules --rules-dir "$FSTUNE_SRCDIR/tests/rules/needs-bench")

make_image "$TMP/img" 128M
dev=$(attach_loop "$TMP/img" --sector-size 4096)
mkfs.ext4 -q -F "$dev"
mnt=$(mount_tmp "$dev")

# --bench quick: the quick suite's results are facts of the report, and the rule that needs them runs.
bench_run_consistent "$QUICK" "${R[@]}" --bench quick --json "${SHORT[@]}" "$mnt"
cp "$TMP/out" "$TMP/q.json"
assert_eq "$(jq -r '[.facts.bench | keys[] | select(. != "parameters" and . != "busy_check" and . != "rotational_claim")] | join(" ")' "$TMP/q.json" | tr ' ' '\n' | sort | tr '\n' ' ')" \
	"$(echo $QUICK | tr ' ' '\n' | sort | tr '\n' ' ')" "bench tests in the report"
jq .facts "$TMP/q.json" >"$TMP/facts.json"
for t in $QUICK; do
	bench_assert_consistent "$TMP/facts.json" "$t" 0.3
	assert_eq "$(jq -r --arg t "$t" '.facts.bench[$t].direct' "$TMP/q.json")" yes "$t direct"
done
assert_eq "$(jq -r '.facts.sources["bench.rand_read_4k_qd1.iops"]' "$TMP/q.json")" bench "source of a bench fact"
assert_eq "$(jq -r '.facts.bench.parameters.suite' "$TMP/q.json")" quick "parameters used: suite"
assert_eq "$(jq -r '.facts.bench.parameters.span_bytes' "$TMP/q.json")" $((32 << 20)) "parameters used: span"
assert_eq "$(jq -r '[.recommendations[] | select(.id == "needs_bench.measured")] | length' "$TMP/q.json")" 1 \
	"the rule needing bench facts was not evaluated"
jq -e '[.not_evaluated[] | select(.rule == "needs_bench")] | length == 0' "$TMP/q.json" >/dev/null ||
	fail "needs_bench listed as not evaluated after --bench quick"
bench_no_scratch "$mnt"

# The text report: "Measured" names the tests that ran, in the suite's order, and nothing else.
run_status 0 "${R[@]}" --bench quick "${SHORT[@]}" "$mnt"
measured=$(sed -n '/^  Measured /,/^  [A-Z]/p' "$TMP/out" | sed '$d' | sed 's/^  Measured //; s/^ *//' | tr -s '\n' ' ')
case $measured in
"rand_read_4k_qd1, rand_read_4k_qd32, seq_read_1m, seq_write_1m, fsync_4k_overwrite ${dev#/dev/} was "*) ;;
*) fail "text: Measured is '$measured'" ;;
esac
grep -q "^  Parameters  suite quick, runtime_s 300 ms" "$TMP/out" || fail "text: no parameters used: $(cat "$TMP/out")"
! grep -q "^  Measured .*\(parameters\|busy_check\)" "$TMP/out" || fail "text: Measured lists non-tests"
# ... and the numbers themselves, one row per test: IOPS, MB/s, p50, p99, direct
sed -n '/^Benchmark results$/,/^$/p' "$TMP/out" >"$TMP/table"
grep -q "^test  *IOPS  *MB/s  *p50  *p99  *±%  *direct$" "$TMP/table" || fail "text: no results table: $(cat "$TMP/out")"
for t in $QUICK; do
	# a row marked ! failed a timing check on a loaded machine (listed under the table): it may hold
	# no numbers at all (no completion inside a short window); an unmarked row must hold its rates,
	# and a percentile or a "-" where too few samples were taken for it (fsync on a loaded host can
	# complete a handful of writes in the 0.3 s window)
	grep -q "^$t " "$TMP/table" || fail "text: no row for $t: $(cat "$TMP/table")"
	grep -q "^$t ! " "$TMP/table" && continue
	grep -Eq "^$t +[0-9]+ +[0-9.]+ +([0-9.]+ [mu]?s|-) +([0-9.]+ [mu]?s|-) +([0-9.]+|-) +yes" "$TMP/table" ||
		fail "text: no numbers for $t: $(cat "$TMP/table")"
done
run_status 0 "${R[@]}" --bench none "$mnt"
! grep -q "^Benchmark results" "$TMP/out" || fail "text: a results table with nothing measured"
bench_no_scratch "$mnt"

# --bench none: the rule is not evaluated, and the report says why.
run_status 0 "${R[@]}" --bench none --json "$mnt"
jq -e '.facts.bench == null' "$TMP/out" >/dev/null || fail "--bench none measured something"
jq -r '.not_evaluated[] | select(.rule == "needs_bench") | .reason' "$TMP/out" | grep -q "bench.rand_read_4k_qd1.iops" ||
	fail "needs_bench not listed as not evaluated with --bench none"

# The default: quick on a writable mounted filesystem from a terminal (a benchmark parameter alone
# keeps it quick) ...
run_status 0 "${ON_TERMINAL[@]}" "${R[@]}" --json --runtime 0.3 --warmup 0.1 --busy-check 0 --size 32M "$mnt"
jq -e '.facts.bench.rand_read_4k_qd1.iops > 0' "$TMP/out" >/dev/null || fail "default on a writable directory: no benchmarks"
# ... none without a terminal (cron, ssh, Ansible): nothing is written on the target, and Measured
# says why; a benchmark parameter or --bench still asks for the benchmarks there.
before=$(find "$mnt" -printf '%p %s %T@\n' | sort)
run_status 0 "${R[@]}" "$mnt" </dev/null
tr -s ' \n' ' ' <"$TMP/out" | grep -q " Measured nothing: not on a terminal: nothing was written; --bench quick to measure " ||
	fail "no terminal: Measured does not say why nothing was measured: $(grep -A1 Measured "$TMP/out")"
run_status 0 "${R[@]}" --json "$mnt" </dev/null
jq -e '.facts.bench == null' "$TMP/out" >/dev/null || fail "no terminal: benchmarks ran by default"
assert_eq "$(find "$mnt" -printf '%p %s %T@\n' | sort)" "$before" "the target after two reports without a terminal"
run_status 0 "${R[@]}" --json --runtime 0.3 --warmup 0.1 --busy-check 0 --size 32M "$mnt" </dev/null
jq -e '.facts.bench.rand_read_4k_qd1.iops > 0' "$TMP/out" >/dev/null || fail "no terminal: a benchmark parameter ran no benchmark"
# ... none with --facts (the golden reports depend on it) ...
run_status 0 "${R[@]}" --json --facts "$TMP/facts.json"
assert_eq "$(jq -r '[.recommendations[] | select(.id == "needs_bench.measured")] | length' "$TMP/out")" 1 \
	"saved bench facts are evaluated again"
run_status 0 "${R[@]}" --facts "$TMP/facts.json"
grep -q "^  Measured    rand_read_4k_qd1, rand_read_4k_qd32" "$TMP/out" || fail "--facts: measured tests not shown"
grep -q "^  Parameters  suite quick" "$TMP/out" || fail "--facts: parameters used not shown"
# ... none on a read-only mount, with a note; --bench quick there is refused (4) and the report written.
mount -o remount,ro "$mnt"
run_status 0 "${ON_TERMINAL[@]}" "${R[@]}" --json "$mnt"
jq -e '.facts.bench == null' "$TMP/out" >/dev/null || fail "read-only mount: benchmarks ran by default"
grep -q "note: .*read-only" "$TMP/err" || fail "read-only mount: no note: $(cat "$TMP/err")"
run_status 0 "${ON_TERMINAL[@]}" "${R[@]}" --quiet --json "$mnt"
[ ! -s "$TMP/err" ] || fail "--quiet printed: $(cat "$TMP/err")"
run_status 4 "${R[@]}" --bench quick "${SHORT[@]}" "$mnt"
grep -q "^  Measured    nothing: the benchmarks were refused" "$TMP/out" || fail "refusal not in the report"
mount -o remount,rw "$mnt"
# ... none under --sysroot, where --bench quick is a usage error.
NVME="$FSTUNE_SRCDIR/tests/fixtures/sysroot/simple-nvme"
run_status 0 "${R[@]}" --json --sysroot "$NVME" nvme0n1
jq -e '.facts.bench == null' "$TMP/out" >/dev/null || fail "--sysroot: benchmarks ran"
run_status 2 "${R[@]}" --bench quick --sysroot "$NVME" nvme0n1
# Usage errors: benchmarks or their parameters with --facts, parameters with --bench none.
run_status 2 "${R[@]}" --bench quick --facts "$TMP/facts.json"
run_status 2 "${R[@]}" --runtime 1 --facts "$TMP/facts.json"
run_status 2 "${R[@]}" --bench none --runtime 1 "$mnt"
run_status 2 "${R[@]}" --bench fastest "$mnt"
grep -q "none, quick or full" "$TMP/err" || fail "--bench fastest: no clear message"

# The workload flags: a preset (source preset) and an override (source user), on a TARGET and on facts.
run_status 0 "${R[@]}" --bench none --json --workload smallfiles --files 5000 "$mnt"
assert_eq "$(jq -r .facts.workload.profile "$TMP/out")" smallfiles "workload.profile"
assert_eq "$(jq -r '.facts.sources["workload.profile"]' "$TMP/out")" preset "source of the preset"
assert_eq "$(jq -r .facts.workload.files_total "$TMP/out")" 5000 "workload.files_total override"
assert_eq "$(jq -r '.facts.sources["workload.files_total"]' "$TMP/out")" user "source of the override"
H="$FSTUNE_SRCDIR/tests/facts/healthy-default.json"
run_status 0 "${R[@]}" --json --facts "$H" --workload smallfiles --files-per-dir 50
assert_eq "$(jq -r '.facts.workload.profile + " " + .facts.sources["workload.profile"]' "$TMP/out")" \
	"smallfiles preset" "--facts + --workload"
assert_eq "$(jq -r '(.facts.workload.files_per_dir | tostring) + " " + .facts.sources["workload.files_per_dir"]' "$TMP/out")" \
	"50 user" "--facts + --files-per-dir"
run_status 0 "${R[@]}" --json --facts "$H"
assert_eq "$(jq -c .facts.workload "$TMP/out")" "$(jq -c .workload "$H")" "--facts alone: the workload is the file's"
run_status 2 "${R[@]}" --facts "$H" --sample "$mnt"
grep -q -- "--sample" "$TMP/err" || fail "--sample with --facts: no clear message"
run_status 2 "${R[@]}" --facts "$H" --observe 1
run_status 2 "${R[@]}" --bench none --workload nosuch "$mnt"

# SIGINT during the benchmarks: the run ends by the signal, with nothing left and nothing printed. The
# first run has no benchmark option at all, so that its scratch directory also shows that the default
# on a writable filesystem is quick.
sigint_run() {
	"${ON_TERMINAL[@]}" "${R[@]}" "$@" --json "$mnt" >"$TMP/sig.out" 2>"$TMP/sig.err" &
	pid=$!
	wait_for_glob 10 "$mnt/.fstune-bench.*" || fail "$*: no scratch directory appeared"
	sleep 0.3
	kill -INT "$pid"
	timeout 20 tail --pid="$pid" -f /dev/null || fail "SIGINT: still running after 20 s"
	st=0
	wait "$pid" || st=$?
	assert_eq "$st" 130 "exit status after SIGINT ($*)"
	bench_no_scratch "$mnt"
	[ ! -s "$TMP/sig.out" ] || fail "SIGINT: a report was printed: $(head -c 300 "$TMP/sig.out")"
}
sigint_run
sigint_run --bench quick --runtime 60 --warmup 0 --busy-check 0 --size 16M
echo "report with benchmarks and workload flags works"
