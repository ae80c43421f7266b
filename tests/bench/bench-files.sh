#!/bin/bash
# The file benchmarks (smallfile, smallfile_fsync, metadata, tree) on small parameters: the counts agree
# with each other and with Postmark 1.53's (a known answer), each test carries its phases' 95%
# confidence intervals, nothing is left in the target directory, the text and Markdown tables show each
# test's numbers (no nan) with the ±% column, a bad FSTUNE_SMALLFILE is a usage
# error, and SIGINT/SIGTERM mid-test end the run cleanly (130, 143).
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
. "$FSTUNE_SRCDIR/tests/lib/bench.sh"
require_cmd jq timeout

d=$TMP/dir
mkdir "$d"
out=$TMP/files.json

# nothing_left: no scratch directory, and nothing else either, in the target directory
nothing_left() {
	bench_no_scratch "$d"
	[ -z "$(find "$d" -mindepth 1 | head -1)" ] || fail "$1: left behind: $(find "$d" -mindepth 1 | head -5)"
}

# jq_true FILTER WHAT: the filter must hold on the results
jq_true() { jq -e "$1" "$out" >/dev/null || fail "$2: $(jq -c "$3" "$out" 2>/dev/null)"; }

# ---- all four tests on a small workload ----
run_status 0 "$FSTUNE" bench --tests smallfile,smallfile_fsync,metadata,tree --runtime 0.5 --busy-check 0 \
	--files 300 --files-per-dir 20 --file-size 100-3000 --json "$d"
cp "$TMP/out" "$out"
nothing_left "the four file tests"

for t in smallfile smallfile_fsync; do
	jq_true ".bench.$t.checks_ok == true" "$t: fstune's own checks failed" ".bench.$t.checks_failed"
	# the model's bookkeeping: every transaction is one read or append (or a skipped append of a full
	# file) and one create (or a skipped one, all slots full) or delete
	jq_true ".bench.$t | .reads + .appends + .appends_skipped == .transactions" "$t: reads+appends != transactions" ".bench.$t"
	jq_true ".bench.$t | (.creates - .files) + .creates_skipped + .deletes_in_transactions == .transactions" \
		"$t: creates+deletes != transactions" ".bench.$t"
	jq_true ".bench.$t | .files_left == .creates - .deletes_in_transactions" "$t: files left != creates - deletes" ".bench.$t"
	jq_true ".bench.$t | .deletes == .creates" "$t: not every file was deleted" ".bench.$t"
	# the file count may be cut to what the time bound allows; the fan-out follows it
	jq_true ".bench.$t | .files > 0 and .files <= .files_planned and .files_planned <= 300 and .transactions > 0" \
		"$t: files or transactions" ".bench.$t"
	jq_true ".bench.$t | .file_size_min_bytes == 100 and .file_size_max_bytes == 3000 and
		.subdirectories == ((.files_planned + 19) / 20 | floor) and .parameters_from == \"workload\"" \
		"$t: parameters not from the workload" ".bench.$t"
	jq_true ".bench.$t | .bytes_left >= 100 * .files_left and .bytes_left <= 3000 * .files_left" "$t: bytes left" ".bench.$t"
	jq_true ".bench.$t | (.tps - .transactions / .transactions_s | fabs) <= 0.01 * .tps + 0.01" "$t: tps != transactions / time" ".bench.$t"
	jq_true ".bench.$t | (.read_per_s - .reads / .transactions_s | fabs) <= 0.01 * .read_per_s + 0.01" "$t: read rate" ".bench.$t"
	jq_true ".bench.$t | (.create_per_s - .creates / .runtime_s | fabs) <= 0.01 * .create_per_s + 0.01" "$t: create rate" ".bench.$t"
done
jq_true '.bench.smallfile.fsync == false and .bench.smallfile_fsync.fsync == true' "fsync flags" '.bench | map_values(.fsync)'

jq_true '.bench.metadata.checks_ok == true' "metadata: checks failed" '.bench.metadata.checks_failed'
jq_true '.bench.metadata | .files > 0 and .files <= 300 and .stats == .files and .unlinks == .files' "metadata: counts" '.bench.metadata'
jq_true '.bench.metadata | .files_per_dir == 20 and .directories == ((.files + 19) / 20 | floor)' "metadata: layout" '.bench.metadata'
jq_true '.bench.metadata | .cache == "warm" and .create_per_s > 0 and .stat_per_s > 0 and .unlink_per_s > 0' "metadata: rates" '.bench.metadata'

jq_true '.bench.tree.checks_ok == true' "tree: checks failed" '.bench.tree.checks_failed'
jq_true '.bench.tree | .files > 0 and .files <= 300 and .directories == ((.files + 19) / 20 | floor)' "tree: layout" '.bench.tree'
jq_true '.bench.tree | .bytes >= 100 * .files and .bytes <= 3000 * .files and .file_size_mean_bytes == (.bytes / .files | floor)' \
	"tree: sizes outside the workload's range" '.bench.tree'
