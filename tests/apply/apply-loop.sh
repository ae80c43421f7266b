#!/bin/bash
# fstune apply and undo, for real on a loop-mounted ext4 with a scratch --root: a read-ahead (the
# shipped readahead rule), the loop's bdi limits (test rules) and a remount option (mount.lua's
# noatime over strictatime); each verified, then undone: every value and every file as before. Also:
# --dry-run changes nothing, --root without --live leaves the running system alone, a value that does
# not take rolls the run back (status 3), undo refuses a value changed since (4) unless --force, and
# a saved report is applied only while its values are still current.
. "${FSTUNE_SRCDIR:?run the tests through make check}/tests/lib/common.sh" || exit 99
private_mount_ns "$@"
. "$FSTUNE_SRCDIR/tests/lib/apply.sh"
apply_setup

ONLY=readahead.lower_for_random,applytest.bdi_cap,applytest.bdi_strict,mount.strictatime
before_values=$(values)
before_tree=$(tree_sum)
echo "before: $before_values"

# --dry-run: the plan, nothing changed, no journal.
run_status 0 "$FSTUNE" apply "${RULES[@]}" "${WORKLOAD[@]}" --only "$ONLY" --root "$ROOT" --live --host-wide --dry-run "$mnt"
grep -q "would run: echo 128 > /sys/block/$disk/queue/read_ahead_kb" "$TMP/out" || fail "dry run: $(cat "$TMP/out")"
assert_eq "$(values)" "$before_values" "values after --dry-run"
[ ! -e "$ROOT/var" ] || fail "--dry-run wrote a journal"

# Not on a terminal, without --yes: refused.
run_status 4 "$FSTUNE" apply "${RULES[@]}" "${WORKLOAD[@]}" --only "$ONLY" --root "$ROOT" --live --host-wide "$mnt" </dev/null
grep -q -- "--yes" "$TMP/err" || fail "no --yes hint: $(cat "$TMP/err")"

# The real thing.
run_status 0 "$FSTUNE" apply "${RULES[@]}" "${WORKLOAD[@]}" --only "$ONLY" --root "$ROOT" --live --host-wide --yes --json "$mnt"
cp "$TMP/out" "$TMP/applied.json"
after=$(values)
echo "after:  $after"
assert_eq "$after" "ra=128 max_ratio=60 strict=1 opts=rw,noatime" "values after apply"
jq -e '[.changes[] | select(.state == "done" and .verified == true)] | length == 4' "$TMP/applied.json" >/dev/null ||
	fail "not 4 verified changes: $(jq -c '[.changes[] | {setting, state, verified}]' "$TMP/applied.json")"
grep -q "^$dev $mnt ext4 nofail,noatime 0 2\$" "$ROOT/etc/fstab" || fail "fstab: $(cat "$ROOT/etc/fstab")"
udev=$ROOT/etc/udev/rules.d/69-fstune.rules
for attr in 'queue/read_ahead_kb}="128"' 'bdi/max_ratio}="60"' 'bdi/strict_limit}="1"'; do
	grep -q "KERNEL==\"$disk\", ATTR{$attr" "$udev" || fail "udev rule $attr missing: $(cat "$udev")"
done
journal=$(jq -r .journal "$TMP/applied.json")
[ "$journal" = "$(last_journal)" ] || fail "journal $journal is not under --root"
assert_eq "$(jq -r .run.state "$journal")" done "journal state"
assert_eq "$(jq -r '.changes[] | select(.setting == "queue.read_ahead_kb") | "\(.old) \(.new)"' "$journal")" "1024 128" \
	"journal old and new read-ahead"
jq -e '.changes[] | select(.setting == "mount.option.noatime") | .files[0].previous | test("strictatime,nofail")' \
	"$journal" >/dev/null || fail "the journal lacks fstab's previous content"

run_status 0 "$FSTUNE" history --root "$ROOT" --json
assert_eq "$(jq -r '.[0].undone' "$TMP/out")" false "history before undo"
assert_eq "$(jq -r '.[0].changes | length' "$TMP/out")" 4 "history's changes"

run_status 0 "$FSTUNE" undo --last --root "$ROOT" --live
assert_eq "$(values)" "$before_values" "values after undo"
assert_eq "$(tree_sum)" "$before_tree" "files under --root after undo"
run_status 0 "$FSTUNE" history --root "$ROOT"
grep -q "done, undone" "$TMP/out" || fail "history does not say undone: $(cat "$TMP/out")"
run_status 0 "$FSTUNE" undo --last --root "$ROOT" --live
grep -q "left to undo" "$TMP/out" || fail "a second undo --last: $(cat "$TMP/out")"

