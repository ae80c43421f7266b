#!/bin/bash
# `fstune trial` on a 1 GiB preallocated image with a tiny workload. The design: every round makes and
# measures each candidate once and the baseline (the first) twice, in a balanced order; every run's
# measurements, the comparisons, the A/A control, the environment and the trial.* facts are in the
# JSON; the image is still fully allocated after every mkfs (nothing discarded). Specs that make the
# same filesystem are merged; the benchmark path (smallfiles: smallfile and smallfile_fsync); the
# default candidates; a blank --device; progress per run on stderr without a terminal; the text.
# Then SIGINT and SIGTERM in the middle: the completed rounds are written, marked partial, status 130
# and 143, nothing left behind; a SIGKILL leaves the image on record, a later trial names it and
# `fstune trial --clean` removes it.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
. "$FSTUNE_SRCDIR/tests/lib/trial.sh"
require_trial
require_cmd timeout

img=$TMP/trial.img
run_status 0 "$FSTUNE" trial --image "$img" --size 1G --candidates 'ext4:-b 1024;ext4:-b 4096' \
	"${TRIAL_TINY[@]}" --repeat 2 --json
cp "$TMP/out" "$TMP/t.json"
trial_no_leftovers "$img"
json_get "$TMP/t.json" '.schema == "fstune.trial/1"' >/dev/null
assert_eq "$(jq '.candidates | length' "$TMP/t.json")" 2 "candidates"
assert_eq "$(jq -c '[.candidates[] | .runs | length]' "$TMP/t.json")" "[4,2]" "runs: the baseline twice a round"
assert_eq "$(jq -c '[.candidates[0].runs[].copy] | sort' "$TMP/t.json")" "[0,0,1,1]" "the baseline's two copies"
# each round: three runs in positions 1, 2, 3
assert_eq "$(jq -c '[.candidates[].runs[] | [.round, .position]] | sort' "$TMP/t.json")" \
	"[[1,1],[1,2],[1,3],[2,1],[2,2],[2,3]]" "rounds and positions"
assert_eq "$(jq '[.candidates[].runs[] | select(.tree.cache == "cold" and .values.writeback > 0 and .values.cold_read > 0)] | length' "$TMP/t.json")" 6 \
	"runs with both metrics of the cold tree"
assert_eq "$(jq "[.candidates[].runs[].tree.files] | unique" -c "$TMP/t.json")" "[$TRIAL_FILES]" "files written"
jq -e '.candidates[0].mkfs_command | test("^mkfs.ext4 -F -q -b 1024 -E lazy_itable_init=0,lazy_journal_init=0,nodiscard /dev/loop")' \
	"$TMP/t.json" >/dev/null || fail "mkfs command: $(jq -r '.candidates[0].mkfs_command' "$TMP/t.json")"
jq -e '.target.direct_io == true and .target.size_bytes == 1073741824' "$TMP/t.json" >/dev/null ||
	fail "target: $(jq -c .target "$TMP/t.json")"
# the preallocation survived every mkfs: no run found the image with holes
jq -e '.environment.image_allocated_min_bytes >= 1073741824 and
	([.candidates[].runs[].image_allocated_bytes] | all(. >= 1073741824))' "$TMP/t.json" >/dev/null ||
	fail "the image lost its preallocation: $(jq -c '[.environment, [.candidates[].runs[].image_allocated_bytes]]' "$TMP/t.json")"
jq -e '.environment | .cpus >= 1 and (.load | type) == "number" and (.cpu_wait_pct | type) == "number" and
	((.other_disk_traffic_bytes_per_s | type) == "number" or (.other_disk_traffic_why | type) == "string")' \
	"$TMP/t.json" >/dev/null || fail "environment: $(jq -c .environment "$TMP/t.json")"
# two rounds: 2 comparisons (one per metric), far below the 7 rounds they need: not settled, with an estimate
jq -e '.rounds == 2 and .rounds_min == 7 and .partial == false and (.comparisons | length) == 2 and
	(.comparisons | all(.a == "c2" and .b == "c1" and .verdict == "not_settled" and (.more_rounds | type) == "number" and
	 (.ci95 | not) and .p_adjusted >= .p)) and .control.candidate == "c1" and
	(.control.metrics.writeback.rounds == 2) and (.control.metrics.writeback.floor_pct >= 1)' "$TMP/t.json" >/dev/null ||
	fail "comparisons and control: $(jq -c '{rounds, rounds_min, comparisons, control}' "$TMP/t.json")"
jq -e '.facts.trial | .c1.spec == "ext4:-b 1024" and .c2.runs == 2 and (.best | test("^c[12]$")) and
	(.c1.metrics.cold_read.median > 0) and .control.candidate == "c1" and (.comparisons | length) == 2 and
	.rounds == 2 and .primary == "writeback" and (.metrics | length) == 2' "$TMP/t.json" >/dev/null ||
	fail "trial facts: $(jq -c .facts.trial "$TMP/t.json")"
