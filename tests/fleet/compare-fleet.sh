#!/bin/bash
# fstune compare at fleet size: 40 reports (tests/lib/make-fleet.sh) give the summary, not the grid: each
# finding's severity and host count as the reports have them, new/gone against the baseline, each
# differing setting's distribution of values, the groups of hosts with identical advice (every host
# in one group, as many groups as distinct sets of findings), no line wider than 200 columns; the
# memory each host had free is not a difference. --hosts gives the grid, JSON keeps every value.
# --bench compares benchmark rates with their intervals: the same report twice (A/A) differs in
# nothing; a rate halved is slower, one moved inside its interval is the same, one without an
# interval is said to have none; columns stay aligned with "±" and "µs" in them.
. "${FSTUNE_SRCDIR:?run the tests through make check}/tests/lib/common.sh" || exit 99
require_cmd jq python3

N=40
"$FSTUNE_SRCDIR/tests/lib/make-fleet.sh" "$FSTUNE" "$N" "$TMP/fleet" >/dev/null
files=("$TMP"/fleet/host*.json)
assert_eq "${#files[@]}" "$N" "reports made"

run_status 0 "$FSTUNE" compare --json "${files[@]}"
cp "$TMP/out" "$TMP/model.json"
assert_eq "$(jq -r .view "$TMP/model.json")" summary "the view past 8 reports"
assert_eq "$(jq '.reports | length' "$TMP/model.json")" "$N" "JSON keeps every report"
assert_eq "$(jq '[.findings[].reports | length] | unique' -c "$TMP/model.json")" "[$N]" "JSON keeps every cell"
# The host counts, from the reports themselves.
jq -s '[.[].recommendations[].id] | group_by(.) | map({(.[0]): length}) | add' "${files[@]}" >"$TMP/counts.json"
assert_eq "$(jq -c '[.fleet.findings[] | {(.id): .hosts}] | add' "$TMP/model.json" | jq -S -c .)" \
	"$(jq -S -c . "$TMP/counts.json")" "each finding's host count"
base_ids=$(jq -c '[.recommendations[].id]' "${files[0]}")
jq -e --argjson b "$base_ids" 'all(.fleet.findings[]; (.in_baseline == (.id | IN($b[]))) and
	(.status == (if .in_baseline then (if .hosts < '"$N"' then "gone" else (.status) end) else "new" end)))' \
	"$TMP/model.json" >/dev/null || fail "new/gone against the baseline: $(jq -c '[.fleet.findings[] | [.id, .status, .hosts, .in_baseline]]' "$TMP/model.json")"
# A setting's distribution, from the reports.
want=$(jq -s -c '[.[].facts.device.scheduler] | group_by(.) | map({v: .[0], n: length}) | sort_by(-.n, (.v | tostring)) | map("\(.v)=\(.n)")' "${files[@]}")
got=$(jq -c '[.fleet.settings[] | select(.key == "device.scheduler") | .values[]] | sort_by(-.hosts, (.value | tostring)) | map("\(.value)=\(.hosts)")' "$TMP/model.json")
assert_eq "$got" "$want" "device.scheduler's distribution"
# Groups: every host in exactly one, one per distinct set of findings.
assert_eq "$(jq '[.fleet.groups[].hosts] | add' "$TMP/model.json")" "$N" "hosts over the groups"
assert_eq "$(jq '[.fleet.groups[].labels[]] | unique | length' "$TMP/model.json")" "$N" "each host in one group"
assert_eq "$(jq '.fleet.groups | length' "$TMP/model.json")" \
	"$(jq -s '[.[] | [.recommendations[] | "\(.id)=\(.severity)"] | sort] | unique | length' "${files[@]}")" "groups"
# Memory available moves from run to run: measured, not a difference.
assert_eq "$(jq -r '.facts[] | select(.key == "host.mem_available_bytes") | .kind' "$TMP/model.json")" measured \
	"host.mem_available_bytes"
jq -e '[.fleet.settings[].key] | index("host.mem_available_bytes") == null' "$TMP/model.json" >/dev/null ||
	fail "memory available counted as a setting that differs"

# The text: the same numbers, short lines.
for fmt in text markdown; do
	run_status 0 "$FSTUNE" compare --format "$fmt" "${files[@]}"
	cp "$TMP/out" "$TMP/fleet.$fmt"
	width=$(LC_ALL=C.UTF-8 wc -L <"$TMP/fleet.$fmt")
	[ "$width" -le 200 ] || fail "$fmt: a line of $width columns"
	lines=$(wc -l <"$TMP/fleet.$fmt")
	[ "$lines" -le 300 ] || fail "$fmt: $lines lines"
	! grep -Eq '^(  host0040|- \*\*host0040\*\*): ' "$TMP/fleet.$fmt" || fail "$fmt: the grid's list of reports"
	grep -q "Summary: " "$TMP/fleet.$fmt" || fail "$fmt: no summary line"
