#!/bin/bash
# A benchmark never hurts the filesystem it measures (the real policy, not make check's scaled one):
# the whole run writes at most a budget that keeps the filesystem under the report's fullness line
# (90% of the usable space) and 512 MiB free, watched from outside during a real run; below the 256
# MiB floor it is refused with the numbers (bench, report --bench quick: 4) or skipped with a notice
# (report's default: the status follows the findings, also with --fail-on warn); an explicit --size
# goes further and says so. fstune's own leftovers of killed runs are counted in every message about
# space, kept as fs.fstune_leftover_bytes, discounted by the fullness rule, and removed by
# bench --clean. The report's fullness and the refusal count the same usable space (df's: statfs's
# used, fs.used_bytes, and available). A never-written loop device's reads are cache_suspect with the
# reason; written, not.
# --fio-commands ends with the clean-up of the file fio lays out, and running its output leaves nothing.
. "${FSTUNE_SRCDIR:?run the tests through make check}/tests/lib/common.sh" || exit 99
. "$FSTUNE_SRCDIR/tests/lib/bench.sh"
private_mount_ns "$@"
require_loop
require_cmd mkfs.ext4 jq fallocate fio stat

MiB=$((1 << 20))
# The real limits: make check's harness scales the span floor down; these runs must not be.
B=(env -u FSTUNE_TEST_SCALE "$FSTUNE" bench --busy-check 0 --warmup 0.1 --runtime 0.2)
R=(env -u FSTUNE_TEST_SCALE "$FSTUNE" report --no-system-rules)

# statvfs of a directory in bytes: usable (used + available to users), used, available
space() {
	local bs blocks bfree bavail
	read -r bs blocks bfree bavail < <(stat -f --format '%S %b %f %a' "$1")
	echo "$(((blocks - bfree + bavail) * bs)) $(((blocks - bfree) * bs)) $((bavail * bs))"
}

# fill_to DIR SHARE_PERCENT: fallocates a file so that SHARE% of the usable space is in use.
fill_to() {
	local usable used avail
	read -r usable used avail < <(space "$1")
	fallocate -l $((usable * $2 / 100 - used)) "$1/fill.$RANDOM"
}

img=$TMP/img
make_image "$img" 8G
dev=$(attach_loop "$img")
mkfs.ext4 -q -F -E lazy_itable_init=1,lazy_journal_init=1 "$dev"
mnt=$(mount_tmp "$dev")

# ---- 85% full on 8 GiB: the 90% line is what binds; watch a real run from outside ----
fill_to "$mnt" 85
read -r usable used avail < <(space "$mnt")
minfile=$TMP/min-avail
(
	min=$avail
	while [ ! -e "$TMP/stop-watch" ]; do
		a=$(stat -f --format '%a*%S' "$mnt") && a=$((a))
		[ "$a" -lt "$min" ] && min=$a && echo "$min" >"$minfile"
		sleep 0.02
	done
) &
watcher=$!
run_status 0 "${B[@]}" --json --tests seq_read_1m,seq_write_1m "$mnt"
touch "$TMP/stop-watch"
wait "$watcher"
budget=$(jq -r .bench.parameters.budget_bytes "$TMP/out")
span=$(jq -r .bench.parameters.span_bytes "$TMP/out")
[ "$(jq -r .bench.parameters.free_bytes "$TMP/out")" = "$avail" ] || fail "free_bytes is not statvfs' f_bavail $avail"
# the budget keeps the filesystem at or under 90% and 512 MiB free; the span is 3/4 of it, MiB-rounded
[ $(((used + budget) * 100)) -le $((usable * 90)) ] || fail "budget $budget takes the filesystem past 90% (used $used of $usable)"
[ $((avail - budget)) -ge $((512 * MiB)) ] || fail "budget $budget leaves less than 512 MiB free of $avail"
[ $(((used + budget + 64 * MiB) * 100)) -gt $((usable * 90)) ] || fail "budget $budget is not the 90% line's (used $used of $usable)"
[ "$span" -eq $((budget * 3 / 4 / MiB * MiB)) ] || [ "$span" -eq $(((budget * 3 / 4 - 1) / MiB * MiB)) ] ||
	fail "span $span is not three quarters of the budget $budget"