jq -e '.caveats | any(test("another filesystem")) and any(test("optimistic"))' "$TMP/t.json" >/dev/null || fail "caveats"
# without a terminal: a line per run on stderr
assert_eq "$(grep -c '^trial: round [12] of 2, c[12] ext4:-b [0-9]*: writeback .* cold_read .* s)$' "$TMP/err")" 6 \
	"progress lines: $(cat "$TMP/err")"
echo "measured: $(jq -c '[.comparisons[] | {metric, ratio, verdict}]' "$TMP/t.json")"

# Text, quiet: the tables, the verdicts, the control, the environment; nothing on stderr.
run_status 0 "$FSTUNE" trial --image "$img" --candidates 'ext4:;ext2:' "${TRIAL_TINY[@]}" --repeat 1 -q
trial_no_leftovers "$img"
for want in '^rank +id +candidate' '^1 +c1 +ext4: ' '^Verdicts:' '^- c2 ext2: against c1 ext4::' '^Control:' \
	'^Environment:' 'not settled'; do
	grep -Eq "$want" "$TMP/out" || fail "the text has no '$want': $(cat "$TMP/out")"
done
[ ! -s "$TMP/err" ] || fail "-q printed: $(cat "$TMP/err")"

# Other traffic on the disk under the image: a writer beside the trial, with direct I/O on the same
# filesystem as the image, is in the figure (at least half of what it wrote over the trial's time;
# the trial's own loop device is left out of it, and its reads of never-written parts of the image,
# which the disk never sees, do not hide the writer).
( while :; do dd if=/dev/zero of="$TMP/other" bs=1M count=8 oflag=direct conv=notrunc status=none || exit
	echo 8 >>"$TMP/other.mib"; done ) &
writer=$!
t0=$(date +%s.%N)
run_status 0 "$FSTUNE" trial --image "$img" --candidates 'ext4:;ext2:' "${TRIAL_TINY[@]}" --repeat 1 --json
t1=$(date +%s.%N)
kill "$writer"
wait "$writer" 2>/dev/null || :
trial_no_leftovers "$img"
written=$(($(paste -sd+ "$TMP/other.mib") * 1048576))
jq -e --argjson w "$written" --argjson s "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" \
	'.environment.other_disk_traffic_bytes_per_s >= 0.5 * $w / $s' "$TMP/out" >/dev/null ||
	fail "other traffic: $written bytes written beside the trial, found $(jq -c .environment "$TMP/out")"
rm -f "$TMP/other" "$TMP/other.mib"

# Specs that make the same filesystem: ext4's defaults on 1 GiB are 4 KiB blocks; -G 16 (the default
# flex_bg size) is the same too, but the fingerprint does not show it, so it is measured apart.
run_status 0 "$FSTUNE" trial --image "$img" --candidates 'ext4:;ext4:-b 4096;ext4:-G 16' "${TRIAL_TINY[@]}" --repeat 1 --json
trial_no_leftovers "$img"
jq -e '[.candidates[] | .merged_into // "-"] == ["-", "c1", "-"] and (.candidates[1].runs | length) == 0 and
	(.candidates[2].runs | length) == 1 and (.notes | any(test("c2 ext4:-b 4096 makes the same filesystem as c1 ext4:"))) and
	.facts.trial.c2.merged_into == "c1" and (.comparisons | all(.a == "c3"))' "$TMP/out" >/dev/null ||
	fail "merging: $(jq -c '{c: [.candidates[] | {id, merged_into, n: (.runs | length)}], notes}' "$TMP/out")"

# The benchmark path: smallfile and smallfile_fsync through bench_run on each candidate.
run_status 0 "$FSTUNE" trial --image "$img" --candidates 'ext4:;ext4:-b 2048' --workload smallfiles \
	--files 200 --runtime 0.2 --warmup 0 --repeat 1 --json
trial_no_leftovers "$img"
jq -e '[.candidates[].runs[] | .bench.smallfile.tps > 0 and .bench.smallfile_fsync.tps > 0 and
	.values.smallfile > 0] | length == 3 and all' "$TMP/out" >/dev/null ||
	fail "smallfiles: $(jq -c '[.candidates[].runs[] | {values, error}]' "$TMP/out")"
jq -e '.metric.name == "smallfile_fsync" and ([.metrics[].name] == ["smallfile", "smallfile_fsync"])' "$TMP/out" \
	>/dev/null || fail "smallfiles metrics: $(jq -c '{metric, metrics}' "$TMP/out")"

# The default candidates for small files: the mkfs defaults first (the baseline), the rules' reformat
# advice for this device and workload (inodes.ratio_for_small_files: mkfs.ext4 -i or -N for the preset's
# million files, with the block size a blank device's command states, blocksize.new_block_size), ext4
# with 1K, 2K and 4K blocks (4K merged: the defaults here), xfs.
run_status 0 "$FSTUNE" trial --image "$img" --no-system-rules --workload smallfiles --runtime 0.2 --warmup 0 \
	--repeat 1 --json
trial_no_leftovers "$img"
jq -e '.candidates[0] | .spec == "ext4:" and .origin == "default" and .baseline' "$TMP/out" >/dev/null ||
	fail "baseline: $(jq -c '.candidates[0]' "$TMP/out")"
