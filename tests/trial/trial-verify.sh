#!/bin/bash
# A trial's result merged into a report with `report --trial`: the probed-image fixture's reformat
# advice inodes.inode_size_128 (mkfs.ext2 -I 256) judged by a real trial of 'ext2:-I 128;ext2:-I 256'
# (the filesystem as it is, the baseline, then the advice): the verdict its comparisons give, with the
# numbers in verified_by and the note; doctored copies of its comparisons give contradicted (worse on
# one metric), unchanged (ties, and for this capacity advice a gain too), no mark but the note (not
# settled); a candidate merged into the baseline judges the advice that makes the baseline (keep it:
# confirmed when nothing beat it, contradicted naming what did). `report --facts TRIAL.json` is a usage
# error naming --trial; a --trial that is not a trial's result, or holds facts of the wrong shape, too.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
. "$FSTUNE_SRCDIR/tests/lib/trial.sh"
require_trial

host=$FSTUNE_SRCDIR/tests/facts/probed-image.json
rec=inodes.inode_size_128
run_status 0 "$FSTUNE" trial --image "$TMP/v.img" --candidates 'ext2:-I 128;ext2:-I 256' "${TRIAL_TINY[@]}" \
	--repeat 2 --json -q
cp "$TMP/out" "$TMP/trial.json"
trial_no_leftovers "$TMP/v.img"

# judged DOC [ID]: the recommendation's verified field (none when absent) from report --trial DOC
judged() {
	run_status 0 "$FSTUNE" report --no-system-rules --facts "$host" --trial "$1" --json
	jq -r --arg id "${2:-$rec}" '.recommendations[] | select(.id == $id) | .verified // "none"' "$TMP/out"
}
# doctor JQ: a copy of the real trial with its trial facts changed by JQ (on .facts.trial)
doctor() {
	jq ".facts.trial |= ($1)" "$TMP/trial.json" >"$TMP/doctored.json"
	echo "$TMP/doctored.json"
}

