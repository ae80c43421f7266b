#!/bin/bash
# The daily drift check of the package (contrib/systemd/fstune-drift, run by fstune-drift.service) on
# a loop-mounted ext4: the first run keeps its report as the baseline and writes nothing on the
# target; a warning that appears later fails the run (status 1) and keeps the baseline, so the next
# day fails too; accepted (FSTUNE_ACCEPTED, as /etc/fstune/accepted.conf would be) it passes and
# becomes the baseline. A target that cannot be reported on is status 2, the others still checked.
# The units pass systemd-analyze verify where the package is installed (tests/fleet/ansible-deb.sh).
. "${FSTUNE_SRCDIR:?run the tests through make check}/tests/lib/common.sh" || exit 99
private_mount_ns "$@"
require_loop
require_cmd mkfs.ext4 jq

DRIFT=$FSTUNE_SRCDIR/contrib/systemd/fstune-drift
make_image "$TMP/img" 64M
dev=$(attach_loop "$TMP/img")
mkfs.ext4 -q -F "$dev"
mnt=$(mount_tmp "$dev")
export FSTUNE=$FSTUNE FSTUNE_DRIFT_DIR=$TMP/drift FSTUNE_DRIFT_TARGETS=$mnt FSTUNE_RULES_PATH= FSTUNE_ACCEPTED=/dev/null
state() { find "$mnt" -printf '%p %s %T@\n' | sort; }
before=$(state)

# Day 1: the baseline. Day 2: nothing new.
run_status 0 "$DRIFT" </dev/null
grep -q "first report, kept as the baseline" "$TMP/out" || fail "day 1: $(cat "$TMP/out" "$TMP/err")"
base=$(ls "$TMP/drift")
assert_eq "$(jq -r .schema "$TMP/drift/$base")" fstune.report/1 "the baseline kept"
jq -e '.facts.bench == null' "$TMP/drift/$base" >/dev/null || fail "the drift check ran a benchmark"
run_status 0 "$DRIFT" </dev/null
grep -q "Summary: 0 new (0 at warn or above, not accepted)" "$TMP/out" || fail "day 2: $(cat "$TMP/out" "$TMP/err")"

# Day 3: a rule that warns on ext4 arrives: the check fails, the baseline stays; day 4 fails again.
export FSTUNE_RULES_PATH=$FSTUNE_SRCDIR/tests/facts/rules-threshold
cp "$TMP/drift/$base" "$TMP/base.json"
for day in 3 4; do
	run_status 1 "$DRIFT" </dev/null
	grep -q "a warning appeared" "$TMP/err" || fail "day $day: no drift said: $(cat "$TMP/out" "$TMP/err")"
	cmp -s "$TMP/base.json" "$TMP/drift/$base" || fail "day $day: the baseline was replaced by the drifted report"
done
# Day 5: the admin accepts it: the check passes and the report becomes the baseline.
printf 'threshold_for_tests.ext4_seen  # the test fleet is ext4 on purpose\n' >"$TMP/accepted.conf"
export FSTUNE_ACCEPTED=$TMP/accepted.conf
run_status 0 "$DRIFT" </dev/null
jq -e '.recommendations[] | select(.id == "threshold_for_tests.ext4_seen")' "$TMP/drift/$base" >/dev/null ||
	fail "day 5: the accepted finding is not in the new baseline"
assert_eq "$(state)" "$before" "the target after five drift checks"

# A target that cannot be reported on: status 2, said; the good target is still compared.
FSTUNE_DRIFT_TARGETS="$TMP/no-such-dir $mnt" run_status 2 "$DRIFT" </dev/null
grep -q "no-such-dir: fstune report failed (status 2)" "$TMP/err" || fail "bad target: $(cat "$TMP/err")"
grep -q "$mnt: Summary: 0 new" "$TMP/out" || fail "bad target: the good one was not checked: $(cat "$TMP/out")"
[ -z "$(ls "$TMP/drift" | grep today)" ] || fail "a today's report was left: $(ls "$TMP/drift")"
echo "the drift check keeps a baseline, fails on a new warning until it is fixed or accepted, and writes nothing on the target"
