#!/bin/bash
# A trial on a 1 GiB preallocated image with two ext4 candidates and a tiny workload: both ranked, the
# cold tree measured after a remount, every run in the JSON, the trial.* facts; text with bars. The
# benchmark path (smallfiles: smallfile_fsync through bench_run), the default candidates and a blank
# --device once. Then SIGINT and SIGTERM in the middle: status 130 and 143, and no loop device, mount or
# image left behind.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
. "$FSTUNE_SRCDIR/tests/trial-lib.sh"
require_trial
require_cmd timeout

img=$TMP/trial.img
run_status 0 "$FSTUNE" trial --image "$img" --size 1G --candidates 'ext4:-b 1024;ext4:-b 4096' \
	"${TRIAL_TINY[@]}" --repeat 2 --json
cp "$TMP/out" "$TMP/t.json"
trial_no_leftovers "$img"
json_get "$TMP/t.json" '.schema == "fstune.trial/1"' >/dev/null
assert_eq "$(jq '.candidates | length' "$TMP/t.json")" 2 "candidates"
assert_eq "$(jq '[.candidates[].runs[] | select(.value and .tree.cache == "cold")] | length' "$TMP/t.json")" 4 \
	"runs with a cold tree"
assert_eq "$(jq "[.candidates[].runs[].tree.files] | unique" -c "$TMP/t.json")" "[$TRIAL_FILES]" "files written"
jq -e "[.candidates[].runs[].tree | .walk_entries > $TRIAL_FILES and .walk_s > 0 and .umount_s > 0 and .read_s > 0] | all" \
	"$TMP/t.json" >/dev/null || fail "cold walk and read: $(jq -c '[.candidates[].runs[].tree]' "$TMP/t.json")"
jq -e '[.candidates[].runs[].round] == [1, 2, 1, 2]' "$TMP/t.json" >/dev/null || fail "rounds: $(jq -c '[.candidates[].runs[].round]' "$TMP/t.json")"
jq -e '.candidates | all(.rank >= 1 and .median > 0 and (.values | length) == 2)' "$TMP/t.json" >/dev/null ||
	fail "not both ranked: $(jq -c '.candidates[] | {spec, rank, median}' "$TMP/t.json")"
jq -e '.candidates[0].mkfs_command | test("^mkfs.ext4 -F -q -b 1024 -E lazy_itable_init=0,lazy_journal_init=0 /dev/loop")' \
	"$TMP/t.json" >/dev/null || fail "mkfs command: $(jq -r '.candidates[0].mkfs_command' "$TMP/t.json")"
jq -e '.target.direct_io == true and .target.size_bytes == 1073741824' "$TMP/t.json" >/dev/null ||
	fail "target: $(jq -c .target "$TMP/t.json")"
jq -e '.facts.trial | .c1.spec == "ext4:-b 1024" and .c2.runs == 2 and (.best | test("^c[12]$")) and
	(.c1.rank | type) == "number"' "$TMP/t.json" >/dev/null || fail "trial facts: $(jq -c .facts.trial "$TMP/t.json")"
jq -e '.caveats | any(test("sub-4K")) and any(test("optimistic"))' "$TMP/t.json" >/dev/null || fail "caveats"
echo "measured: $(jq -c '[.candidates[] | {spec, median, spread_pct, rank}]' "$TMP/t.json")"

# Text: the table with bars, and the verdict.
run_status 0 "$FSTUNE" trial --image "$img" --candidates 'ext4:-b 4096;ext2:' "${TRIAL_TINY[@]}" --repeat 1
trial_no_leftovers "$img"
grep -q '^1=* *c[12] .*#' "$TMP/out" || fail "no ranked row with a bar: $(cat "$TMP/out")"
grep -Eq '^(Best|c[12] .* inside the noise)' "$TMP/out" || fail "no verdict: $(cat "$TMP/out")"

