#!/bin/bash
# report --format openmetrics: findings by severity (accepted ones apart) and one by one, probe
# failures, rule errors and the benchmark numbers (IOPS, throughput, latency percentiles with fsync
# p99, the 95% interval) as metrics that
# `promtool check metrics` (Debian package prometheus) finds clean, on every facts file, on facts with
# hand-written benchmark results, and on a real report run with the null engine; the example alerting
# rules (contrib/prometheus) pass promtool and fire per finding; other commands refuse the format.
. "${FSTUNE_SRCDIR:?run the tests through make check}/tests/lib/common.sh" || exit 99
. "$FSTUNE_SRCDIR/tests/lib/report.sh" || exit 99
require_cmd jq
command -v promtool >/dev/null 2>&1 || skip "needs promtool (Debian package prometheus) to check the metrics"

check_clean() {
	promtool check metrics <"$1" >"$TMP/promtool" 2>&1 || fail "$2: promtool check metrics: $(cat "$TMP/promtool")"
	[ ! -s "$TMP/promtool" ] || fail "$2: promtool check metrics complains: $(cat "$TMP/promtool")"
	[ "$(tail -n 1 "$1")" = "# EOF" ] || fail "$2: does not end with # EOF"
}

for facts in $(report_facts_files); do
	report_run "$facts" openmetrics >"$TMP/m.txt"
	check_clean "$TMP/m.txt" "$facts"
	report_run "$facts" json >"$TMP/r.json"
	# one fstune_recommendation per finding, with its id, severity and setting
	jq -r '.recommendations[] | "fstune_recommendation{\(.id)|\(.severity)|\(.setting // "")}"' "$TMP/r.json" | sort >"$TMP/want"
	sed -n 's/^fstune_recommendation{.*,id="\([^"]*\)",severity="\([^"]*\)",setting="\([^"]*\)",accepted="false"} 1$/fstune_recommendation{\1|\2|\3}/p' \
		"$TMP/m.txt" | sort >"$TMP/got"
	diff "$TMP/want" "$TMP/got" >/dev/null || fail "$facts: fstune_recommendation: $(diff "$TMP/want" "$TMP/got")"
	for sev in critical warn suggest info; do
		want=$(jq --arg s "$sev" '[.recommendations[] | select(.severity == $s)] | length' "$TMP/r.json")
		grep -q "^fstune_findings{.*,severity=\"$sev\",accepted=\"false\"} $want$" "$TMP/m.txt" ||
			fail "$facts: fstune_findings for $sev is not $want: $(grep "severity=\"$sev\"" "$TMP/m.txt")"
	done
done

# Hand-written benchmark results, a failed probe and an accepted finding.
jq '.bench = {
	"rand_read_4k_qd1": {"iops": 12000, "bw_bytes_per_s": 49152000, "lat_mean_us": 80, "lat_p50_us": 75,
		"lat_p99_us": 140, "lat_p999_us": 310, "lat_max_us": 900, "samples": 24000, "ci95_pct": 2.1},
	"fsync_4k_overwrite": {"iops": 5000, "lat_mean_us": 190, "lat_p50_us": 180, "lat_p99_us": 420, "samples": 10000,
		"cpu_bound": true, "cpu_bound_reason": "the CPU"},
	"seq_write_1m": {"iops": 900, "bw_bytes_per_s": 943718400, "burst": {"burst_bytes": 1073741824,
		"burst_rate": 2000000000, "sustained_rate": 900000000}},
	"smallfile": {"tps": 900, "create_per_s": 1500.5}}
	| .unavailable["fs.inode_count"] = {"status": "failed", "reason": "ext2fs_open: Input/output error"}
	| .device.name = "nvme\"0\\n1"' "$FSTUNE_SRCDIR/tests/facts/nvme-bfq.json" >"$TMP/bench.json"