[ "$span" -ge $((256 * MiB)) ] || fail "span $span below the floor"
min_seen=$(cat "$minfile" 2>/dev/null || echo "$avail")
# the watcher saw the layout (so it watched the run), and never less free than the budget allows
# (plus the journal's and the allocator's metadata: 8 MiB)
[ "$min_seen" -lt $((avail - span / 2)) ] || fail "the watcher did not see the layout (min $min_seen of $avail)"
[ "$min_seen" -ge $((avail - budget - 8 * MiB)) ] || fail "the run took $((avail - min_seen)) bytes, over its budget $budget"
bench_no_scratch "$mnt"
[ "$(space "$mnt" | cut -d' ' -f3)" -ge $((avail - 8 * MiB)) ] || fail "space not given back after the run"

# ---- 88% full: under the floor. bench refuses (4) with the numbers; the report's default skips ----
fill_to "$mnt" 88
run_status 4 "${B[@]}" --quick "$mnt"
grep -q "88% full): a benchmark may write .* without taking it past 90% full or below 512 MiB free, and its test file 75% of that, .*, less than the 256 MiB" "$TMP/err" ||
	fail "88%: refusal does not name the numbers: $(cat "$TMP/err")"
bench_no_scratch "$mnt"
run_status 0 "${ON_TERMINAL[@]}" "${R[@]}" --fail-on warn "$mnt"
grep -q "^fstune: note: $mnt: no benchmarks: .*90% full" "$TMP/err" || fail "report default: no notice: $(cat "$TMP/err")"
unwrapped "$TMP/out" | grep -q " Measured nothing: $mnt has .* free" || fail "report default: Measured does not say why: $(grep -A1 Measured "$TMP/out")"
run_status 4 "${R[@]}" --bench quick "$mnt"
# an explicit --size goes further (down to 256 MiB free), and says so
run_status 0 "${B[@]}" --json --tests rand_read_4k_qd1 --size 300M "$mnt"
grep -q "note: --size 300 MiB goes past what a default run takes in $mnt" "$TMP/err" || fail "--size past the limits: no note: $(cat "$TMP/err")"
bench_no_scratch "$mnt"
read -r usable used avail < <(space "$mnt")
run_status 4 "${B[@]}" --tests rand_read_4k_qd1 --size $((avail - 200 * MiB)) "$mnt"
grep -q "a run always leaves 256 MiB free" "$TMP/err" || fail "--size into the last 256 MiB: $(cat "$TMP/err")"

# ---- leftovers of a killed run: counted, named, discounted, cleaned ----
rm -f "$mnt"/fill.*
fill_to "$mnt" 80
dead=$(sh -c 'echo $$')
left=$mnt/.fstune-bench.$dead
mkdir "$left"
echo "$dead" >"$left/pid"
read -r usable used avail < <(space "$mnt")
fallocate -l $((usable * 12 / 100)) "$left/data" # 92% full with it, 80% without
run_status 0 "$FSTUNE" probe --json "$mnt"
lb=$(jq -r .fs.fstune_leftover_bytes "$TMP/out")
[ "$lb" -ge $((usable * 12 / 100)) ] && [ "$lb" -le $((usable * 12 / 100 + MiB)) ] || fail "fs.fstune_leftover_bytes $lb"
run_status 0 "${R[@]}" --bench none --json "$mnt"
jq -e '[.recommendations[].id] | index("reserve.fstune_leftovers") != null and index("reserve.nearly_full") == null' "$TMP/out" >/dev/null ||
	fail "fullness rule: leftovers not discounted: $(jq -c '[.recommendations[] | {id, severity, title}]' "$TMP/out")"
jq -e '.recommendations[] | select(.id == "reserve.fstune_leftovers") | .severity == "suggest" and (.rationale | test("bench --clean"))' "$TMP/out" >/dev/null ||
	fail "leftovers finding: $(jq -c '.recommendations[] | select(.id == "reserve.fstune_leftovers")' "$TMP/out")"
run_status 4 "${B[@]}" --quick "$mnt"
grep -q "is held by fstune's own scratch directories of killed runs: .fstune bench --clean $mnt. removes them" "$TMP/err" ||
	fail "space refusal does not name the leftovers: $(cat "$TMP/err")"
