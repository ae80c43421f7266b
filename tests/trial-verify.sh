#!/bin/bash
# A trial's trial.* facts fed to `report --facts` mark the reformat recommendation they measured: the
# probed-image fixture's inodes.inode_size_128 (mkfs.ext2 -I 256) against a trial of 'ext2:-I 256' and
# 'ext2:-I 128'. The real result gives the verdict its ranks say; a doctored copy where -I 256 won
# marks it confirmed, and one where -I 128 won marks it contradicted, with the numbers.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
. "$FSTUNE_SRCDIR/tests/trial-lib.sh"
require_trial

host=$FSTUNE_SRCDIR/tests/facts/probed-image.json
rec=inodes.inode_size_128
run_status 0 "$FSTUNE" trial --image "$TMP/v.img" --candidates 'ext2:-I 256;ext2:-I 128' "${TRIAL_TINY[@]}" \
	--repeat 1 --json
jq '.facts.trial' "$TMP/out" >"$TMP/trial.json"
trial_no_leftovers "$TMP/v.img"

# verdict TRIAL_JSON: the recommendation's verified field from report --facts on the merged facts
verdict() {
	jq -s '.[0] * {trial: .[1]}' "$host" "$1" >"$TMP/merged.json"
	run_status 0 "$FSTUNE" report --no-system-rules --facts "$TMP/merged.json" --json
	jq -r --arg id "$rec" '.recommendations[] | select(.id == $id) | .verified // "none"' "$TMP/out"
}

# the real trial: confirmed exactly when -I 256 (c1) is ranked first
want=$(jq -r 'if .c1.rank == 1 then "confirmed" else "contradicted" end' "$TMP/trial.json")
assert_eq "$(verdict "$TMP/trial.json")" "$want" "verdict of the real trial $(jq -c . "$TMP/trial.json")"
jq -e --arg id "$rec" '.recommendations[] | select(.id == $id) | .verified_by |
	.candidate == "c1" and .spec == "ext2:-I 256" and (.median > 0) and (.best_median > 0)' "$TMP/out" >/dev/null ||
	fail "verified_by: $(jq -c '.recommendations[].verified_by // empty' "$TMP/out")"

# doctored: -I 256 won by far
jq '.c1.median = 1.0 | .c2.median = 3.0 | .c1.rank = 1 | .c2.rank = 2 | .best = "c1" | .best_is_tied = false' \
	"$TMP/trial.json" >"$TMP/won.json"
assert_eq "$(verdict "$TMP/won.json")" confirmed "verdict when -I 256 won"

# doctored: -I 128 won by far
jq '.c1.median = 3.0 | .c2.median = 1.0 | .c1.rank = 2 | .c2.rank = 1 | .best = "c2" | .best_is_tied = false' \
	"$TMP/trial.json" >"$TMP/lost.json"
assert_eq "$(verdict "$TMP/lost.json")" contradicted "verdict when -I 128 won"
run_status 0 "$FSTUNE" report --no-system-rules --facts "$TMP/merged.json"
grep -q 'trial: contradicted (ext2:-I 256 ranked 2: median 3 against 1 for ext2:-I 128)' "$TMP/out" ||
	fail "the text report does not give the numbers: $(grep -n trial "$TMP/out")"

# a trial that measured nothing the advice asks for leaves it unmarked
jq '.c1.spec = "ext4:-b 4096"' "$TMP/lost.json" >"$TMP/other.json"
assert_eq "$(verdict "$TMP/other.json")" none "verdict when no candidate makes the advice"
exit 0