# The benchmark path: smallfile_fsync through bench_run on each candidate.
run_status 0 "$FSTUNE" trial --image "$img" --candidates 'ext4:;ext4:-b 2048' --workload smallfiles \
	--files 200 --runtime 0.2 --warmup 0 --repeat 1 --json
trial_no_leftovers "$img"
jq -e '.candidates | all(.rank >= 1 and (.runs[0].bench.smallfile_fsync.tps > 0))' "$TMP/out" >/dev/null ||
	fail "smallfiles: $(jq -c '[.candidates[] | {spec, rank, notes: .runs[0].notes, error: .runs[0].error}]' "$TMP/out")"

# The default candidates for small files: the rules' reformat advice for this device and workload
# (inodes.ratio_for_small_files: mkfs.ext4 -i or -N for the preset's million files, with the block
# size a blank device's command states, blocksize.new_block_size), ext4 with 1K, 2K and
# 4K blocks, the mkfs defaults.
run_status 0 "$FSTUNE" trial --image "$img" --no-system-rules --workload smallfiles --runtime 0.2 --warmup 0 \
	--repeat 1 --json
trial_no_leftovers "$img"
jq -e '(.candidates | any(.origin == "rules:blocksize.new_block_size,inodes.ratio_for_small_files" and
	(.spec | test("^ext4:-b 4096 -[iN] [0-9]+$")))) and
	([.candidates[] | {(.spec): .origin}] | add | ."ext4:-b 1024" == "workload" and ."ext4:-b 2048" == "workload" and ."ext4:-b 4096" == "workload" and
	."ext4:" == "default")' "$TMP/out" >/dev/null || fail "default candidates: $(jq -c '[.candidates[] | [.spec, .origin]]' "$TMP/out")"
jq -e '.candidates | all(.rank >= 1)' "$TMP/out" >/dev/null ||
	fail "default candidates not all ranked: $(jq -c '[.candidates[] | [.spec, .rank, .runs[0].error]]' "$TMP/out")"

# A blank scratch device, confirmed by its kernel name: the same trial on it, and nothing left mounted or attached by it.
make_image "$TMP/blank.img" 1G
dev=$(attach_loop "$TMP/blank.img")
run_status 0 "$FSTUNE" trial --device "$dev" --destroy-data="${dev#/dev/}" --candidates 'ext4:-b 1024;ext4:-b 4096' \
	"${TRIAL_TINY[@]}" --repeat 1 --json
jq -e '.target.kind == "device" and (.candidates | all(.rank >= 1)) and
	(.caveats | any(test("sub-4K")) | not)' "$TMP/out" >/dev/null || fail "--device: $(jq -c '{target, caveats}' "$TMP/out")"
! grep -q "^$dev " /proc/mounts || fail "$dev left mounted"
# left as blank as it was found, so the next trial's checks pass
st=0
blkid -p "$dev" >/dev/null 2>&1 || st=$?
assert_eq "$st" 2 "blkid -p on $dev after the trial (2: no signature)"
[ -z "$(find "$TMP" -maxdepth 1 -name 'fstune-trial.*')" ] || fail "a mount point was left"

# SIGINT and SIGTERM in the middle of a long trial: cleanup, then the signal's status.
for sig in INT TERM; do
	"$FSTUNE" trial --image "$img" --candidates 'ext4:-b 1024;ext4:-b 4096' --workload source-tree \
		--files 80000 --repeat 20 >"$TMP/out" 2>"$TMP/err" &
	pid=$!
	wait_for_glob 30 "$TMP/fstune-trial.*" || fail "the trial never mounted: $(cat "$TMP/err")"
	sleep 1
	kill -s "$sig" "$pid"
	st=0
	timeout 60 tail --pid="$pid" -f /dev/null || fail "still running 60 s after SIG$sig"
	wait "$pid" || st=$?
	assert_eq "$st" $((128 + $(kill -l "$sig"))) "status after SIG$sig"
	[ ! -s "$TMP/out" ] || fail "results printed after SIG$sig: $(cat "$TMP/out")"
	trial_no_leftovers "$img"
done
exit 0