run_status 0 "$FSTUNE" bench --clean "$mnt" </dev/null
grep -q "removed $left (.*, left by killed run $dead)" "$TMP/err" || fail "--clean: $(cat "$TMP/err")"
[ ! -e "$left" ] || fail "--clean left $left"
run_status 0 "$FSTUNE" bench --clean "$mnt"
grep -q "no scratch directory of a killed run under $mnt" "$TMP/err" || fail "--clean with nothing: $(cat "$TMP/err")"
run_status 0 "$FSTUNE" probe --json "$mnt"
assert_eq "$(jq -r .fs.fstune_leftover_bytes "$TMP/out")" 0 "fs.fstune_leftover_bytes after --clean"

# ---- 95% full: the report's fullness and the benchmarks' refusal count the same usable space, df's
# (the superblock's size holds the metadata too, 1.6% of this filesystem) ----
fill_to "$mnt" 95
read -r usable used avail < <(space "$mnt")
run_status 0 "$FSTUNE" probe --json "$mnt"
assert_eq "$(jq -r '.fs.used_bytes + .fs.free_bytes' "$TMP/out")" "$usable" "fs.used_bytes + fs.free_bytes (df's usable)"
run_status 4 "${B[@]}" --quick "$mnt"
said=$(sed -n 's/.* free of \([0-9.]* [KMGT]*i*B\) usable.*/\1/p' "$TMP/err")
[ -n "$said" ] || fail "95%: the refusal names no usable space: $(cat "$TMP/err")"
run_status 0 "${R[@]}" --bench none --json "$mnt"
jq -e --arg u "of $said usable is in use, 95%" '.recommendations[] | select(.id == "reserve.nearly_full") | .rationale | contains($u)' \
	"$TMP/out" >/dev/null || fail "95%: the fullness finding does not count $said usable: $(jq -r '.recommendations[] |
	select(.id == "reserve.nearly_full") | .rationale' "$TMP/out")"
rm -f "$mnt"/fill.*

# ---- a never-written loop device reads from nowhere: cache_suspect, with the reason ----
make_image "$TMP/sparse" 300M
sp=$(attach_loop "$TMP/sparse")
run_status 0 "$FSTUNE" bench --json --tests rand_read_4k_qd1,seq_read_1m --size 32M "${BENCH_SHORT[@]}" "$sp"
for t in rand_read_4k_qd1 seq_read_1m; do
	jq -e --arg t "$t" '.bench[$t].cache_suspect == true and (.bench[$t].cache_suspect_reason | test("read back all zeros.*100% of the span is holes"))' \
		"$TMP/out" >/dev/null || fail "sparse: $t not cache_suspect: $(jq -c --arg t "$t" '.bench[$t]' "$TMP/out")"
done
grep -q "cache_suspect: 64 of 64 blocks sampled" "$TMP/err" || fail "sparse: no note: $(cat "$TMP/err")"
dd if=/dev/urandom of="$sp" bs=1M count=32 oflag=direct status=none
run_status 0 "$FSTUNE" bench --json --tests rand_read_4k_qd1 --size 32M "${BENCH_SHORT[@]}" "$sp"
jq -e '(.bench.rand_read_4k_qd1.cache_suspect_reason // "") | test("never-written") | not' "$TMP/out" >/dev/null ||
	fail "written device still suspect: $(jq -c .bench.rand_read_4k_qd1 "$TMP/out")"

# ---- --fio-commands: the printed commands, run in order, leave nothing behind ----
d=$(mktemp -d "$mnt/fio.XXXXXX")
run_status 0 "$FSTUNE" bench --fio-commands --tests rand_read_4k_qd1,seq_write_1m,fsync_4k_append --size 16M \
	--runtime 0.2 --warmup 0 "$d"
tail -1 "$TMP/out" | grep -qx "rm -f -- $d/fstune-fio.dat" || fail "--fio-commands: no clean-up: $(cat "$TMP/out")"
cp "$TMP/out" "$TMP/fio.sh"
run_status 0 sh -e "$TMP/fio.sh"
[ -z "$(ls -A "$d")" ] || fail "the printed fio commands left: $(ls -A "$d")"
echo "benchmarks keep to their budget, name and clean their leftovers, and distrust never-written devices"