jq -e '(.candidates | any(.origin == "rules:blocksize.new_block_size,inodes.ratio_for_small_files" and
	(.spec | test("^ext4:-b 4096 -[iN] [0-9]+$")))) and
	([.candidates[] | {(.spec): .origin}] | add | ."ext4:-b 1024" == "workload" and ."ext4:-b 2048" == "workload" and
	 ."ext4:-b 4096" == "workload" and ."xfs:" == "default")' "$TMP/out" >/dev/null ||
	fail "default candidates: $(jq -c '[.candidates[] | [.spec, .origin]]' "$TMP/out")"
jq -e '[.candidates[] | select(.merged_into | not)] | all(.runs | length >= 1)' "$TMP/out" >/dev/null ||
	fail "default candidates not all measured: $(jq -c '[.candidates[] | [.spec, .merged_into, (.runs | length)]]' "$TMP/out")"

# A blank scratch device, confirmed by its kernel name: the same trial on it, and nothing left mounted
# or attached by it.
make_image "$TMP/blank.img" 1G
dev=$(attach_loop "$TMP/blank.img")
run_status 0 "$FSTUNE" trial --device "$dev" --destroy-data="${dev#/dev/}" --candidates 'ext4:-b 1024;ext4:-b 4096' \
	"${TRIAL_TINY[@]}" --repeat 1 --json
jq -e '.target.kind == "device" and (.candidates | all(.runs | length >= 1)) and
	(.caveats | any(test("another filesystem")) | not) and (.environment.image_bytes | not)' "$TMP/out" >/dev/null ||
	fail "--device: $(jq -c '{target, caveats, environment}' "$TMP/out")"
! grep -q "^$dev " /proc/mounts || fail "$dev left mounted"
# left as blank as it was found, so the next trial's checks pass
st=0
blkid -p "$dev" >/dev/null 2>&1 || st=$?
assert_eq "$st" 2 "blkid -p on $dev after the trial (2: no signature)"
trial_no_leftovers "$TMP/none.img"

# SIGINT and SIGTERM in the middle of a long trial: cleanup, the completed rounds written, marked
# partial, then the signal's status.
for sig in INT TERM; do
	"$FSTUNE" trial --image "$img" --candidates 'ext4:-b 1024;ext4:-b 4096' --workload source-tree \
		--files 80000 --repeat 20 --json >"$TMP/out" 2>"$TMP/err" &
	pid=$!
	wait_for_glob 30 "$TMP/fstune-trial.*" || fail "the trial never mounted: $(cat "$TMP/err")"
	sleep 1
	kill -s "$sig" "$pid"
	st=0
	timeout 60 tail --pid="$pid" -f /dev/null || fail "still running 60 s after SIG$sig"
	wait "$pid" || st=$?
	assert_eq "$st" $((128 + $(kill -l "$sig"))) "status after SIG$sig"
	jq -e '.schema == "fstune.trial/1" and .partial == true and .facts.trial.partial == true and
		(.notes | any(test("interrupted by signal")))' "$TMP/out" >/dev/null ||
		fail "no partial result after SIG$sig: $(head -c 400 "$TMP/out")"
	trial_no_leftovers "$img"
done

# SIGKILL: nothing runs the cleanup. The record names what was made; the namespace took the mounts
# and the loop device with it; the image stays until --clean.
"$FSTUNE" trial --image "$img" --candidates 'ext4:-b 1024;ext4:-b 4096' --workload source-tree \
	--files 80000 --repeat 20 >/dev/null 2>"$TMP/err" &
pid=$!
wait_for_glob 30 "$TMP/fstune-trial.*" || fail "the trial never mounted: $(cat "$TMP/err")"
kill -KILL "$pid"
wait "$pid" || true
rec=$FSTUNE_TEST_LOCK_DIR/trial-$pid.json
jq -e --arg img "$img" '.image == $img and (.loop_device | test("^/dev/loop")) and (.mount_point | test("fstune-trial"))' \
	"$rec" >/dev/null || fail "the record of the killed trial: $(cat "$rec" 2>&1)"
[ -f "$img" ] || fail "the killed trial's image is gone already"
run_status 4 "$FSTUNE" trial --image "$img" --candidates 'ext4:' "${TRIAL_TINY[@]}"
grep -q "a trial that is gone (pid $pid) left the image $img .*fstune trial --clean removes it" "$TMP/err" ||
	fail "the next trial does not name what the killed one left: $(cat "$TMP/err")"
run_status 0 "$FSTUNE" trial --clean
for want in "a trial that is gone (pid $pid) left" "removed the image $img" "removed the mount point $TMP/fstune-trial." \
	"removed the record $rec"; do
	grep -qF "$want" "$TMP/out" || fail "--clean did not say '$want': $(cat "$TMP/out")"
done
# the mkfs child of a killed trial may still hold the loop device a moment
for ((i = 0; i < 100; i++)); do
	losetup -a | grep -qF "$img" || break
	sleep 0.1
done
trial_no_leftovers "$img"
run_status 0 "$FSTUNE" trial --clean
grep -q "nothing to clean" "$TMP/out" || fail "a second --clean: $(cat "$TMP/out")"
exit 0