done
grep -q "^40 reports, the fleet summarised" "$TMP/fleet.text" || fail "text: no fleet header: $(head -5 "$TMP/fleet.text")"
while read -r id sev hosts; do
	grep -Eq "^  $id +$sev +$hosts +" "$TMP/fleet.text" || fail "text: no row '$id $sev $hosts': $(grep "$id" "$TMP/fleet.text")"
done < <(jq -r '.fleet.findings[] | select((.by_severity | length) == 1) | "\(.id | gsub("\\."; "\\.")) \(.severity) \(.hosts)"' "$TMP/model.json")
grep -q "^Hosts with identical advice ($(jq '.fleet.groups | length' "$TMP/model.json") groups)$" "$TMP/fleet.text" ||
	fail "text: no groups section"
grep -q '^## Settings that differ' "$TMP/fleet.markdown" || fail "markdown: no settings section"
# A finding few hosts have names them.
few=$(jq -r '[.fleet.findings[] | select(.hosts <= 3)][0] | "\(.id) \(.with | join(", "))"' "$TMP/model.json")
if [ "$few" != "null " ]; then
	grep -qF -- "${few#* }" "$TMP/fleet.text" || fail "text: the hosts of a rare finding are not named ($few)"
fi

# --hosts: the grid, a column per host.
run_status 0 "$FSTUNE" compare --hosts "${files[@]}"
grep -q '^  host0040: ' "$TMP/out" || fail "--hosts: no column for host0040"
grep -Eq '^  finding +status +host0001 +host0002 ' "$TMP/out" || fail "--hosts: no grid header"
run_status 0 "$FSTUNE" compare --hosts --json "${files[@]}"
assert_eq "$(jq -r .view "$TMP/out")" grid "--hosts in the model"

# --bench: A/A first, then known changes.
"$FSTUNE" report --no-system-rules --facts "$FSTUNE_SRCDIR/tests/facts/measured-kvm-guest.json" --json >"$TMP/a.json"
cp "$TMP/a.json" "$TMP/a2.json"
run_status 0 "$FSTUNE" compare --bench --json "$TMP/a.json" "$TMP/a2.json"
assert_eq "$(jq .summary.bench_differ "$TMP/out")" 0 "A/A: the same figures"
jq -e '[.bench[].reports[1].verdict] | all(. == "same")' "$TMP/out" >/dev/null || fail "A/A: $(jq -c '.bench' "$TMP/out")"
jq '.facts.bench.rand_read_4k_qd32.iops /= 2 | .facts.bench.seq_read_1m.bw_bytes_per_s *= 0.97 |
	del(.facts.bench.seq_write_1m.ci95_pct) | .facts.host.mem_available_bytes += 1048576' "$TMP/a.json" >"$TMP/b.json"
run_status 0 "$FSTUNE" compare --bench --json "$TMP/a.json" "$TMP/b.json"
verdict() { jq -r --arg t "$1" --arg m "$2" '.bench[] | select(.test == $t and .metric == $m) | .reports[1].verdict' "$TMP/out"; }
assert_eq "$(verdict rand_read_4k_qd32 iops)" slower "a rate halved"
assert_eq "$(verdict seq_read_1m bw_bytes_per_s)" same "3% inside a 4.6% interval"
assert_eq "$(verdict seq_write_1m iops)" "no interval" "a figure without its interval"
assert_eq "$(jq .summary.bench_differ "$TMP/out")" 1 "benchmark figures that differ"
assert_eq "$(jq .summary.facts_differ "$TMP/out")" 0 "measured facts are not settings that differ"
run_status 0 "$FSTUNE" compare "$TMP/a.json" "$TMP/b.json"
! grep -q 'bench\.' "$TMP/out" || fail "without --bench, benchmark figures are listed: $(grep 'bench\.' "$TMP/out" | head -3)"
grep -q "are not compared:" "$TMP/out" || fail "without --bench, no word on the measured facts"
run_status 0 "$FSTUNE" compare --bench "$TMP/a.json" "$TMP/b.json"
grep -Eq '^  rand_read_4k_qd32 iops +35\.0k/s ±23\.1% +17\.5k/s ±23\.1% slower -50\.0%$' "$TMP/out" ||
	fail "--bench text: no slower row: $(grep qd32 "$TMP/out")"
# Aligned by characters: every row of the table has its second column at the header's.
python3 - "$TMP/out" <<'PY' || fail "--bench text: columns not aligned: $(sed -n '/^Benchmarks/,/^$/p' "$TMP/out")"
import re, sys
table = open(sys.argv[1], encoding="utf-8").read().split("\nBenchmarks")[1].split("\n\n")[0]
rows = table.splitlines()[2:]
starts = {re.match(r"  \S.*?\S  +(\S)", r).start(1) for r in rows}
sys.exit(0 if len(rows) > 2 and len(starts) == 1 else 1)
PY
echo "compare summarises a fleet, keeps the grid for --hosts, and compares benchmarks only within their intervals"
