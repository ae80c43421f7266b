#!/bin/bash
# `fstune report TARGET`: the probing path of the session. On a captured machine (--sysroot) the
# report carries the probed facts and says what was examined; on a live directory it runs end to end;
# a TARGET that does not exist is an input error (2), and benchmarks of a captured machine are refused
# (2). Benchmarks on live targets are tests/report/report-bench.sh's.
. "${FSTUNE_SRCDIR:?run the tests through make check}/tests/lib/common.sh" || exit 99
require_cmd jq

NVME="$FSTUNE_SRCDIR/tests/fixtures/sysroot/simple-nvme"
[ -d "$NVME" ] || skip "no sysroot fixture simple-nvme"
R=("$FSTUNE" report --no-system-rules)

run_status 0 "${R[@]}" --sysroot "$NVME" --json nvme0n1
cp "$TMP/out" "$TMP/nvme.json"
assert_eq "$(jq -r .schema "$TMP/nvme.json")" fstune.report/1 "schema"
assert_eq "$(jq -r .generated.target "$TMP/nvme.json")" /dev/nvme0n1 "generated.target"
assert_eq "$(jq -r .facts.device.transport "$TMP/nvme.json")" nvme "device.transport"
assert_eq "$(jq -r '.facts.sources["device.transport"]' "$TMP/nvme.json")" sysfs "source of device.transport"
assert_eq "$(jq -r '.generated.facts_file // "none"' "$TMP/nvme.json")" none "generated.facts_file"

run_status 0 "${R[@]}" --sysroot "$NVME" nvme0n1
grep -q "^  Input       /dev/nvme0n1 (block device)$" "$TMP/out" || fail "text: the input is not named"
grep -A1 "^  Device  " "$TMP/out" | tr -s ' \n' ' ' |
	grep -q "^ Device /dev/nvme0n1, KINGSTON SKC1000240G, nvme, non-rotational, 223.6 GiB $" ||
	fail "text: the device line is wrong"
grep -q "^  Measured    nothing: a captured machine (--sysroot) cannot be benchmarked" "$TMP/out" ||
	fail "text: does not say that nothing was measured"

# The same facts, saved by the report and read back, give the same recommendations.
jq .facts "$TMP/nvme.json" >"$TMP/facts.json"
run_status 0 "${R[@]}" --facts "$TMP/facts.json" --json
assert_eq "$(jq -c '[.recommendations[].id]' "$TMP/out")" "$(jq -c '[.recommendations[].id]' "$TMP/nvme.json")" \
	"recommendations from the saved facts"

# A live directory: end to end, nothing failed (--bench none: the default there is quick).
mkdir "$TMP/live"
run_status 0 "${R[@]}" --bench none --json "$TMP/live"
assert_eq "$(jq -r .generated.target "$TMP/out")" "$TMP/live" "generated.target of a directory"
[ "$(jq -r '.facts.fs.type // empty' "$TMP/out")" != "" ] || fail "live directory: no fs.type"

run_status 2 "${R[@]}" "$TMP/does-not-exist"
grep -q "does-not-exist" "$TMP/err" || fail "a missing TARGET is not named"
run_status 2 "${R[@]}" --bench quick --sysroot "$NVME" nvme0n1
grep -q -- "--bench none" "$TMP/err" || fail "--bench quick under --sysroot: no clear message"
echo "report on targets works"