jq_true '.bench.tree | .cache == "warm" and .write_s > 0 and .read_s > 0' "tree: times" '.bench.tree'

# every test carries the 95% confidence interval of its phases' rates, and its ci95_pct is the widest
for t in smallfile smallfile_fsync metadata tree; do
	jq_true ".bench.$t | ([to_entries[] | select(.key | endswith(\"_ci95_pct\")) | .value] as \$p |
		(\$p | length) > 0 and (\$p | all(. >= 0)) and .ci95_pct == (\$p | max))" \
		"$t: no ci95_pct, or not the widest of its phases'" ".bench.$t"
done
jq_true '.bench.metadata | has("create_ci95_pct") and has("unlink_ci95_pct")' "metadata: phases without an interval" '.bench.metadata'
jq_true '.bench.smallfile | has("transactions_ci95_pct")' "smallfile: transactions without an interval" '.bench.smallfile'
jq_true '.bench.tree | has("write_ci95_pct")' "tree: writing without an interval" '.bench.tree'

# ---- the table: the file tests' own block (no I/O block, no nan), each row with its numbers ----
N='[1-9][0-9]*'
C='[0-9]+\.[0-9]' # the ±% column: the widest 95% confidence interval of the test's phases
rows=("smallfile $N $N $N - $N $N $N $C -" "smallfile_fsync $N $N $N - $N $N $N $C -"
	"metadata - $N - $N - $N $N $C warm" "tree - $N $N - - - $N $C warm")
for fmt in text markdown; do
	run_status 0 "$FSTUNE" bench --tests smallfile,smallfile_fsync,metadata,tree --runtime 0.2 --busy-check 0 \
		--files 100 --files-per-dir 20 --file-size 100-3000 --format "$fmt" "$d"
	! grep -qiw 'nan\|IOPS' "$TMP/out" || fail "$fmt: nan or an I/O block: $(cat "$TMP/out")"
	for r in "test tps create/s read/s stat/s append/s delete/s files ±% cache" "${rows[@]}"; do
		re="^${r// / +}\$"
		[ "$fmt" = text ] || re="^\\| ${r// / \\| } \\|\$"
		grep -Eq "$re" "$TMP/out" || fail "$fmt: no row '$r': $(cat "$TMP/out")"
	done
done
nothing_left "the table"

# ---- Postmark 1.53's own answer: `set seed 42`, defaults otherwise (500 files of 500..9999 bytes,
# 500 transactions) gives 764 created, 243 read, 257 appended, 236 deleted in transactions, 528 left
# (measured with Debian's postmark 1.53; tests/perf/compare-postmark.sh compares in full) ----
FSTUNE_SMALLFILE=seed=42,transactions=500,files=500,size=500-10000 \
	run_status 0 "$FSTUNE" bench --tests smallfile --busy-check 0 --json "$d"
cp "$TMP/out" "$out"
jq_true '.bench.smallfile | [.creates, .reads, .appends, .deletes_in_transactions, .files_left] == [764, 243, 257, 236, 528]' \
	"not Postmark's operations for seed 42" '.bench.smallfile | [.creates, .reads, .appends, .deletes_in_transactions, .files_left]'
nothing_left "postmark defaults"

FSTUNE_SMALLFILE=seed=0 run_status 2 "$FSTUNE" bench --tests smallfile --busy-check 0 "$d"
grep -q "FSTUNE_SMALLFILE: 'seed=0'" "$TMP/err" || fail "bad FSTUNE_SMALLFILE: $(cat "$TMP/err")"
nothing_left "bad FSTUNE_SMALLFILE"

# ---- cancellation in the middle of each test: waits until the test's files exist ----
cancel_mid() {
	local test=$1 sig=$2 marker=$3 st=0 want
	"$FSTUNE" bench --tests "$test" --runtime 60 --busy-check 0 --files 200000 --files-per-dir 100 \
		--file-size 1000-2000 "$d" >"$TMP/cout" 2>"$TMP/cerr" &
	local pid=$!
	wait_for_glob 20 "$d/.fstune-bench.*/$test/$marker" || { kill "$pid" 2>/dev/null || true; fail "$test: no $marker appeared: $(cat "$TMP/err")"; }
	kill -s "$sig" "$pid"
	timeout 60 tail --pid="$pid" -f /dev/null || fail "$test: still running 60 s after SIG$sig"
	wait "$pid" || st=$?
	want=$((128 + $(kill -l "$sig")))
	assert_eq "$st" "$want" "$test: exit status after SIG$sig"
	[ ! -s "$TMP/cout" ] || fail "$test: results printed after SIG$sig"
	nothing_left "$test after SIG$sig"
}
cancel_mid smallfile INT 's1/*'
cancel_mid smallfile_fsync TERM 's2/*'
cancel_mid metadata INT 'd1/*'
cancel_mid tree INT 'd1/*'
exit 0