# the real trial: 2 rounds are too few for any verdict; the numbers and the note are there
want=$(jq -r '[.facts.trial.comparisons[] | .verdict] | if any(. == "worse") then "contradicted"
	elif all(. == "tie") then "unchanged" elif any(. == "not_settled") then "none" else "unchanged" end' "$TMP/trial.json")
assert_eq "$(judged "$TMP/trial.json")" "$want" "verdict of the real trial $(jq -c .facts.trial.comparisons "$TMP/trial.json")"
jq -e --arg id "$rec" '.recommendations[] | select(.id == $id) | (.verified_by | .candidate == "c2" and
	.spec == "ext2:-I 256" and .baseline == "c1" and .baseline_spec == "ext2:-I 128" and (.comparisons | length) == 2 and
	(.sentences | length) == 2) and (.verified_note | startswith("ext2:-I 256 against ext2:-I 128 (the trial'"'"'s baseline): "))' \
	"$TMP/out" >/dev/null || fail "verified_by: $(jq -c --arg id "$rec" '.recommendations[] | select(.id == $id)' "$TMP/out")"

# worse on writeback: contradicted, with the ratio, interval and unit
worse=$(doctor '.comparisons[0] += {verdict: "worse", ratio: 1.5, ci95: [1.4, 1.6]}')
assert_eq "$(judged "$worse")" contradicted "verdict when -I 256 wrote back slower"
jq -e --arg id "$rec" '.recommendations[] | select(.id == $id) | .verified_by |
	.ratio == 1.5 and .ci95 == [1.4, 1.6] and .unit == "s" and .metric == "writeback of the tree"' "$TMP/out" >/dev/null ||
	fail "the numbers: $(jq -c --arg id "$rec" '.recommendations[] | select(.id == $id) | .verified_by' "$TMP/out")"
run_status 0 "$FSTUNE" report --no-system-rules --facts "$host" --trial "$worse"
grep -q "trial: contradicted (ext2:-I 256 against ext2:-I 128 (the trial's baseline): writeback of the tree 1.50x slower (1.40-1.60)" \
	"$TMP/out" || fail "the text report does not give the numbers: $(grep -n trial "$TMP/out")"
run_status 0 "$FSTUNE" report --no-system-rules --facts "$host" --trial "$worse" --format markdown
grep -q "^- trial: contradicted (ext2:-I 256 against" "$TMP/out" || fail "markdown: $(grep -n trial "$TMP/out")"

# ties on both: unchanged; capacity advice measured faster on one and tied on the other: unchanged too
assert_eq "$(judged "$(doctor '.comparisons[] += {verdict: "tie", ci95: [0.99, 1.01]}')")" unchanged "ties"
assert_eq "$(judged "$(doctor '.comparisons[0].verdict = "better" | .comparisons[1].verdict = "tie"')")" unchanged \
	"capacity advice measured faster"
# not settled: no mark, the note says so in the text
ns=$(doctor '.comparisons[] += {verdict: "not_settled", more_rounds: 4}')
assert_eq "$(judged "$ns")" none "not settled"
run_status 0 "$FSTUNE" report --no-system-rules --facts "$host" --trial "$ns"
grep -q "trial: not settled (ext2:-I 256 against .*about 4 more rounds would be needed at this noise" "$TMP/out" ||
	fail "not settled in the text: $(grep -n trial "$TMP/out")"

# blocksize.below_4k (-b 4096) made by a candidate merged into the baseline: keeping the baseline
base='.c3 = {spec: "ext2:-b 4096", merged_into: "c1"} | .c1.spec = "ext2:-I 128 -b 4096"'
assert_eq "$(judged "$(doctor "$base | .comparisons[] += {verdict: \"worse\"}")" blocksize.below_4k)" confirmed \
	"the baseline that beat every other candidate"
assert_eq "$(judged "$(doctor "$base | .comparisons[0] += {verdict: \"better\", ratio: 0.5, ci95: [0.4, 0.6]}")" \
	blocksize.below_4k)" contradicted "the baseline that another candidate beat"
jq -e '.recommendations[] | select(.id == "blocksize.below_4k") | .verified_note |
	test("was beaten beyond the A/A floor: c2 \\(ext2:-I 256\\) writeback of the tree 2.00x faster")' "$TMP/out" \
	>/dev/null || fail "what beat the baseline: $(jq -c '.recommendations[] | select(.id == "blocksize.below_4k")' "$TMP/out")"

# a trial that measured nothing the advice asks for leaves it unmarked
assert_eq "$(judged "$(doctor '.c2.spec = "ext4:-b 4096"')")" none "no candidate makes the advice"

# what is refused, status 2, naming what to do
run_status 2 "$FSTUNE" report --facts "$TMP/trial.json"
grep -q "is a trial's result (fstune.trial/1), not facts: merge it into a report with \`fstune report --trial" "$TMP/err" ||
	fail "--facts TRIAL.json: $(cat "$TMP/err")"
run_status 2 "$FSTUNE" report --facts "$host" --trial "$host"
grep -q "not a trial's result" "$TMP/err" || fail "--trial FACTS: $(cat "$TMP/err")"
run_status 2 "$FSTUNE" report --facts "$host" --trial "$TMP/nosuch.json"
grep -q "nosuch.json" "$TMP/err" || fail "--trial missing: $(cat "$TMP/err")"
# on a TARGET, before its benchmarks run (their debug output would say when they take the lock)
FSTUNE_DEBUG=bench run_status 2 "$FSTUNE" report --trial "$TMP/nosuch.json" "$TMP"
grep -q "nosuch.json" "$TMP/err" && ! grep -q "fstune\[bench\]" "$TMP/err" ||
	fail "--trial missing on a TARGET: $(cat "$TMP/err")"
run_status 2 "$FSTUNE" report --facts "$host" --trial "$(doctor '.comparisons = "forged"')"
grep -q "trial.comparisons must be" "$TMP/err" || fail "--trial forged: $(cat "$TMP/err")"
# a trial of another workload than the report's: a note
run_status 0 "$FSTUNE" report --no-system-rules --facts "$host" --trial "$TMP/trial.json" --workload smallfiles
grep -q "measured the source-tree workload, this report's is smallfiles" "$TMP/err" ||
	fail "the workload note: $(cat "$TMP/err")"
exit 0
