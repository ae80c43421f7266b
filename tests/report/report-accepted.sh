#!/bin/bash
# Accepted findings: an entry of the accepted file (FSTUNE_ACCEPTED or --accepted, never /etc here)
# or --accept marks the finding in every format, takes it out of --fail-on, applies only where its
# condition holds; stale ids are reported without changing the status; bad entries are status 2
# naming file and line.
. "${FSTUNE_SRCDIR:?run the tests through make check}/tests/lib/common.sh" || exit 99
. "$FSTUNE_SRCDIR/tests/lib/report.sh" || exit 99
require_cmd jq

facts=nvme-bfq.json
# The fixture's only warn finding; if the rules stop making it, this test must be rewritten.
run_status 0 report_run "$facts" json
assert_eq "$(jq -r '[.recommendations[] | select(.severity == "warn" or .severity == "critical") | .id] | join(" ")' "$TMP/out")" \
	queue.bfq_on_nvme "warn findings of $facts"
run_status 1 report_run "$facts" json --fail-on warn

cat >"$TMP/accepted.conf" <<'EOF'
# the vendor's support contract names bfq
queue.bfq_on_nvme device.transport == nvme   # vendor support requires bfq

mount.fstrim_timer fs.mount_point == /nowhere  # does not hold: not accepted
nosuch.finding                                 # no such rule file
queue.renamed_name                             # no such finding in queue
EOF
FSTUNE_ACCEPTED=$TMP/accepted.conf run_status 0 report_run "$facts" json --fail-on warn
cp "$TMP/out" "$TMP/r.json"
assert_eq "$(jq -r '[.recommendations[] | select(.accepted) | .id] | join(" ")' "$TMP/r.json")" \
	queue.bfq_on_nvme "accepted findings"
assert_eq "$(jq -r '.recommendations[] | select(.accepted) | .accepted | "\(.by)|\(.why)|\(.condition)"' "$TMP/r.json")" \
	"$TMP/accepted.conf:2|vendor support requires bfq|device.transport == nvme" "the accepted mark"
assert_eq "$(jq -r '[.accepted_stale[].id] | join(" ")' "$TMP/r.json")" "nosuch.finding queue.renamed_name" "stale ids"
grep -q "accepted finding nosuch.finding ($TMP/accepted.conf:5) is stale: no loaded rule file has the id 'nosuch'" "$TMP/err" ||
	fail "no stale note on stderr: $(cat "$TMP/err")"
# Still listed: accepted is a mark, not a filter.
assert_eq "$(jq '.recommendations | length' "$TMP/r.json")" "$(report_run "$facts" json | jq '.recommendations | length')" \
	"recommendations with and without accepted"

FSTUNE_ACCEPTED=$TMP/accepted.conf run_status 0 report_run "$facts" text --fail-on warn
grep -q "^    Accepted: vendor support requires bfq" "$TMP/out" || fail "text shows no Accepted line"
grep -q "^Accepted findings that are stale$" "$TMP/out" || fail "text lists no stale entries"
FSTUNE_ACCEPTED=$TMP/accepted.conf run_status 0 report_run "$facts" markdown --fail-on warn
grep -q '^- \*\*accepted\*\*: vendor support requires bfq' "$TMP/out" || fail "Markdown shows no accepted line"
grep -q '^## Accepted findings that are stale$' "$TMP/out" || fail "Markdown lists no stale entries"

# A condition that does not hold accepts nothing; --accepted wins over FSTUNE_ACCEPTED.
printf 'queue.bfq_on_nvme device.transport != nvme\n' >"$TMP/other.conf"
FSTUNE_ACCEPTED=$TMP/accepted.conf run_status 1 report_run "$facts" json --fail-on warn --accepted "$TMP/other.conf"
assert_eq "$(jq '[.recommendations[] | select(.accepted)] | length' "$TMP/out")" 0 "a false condition"
# Numbers, lists and booleans.
printf 'queue.bfq_on_nvme host.mem_total_bytes >= 1000\n' >"$TMP/num.conf"
run_status 0 report_run "$facts" json --fail-on warn --accepted "$TMP/num.conf"
printf 'queue.bfq_on_nvme fs.mount_options == discard\n' >"$TMP/list.conf"
run_status 0 report_run "$facts" json --fail-on warn --accepted "$TMP/list.conf"
printf 'queue.bfq_on_nvme device.rotational == false\n' >"$TMP/bool.conf"
run_status 0 report_run "$facts" json --fail-on warn --accepted "$TMP/bool.conf"
printf 'queue.bfq_on_nvme device.scheduler < 5\n' >"$TMP/ord.conf"
run_status 1 report_run "$facts" json --fail-on warn --accepted "$TMP/ord.conf"

# --accept on the command line.
run_status 0 report_run "$facts" json --fail-on warn --accept queue.bfq_on_nvme
assert_eq "$(jq -r '.recommendations[] | select(.accepted) | .accepted.by' "$TMP/out")" "--accept" "--accept's mark"

# Bad input: status 2 with the file and line, or the option.
printf 'queue.bfq_on_nvme\nqueue.bfq_on_nvme device.transport ~= nvme\n' >"$TMP/bad.conf"
run_status 2 report_run "$facts" json --accepted "$TMP/bad.conf"
grep -q "$TMP/bad.conf:2: OP must be one of" "$TMP/err" || fail "bad OP: $(cat "$TMP/err")"
printf 'Queue bfq\n' >"$TMP/bad.conf"
run_status 2 report_run "$facts" json --accepted "$TMP/bad.conf"
grep -q "$TMP/bad.conf:1: 'Queue' is not a finding id" "$TMP/err" || fail "bad id: $(cat "$TMP/err")"
printf 'queue.bfq_on_nvme device.transport ==\n' >"$TMP/bad.conf"
run_status 2 report_run "$facts" json --accepted "$TMP/bad.conf"
run_status 2 report_run "$facts" json --accepted "$TMP/missing.conf"
grep -q "cannot read the accepted findings file $TMP/missing.conf" "$TMP/err" || fail "missing file: $(cat "$TMP/err")"
run_status 2 report_run "$facts" json --accept bfq
grep -q -- "--accept 'bfq' is not a finding id" "$TMP/err" || fail "bad --accept: $(cat "$TMP/err")"
echo "accepted findings are marked, leave --fail-on, follow their conditions; stale and bad entries reported"