run_status 3 report_run "$TMP/bench.json" openmetrics --accept queue.bfq_on_nvme
cp "$TMP/out" "$TMP/m.txt"
check_clean "$TMP/m.txt" "hand-written benchmark results"
L='device="nvme\"0\\n1",mount_point="/var/lib/postgresql"'
for line in \
	"fstune_findings{$L,severity=\"warn\",accepted=\"true\"} 1" \
	"fstune_findings{$L,severity=\"warn\",accepted=\"false\"} 0" \
	"fstune_recommendation{$L,id=\"queue.bfq_on_nvme\",severity=\"warn\",setting=\"queue.scheduler\",accepted=\"true\"} 1" \
	"fstune_recommendation{$L,id=\"nvme_lbaf.lba_format_512e\",severity=\"info\",setting=\"\",accepted=\"false\"} 1" \
	"fstune_bench_ci95_ratio{$L,test=\"rand_read_4k_qd1\"} 0.021" \
	"fstune_probe_failures{$L,status=\"failed\"} 1" \
	"fstune_probe_failed{$L,key=\"fs.inode_count\"} 1" \
	"fstune_bench_iops{$L,test=\"rand_read_4k_qd1\"} 12000" \
	"fstune_bench_throughput_bytes_per_second{$L,test=\"rand_read_4k_qd1\"} 49152000" \
	"fstune_bench_latency_seconds{$L,test=\"fsync_4k_overwrite\",quantile=\"0.99\"} 0.00042" \
	"fstune_bench_latency_seconds{$L,test=\"rand_read_4k_qd1\",quantile=\"0.999\"} 0.00031" \
	"fstune_bench_latency_seconds_count{$L,test=\"rand_read_4k_qd1\"} 24000" \
	"fstune_bench_latency_seconds_sum{$L,test=\"rand_read_4k_qd1\"} 1.92" \
	"fstune_bench_latency_max_seconds{$L,test=\"rand_read_4k_qd1\"} 0.0009" \
	"fstune_bench_operations_per_second{$L,test=\"smallfile\",op=\"create\"} 1500.5" \
	"fstune_bench_operations_per_second{$L,test=\"smallfile\",op=\"transaction\"} 900" \
	"fstune_bench_flag{$L,test=\"fsync_4k_overwrite\",flag=\"cpu_bound\"} 1" \
	"fstune_bench_flag{$L,test=\"seq_write_1m\",flag=\"burst\"} 1"; do
	grep -qxF -- "$line" "$TMP/m.txt" || fail "missing: $line"$'\n'"$(cat "$TMP/m.txt")"
done
# Each family once, with HELP and TYPE before its samples.
dups=$(grep '^# TYPE ' "$TMP/m.txt" | sort | uniq -d)
[ -z "$dups" ] || fail "families declared twice: $dups"

# The example alerting rules are valid and fire on these metrics: one alert per finding at warn or
# above that is not accepted, none for an accepted one.
rules=$FSTUNE_SRCDIR/contrib/prometheus/fstune-alerts.yml
promtool check rules "$rules" >"$TMP/promtool" 2>&1 || fail "promtool check rules: $(cat "$TMP/promtool")"
alert_test() { # METRICS EXPECTED-ALERTS-YAML: promtool test rules on the metrics' fstune_recommendation series
	{
		printf 'rule_files: [%s]\nevaluation_interval: 1m\ntests:\n  - interval: 1m\n    input_series:\n' "$rules"
		sed -n "s/^\(fstune_recommendation{.*}\) 1$/      - series: '\1'\n        values: '1x120'/p" "$1"
		printf '    alert_rule_test:\n      - eval_time: 90m\n        alertname: FstuneFinding\n        exp_alerts:%s\n' "$2"
	} >"$TMP/alerts-test.yml"
	promtool test rules "$TMP/alerts-test.yml" >"$TMP/promtool" 2>&1 ||
		fail "promtool test rules: $(cat "$TMP/promtool")"$'\n'"$(cat "$TMP/alerts-test.yml")"
}
alert_test "$TMP/m.txt" " []"
run_status 3 report_run "$TMP/bench.json" openmetrics
alert_test "$TMP/out" "
          - exp_labels: {severity: warn, device: 'nvme\"0\\n1', mount_point: /var/lib/postgresql,
                         id: queue.bfq_on_nvme, setting: queue.scheduler, accepted: 'false'}
            exp_annotations:
              summary: 'fstune warn: queue.bfq_on_nvme on  /var/lib/postgresql'
              description: >-
                fstune recommends changing queue.scheduler on nvme\"0\\n1 (/var/lib/postgresql). Run
                \`fstune report /var/lib/postgresql\` on the host for the evidence and the commands, or
                accept the finding in /etc/fstune/accepted.conf."

# A real report with the null engine: the pipeline's own bench.* keys. Its timing checks may make it
# partial (3) on a loaded machine; the metrics are written either way.
mkdir "$TMP/target"
st=0
"$FSTUNE" report --no-system-rules --bench quick --engine null --runtime 0.3 --warmup 0.1 --busy-check 0.2 \
	--format openmetrics --quiet "$TMP/target" >"$TMP/live.txt" 2>"$TMP/err" || st=$?
[ "$st" = 0 ] || [ "$st" = 3 ] || fail "live null-engine report: status $st: $(cat "$TMP/err")"
check_clean "$TMP/live.txt" "live null-engine report"
grep -q '^fstune_bench_latency_seconds{.*test="fsync_4k_overwrite",quantile="0.99"} ' "$TMP/live.txt" ||
	fail "live report: no fsync p99"

# --output writes the file node_exporter reads; other commands refuse the format.
run_status 0 report_run healthy-default.json openmetrics --output "$TMP/fstune.prom"
check_clean "$TMP/fstune.prom" "--output"
run_status 2 "$FSTUNE" probe --format openmetrics "$TMP/target"
grep -q -- "--format openmetrics is for 'fstune report' only" "$TMP/err" || fail "probe: $(cat "$TMP/err")"
run_status 2 "$FSTUNE" compare --format openmetrics "$TMP/fstune.prom" "$TMP/fstune.prom"
echo "openmetrics output is promtool-clean and carries findings, probe failures and benchmark numbers"