# --root without --live: only the files; the running system is left alone, and said so.
run_status 0 "$FSTUNE" apply "${RULES[@]}" "${WORKLOAD[@]}" --only "$ONLY" --root "$ROOT" --yes "$mnt"
grep -q "not run (--root without --live)" "$TMP/out" || fail "not said: $(cat "$TMP/out")"
assert_eq "$(values)" "$before_values" "values after apply --root without --live"
grep -q noatime "$ROOT/etc/fstab" || fail "fstab not edited under --root"
run_status 0 "$FSTUNE" undo --last --root "$ROOT" --dry-run
grep -q "would restore /etc/fstab" "$TMP/out" || fail "undo --dry-run: $(cat "$TMP/out")"
grep -q noatime "$ROOT/etc/fstab" || fail "undo --dry-run changed fstab"
run_status 0 "$FSTUNE" undo --last --root "$ROOT"
assert_eq "$(tree_sum)" "$before_tree" "files after undo --root"

# A value that does not take: read-ahead 130 KiB reads back 128 (whole pages). The run is rolled
# back, the bdi limit it set first included, and the status is 3 naming the setting.
run_status 3 "$FSTUNE" apply "${RULES[@]}" --only applytest.bdi_cap,applytest.odd_readahead --root "$ROOT" --live --host-wide --yes "$mnt"
grep -q "queue.read_ahead_kb did not take: set to 130, it reads back 128" "$TMP/err" || fail "no reason: $(cat "$TMP/err")"
assert_eq "$(values)" "$before_values" "values after a rolled-back run"
assert_eq "$(tree_sum)" "$before_tree" "files after a rolled-back run"
assert_eq "$(jq -r .run.state "$(last_journal)")" rolled-back "the rolled-back journal's state"
run_status 0 "$FSTUNE" undo --last --root "$ROOT" --live
grep -q "left to undo" "$TMP/out" || fail "a rolled-back run is left to undo: $(cat "$TMP/out")"

# Someone changes a value after apply: undo refuses (4) naming it, changes nothing; --force undoes.
run_status 0 "$FSTUNE" apply "${RULES[@]}" --only applytest.bdi_cap --root "$ROOT" --live --host-wide --yes "$mnt"
echo 70 >"/sys/block/$disk/bdi/max_ratio"
run_status 4 "$FSTUNE" undo --last --root "$ROOT" --live
grep -q "bdi.max_ratio is 70 now, not 60" "$TMP/err" || fail "refusal: $(cat "$TMP/err")"
assert_eq "$(cat "/sys/block/$disk/bdi/max_ratio")" 70 "a refused undo changed the value"
run_status 0 "$FSTUNE" undo --last --root "$ROOT" --live --force
assert_eq "$(values)" "$before_values" "values after undo --force"
assert_eq "$(tree_sum)" "$before_tree" "files after undo --force"

# Saved facts: the rules evaluated on them, the target they name (the mount point) probed to check
# that their values are still current.
run_status 0 "$FSTUNE" probe --json "$mnt"
cp "$TMP/out" "$TMP/facts.json"
run_status 0 "$FSTUNE" apply --facts "$TMP/facts.json" "${RULES[@]}" --only applytest.bdi_cap --root "$ROOT" --live --host-wide --yes
assert_eq "$(cat "/sys/block/$disk/bdi/max_ratio")" 60 "bdi.max_ratio from saved facts"
run_status 0 "$FSTUNE" undo --last --root "$ROOT" --live
assert_eq "$(values)" "$before_values" "values after undoing the saved facts' change"

# A saved report: applied while its values are current; refused (4) naming the setting once one
# changed; refused when it names another host.
run_status 0 "$FSTUNE" report --bench none "${RULES[@]}" "${WORKLOAD[@]}" --json "$mnt"
cp "$TMP/out" "$TMP/report.json"
run_status 0 "$FSTUNE" apply --report "$TMP/report.json" --only readahead.lower_for_random --root "$ROOT" --live --host-wide --yes
assert_eq "$(cat "/sys/block/$disk/queue/read_ahead_kb")" 128 "read-ahead from the saved report"
run_status 0 "$FSTUNE" undo --last --root "$ROOT" --live
echo 512 >"/sys/block/$disk/queue/read_ahead_kb"
run_status 4 "$FSTUNE" apply --report "$TMP/report.json" --only readahead.lower_for_random --root "$ROOT" --live --host-wide --yes
grep -q "queue.read_ahead_kb was 1024 when the report was made and is 512 now" "$TMP/err" || fail "stale: $(cat "$TMP/err")"
assert_eq "$(cat "/sys/block/$disk/queue/read_ahead_kb")" 512 "a refused report changed the value"
echo 1024 >"/sys/block/$disk/queue/read_ahead_kb"
jq '.generated.host = "elsewhere.example"' "$TMP/report.json" >"$TMP/other.json"
run_status 4 "$FSTUNE" apply --report "$TMP/other.json" --root "$ROOT" --live --host-wide --yes
grep -q "made on host elsewhere.example" "$TMP/err" || fail "another host: $(cat "$TMP/err")"
assert_eq "$(values)" "$before_values" "values at the end"
assert_eq "$(tree_sum)" "$before_tree" "files at the end"
echo ok
