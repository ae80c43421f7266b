#!/bin/bash
# fstune compare: reports of different machines and of two runs side by side in the three formats,
# new and gone findings against the first report, --fail-on new-warn (accepted findings excluded),
# ids whose meaning changed between fstune versions, and bad input (status 2 with a clear message).
. "${FSTUNE_SRCDIR:?run the tests through make check}/tests/lib/common.sh" || exit 99
. "$FSTUNE_SRCDIR/tests/lib/report.sh" || exit 99
require_cmd jq

for f in healthy-default nvme-bfq xfs-md-raid; do
	report_run "$f.json" json >"$TMP/$f.json"
done
cd "$TMP"

# Many hosts: the hand-written facts of three machines.
run_status 0 "$FSTUNE" compare --json healthy-default.json nvme-bfq.json xfs-md-raid.json
cp out many.json
assert_eq "$(jq -r .schema many.json)" fstune.compare/1 "schema"
assert_eq "$(jq -r '[.reports[].label] | join(" ")' many.json)" \
	"healthy-default.json nvme-bfq.json xfs-md-raid.json" "labels (one host ran all three: file names)"
assert_eq "$(jq -r '.findings[] | select(.id == "queue.bfq_on_nvme") | "\(.status) \(.reports | map(.severity // "-") | join(","))"' many.json)" \
	"new -,warn,-" "the bfq finding"
# What differs comes first: every "same" row after every other.
jq -e '[.findings[].status] | (map(select(. == "same")) | length) as $n | .[length - $n:] | all(. == "same")' many.json >/dev/null ||
	fail "findings not ordered with what differs first"
assert_eq "$(jq -r '.facts[] | select(.key == "device.scheduler") | "\(.kind) \(.differs) \(.values | join(","))"' many.json)" \
	"setting true mq-deadline,bfq,none" "device.scheduler row"
assert_eq "$(jq -r '.facts[] | select(.key == "device.serial") | .kind' many.json)" identity "serials are identity facts"
assert_eq "$(jq '.summary.facts_differ' many.json)" "$(jq '[.facts[] | select(.kind == "setting" and .differs)] | length' many.json)" \
	"summary counts the settings that differ"

# Text and Markdown show the same rows as JSON (counts from the JSON: the rule set grows).
ndiff=$(jq '[.findings[] | select(.status != "same")] | length' many.json)
nfail=$(jq '.summary.new_failing' many.json)
assert_eq "$nfail" 1 "new findings at warn or above (bfq on NVMe)"
run_status 0 "$FSTUNE" compare healthy-default.json nvme-bfq.json xfs-md-raid.json
grep -q "^Findings that differ ($ndiff)$" out || fail "text: no 'Findings that differ ($ndiff)': $(cat out)"
grep -Eq '^  queue\.bfq_on_nvme +new +- +warn +-$' out || fail "text: no bfq row"
grep -Eq '^  device\.scheduler +mq-deadline +bfq +none$' out || fail "text: no scheduler row"
sum=$(jq -r '.summary | "\(.new) new (\(.new_failing) at warn or above, not accepted), \(.gone) gone, \(.changed) changed, \(.same) the same; \(.facts_differ) facts differ"' many.json)
grep -qxF "Summary: $sum" out ||
	fail "text summary: $(tail -n 1 out)"
run_status 0 "$FSTUNE" compare --format markdown healthy-default.json nvme-bfq.json xfs-md-raid.json
grep -q '^| queue\\_bfq\\_on\\_nvme | new | - | warn | - |$' out || grep -q '^| queue.bfq\\_on\\_nvme | new | - | warn | - |$' out ||
	fail "Markdown: no bfq row: $(grep bfq out)"
grep -q '^## Facts that differ' out || fail "Markdown: no facts section"

# Two runs: new since the baseline, gone, and the drift check of cron.
run_status 1 "$FSTUNE" compare --fail-on new-warn healthy-default.json nvme-bfq.json
run_status 0 "$FSTUNE" compare --fail-on new-warn nvme-bfq.json healthy-default.json
ngone=$(jq -n --slurpfile a nvme-bfq.json --slurpfile b healthy-default.json \
	'[$a[0].recommendations[].id] - [$b[0].recommendations[].id] | length')
grep -q "^Summary: [0-9]* new (0 at warn or above, not accepted), $ngone gone" out || fail "gone: $(tail -n 1 out)"
run_status 0 "$FSTUNE" compare --fail-on new-critical healthy-default.json nvme-bfq.json
run_status 0 "$FSTUNE" compare --fail-on new-warn --accept queue.bfq_on_nvme healthy-default.json nvme-bfq.json
grep -Eq '^  queue\.bfq_on_nvme +new +- +warn \(accepted\)$' out || fail "--accept not shown: $(grep bfq out)"
# Accepted on the host (the mark in the report) or in a file applied here.
printf 'queue.bfq_on_nvme device.transport == nvme # vendor\n' >acc.conf
report_run nvme-bfq.json json --accepted "$TMP/acc.conf" >nvme-accepted.json
run_status 0 "$FSTUNE" compare --fail-on new-warn healthy-default.json nvme-accepted.json
FSTUNE_ACCEPTED=$TMP/acc.conf run_status 0 "$FSTUNE" compare --fail-on new-warn healthy-default.json nvme-bfq.json
run_status 1 "$FSTUNE" compare --fail-on new-warn --accepted /dev/null healthy-default.json nvme-bfq.json
# The same file twice: nothing differs.
cp nvme-bfq.json again.json
run_status 0 "$FSTUNE" compare --fail-on new-warn --json nvme-bfq.json again.json
assert_eq "$(jq -c '[.summary.new, .summary.gone, .summary.changed, .summary.facts_differ]' out)" "[0,0,0,0]" "identical reports"
# A severity that changed between runs.
jq '(.recommendations[] | select(.id == "queue.bfq_on_nvme") | .severity) = "critical"' nvme-bfq.json >worse.json
run_status 0 "$FSTUNE" compare --json nvme-bfq.json worse.json
assert_eq "$(jq -r '.findings[0] | "\(.id) \(.status)"' out)" "queue.bfq_on_nvme changed" "a changed severity"

# Hosts name the columns when they differ; an id that changed meaning between versions is noted.
jq '.generated.host = "db1"' nvme-bfq.json >db1.json
jq '.generated.host = "db2" | .generated.version = "9.0" |
	(.recommendations[] | select(.id == "queue.bfq_on_nvme") | .setting) = "queue.nr_requests"' nvme-bfq.json >db2.json
run_status 0 "$FSTUNE" compare --json db1.json db2.json
assert_eq "$(jq -r '[.reports[].label] | join(" ")' out)" "db1 db2" "host labels"
jq -e '.notes[] | select(startswith("queue.bfq_on_nvme changed meaning between fstune ") and contains("9.0"))' out >/dev/null ||
	fail "no note on the changed meaning: $(jq -c .notes out)"

# Two runs kept under one name in two directories: the columns are the times they were made; the
# same file twice: the position.
mkdir yesterday today
jq '.generated.time = "2026-11-30T03:00:00Z"' nvme-bfq.json >yesterday/report.json
jq '.generated.time = "2026-12-01T03:00:00Z"' nvme-bfq.json >today/report.json
run_status 0 "$FSTUNE" compare --json yesterday/report.json today/report.json
assert_eq "$(jq -r '[.reports[].label] | join(" ")' out)" "2026-11-30T03:00:00Z 2026-12-01T03:00:00Z" "labels of two runs"
run_status 0 "$FSTUNE" compare --json today/report.json today/report.json
assert_eq "$(jq -r '[.reports[].label] | join(" ")' out)" "1:report.json 2:report.json" "labels of one file twice"

# Bad input: status 2 and a message naming the file.
run_status 2 "$FSTUNE" compare nvme-bfq.json
grep -q "compare needs two reports or more" err || fail "one file: $(cat err)"
echo 'not json' >bad.txt
run_status 2 "$FSTUNE" compare nvme-bfq.json bad.txt
grep -q "bad.txt: not a JSON report" err || fail "not JSON: $(cat err)"
echo '{"a": 1}' >plain.json
run_status 2 "$FSTUNE" compare nvme-bfq.json plain.json
grep -q 'plain.json: not an fstune report' err || fail "not a report: $(cat err)"
jq .facts nvme-bfq.json >facts.json
run_status 2 "$FSTUNE" compare nvme-bfq.json facts.json
grep -q 'facts.json: a fstune.facts/1 document, not an fstune.report/1' err || fail "a facts file: $(cat err)"
run_status 2 "$FSTUNE" compare nvme-bfq.json missing.json
grep -q 'missing.json: not a JSON report: unable to open' err || fail "missing file: $(cat err)"
run_status 2 "$FSTUNE" compare --fail-on warn nvme-bfq.json again.json
grep -q "unknown --fail-on 'warn': use new-warn or new-critical" err || fail "bad --fail-on: $(cat err)"
echo "compare shows what differs first in three formats, fails on new warnings, notes changed ids, rejects bad input"
