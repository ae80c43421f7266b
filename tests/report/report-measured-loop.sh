#!/bin/bash
# `fstune report` on a loop-mounted ext4 (direct I/O) with the quick suite: at least one
# recommendation rests on a number the quick suite measured in that same run (its evidence names a
# bench.* key with source "bench" and the value the run's facts hold), and the shipped rules run
# with no error. Short benchmark parameters, as in tests/report/report-bench.sh.
. "${FSTUNE_SRCDIR:?run the tests through make check}/tests/lib/common.sh" || exit 99
private_mount_ns "$@"
require_loop
require_cmd mkfs.ext4 jq

SHORT=(--runtime 0.3 --warmup 0.1 --busy-check 0.2 --size 32M)
export FSTUNE_RULES_PATH=

make_image "$TMP/img" 128M
dev=$(attach_loop "$TMP/img")
mkfs.ext4 -q -F "$dev"
mnt=$(mount_tmp "$dev")

run_status 0 "$FSTUNE" report --no-system-rules --bench quick --format json "${SHORT[@]}" "$mnt"
cp "$TMP/out" "$TMP/r.json"
jq -e '.errors | length == 0' "$TMP/r.json" >/dev/null || fail "rule errors: $(jq -c .errors "$TMP/r.json")"
assert_eq "$(jq -r '.facts.device.loop_direct_io' "$TMP/r.json")" true "the loop device uses direct I/O"
assert_eq "$(jq -r '.facts.bench.seq_read_1m.direct' "$TMP/r.json")" yes "seq_read_1m measured with direct I/O"

# Every recommendation's evidence that is a bench.* key of the quick suite, from this run: the
# value shown must be the value in the facts of this report.
measured=$(jq -r '
	.facts as $f
	| [.recommendations[] | . as $r | .evidence[]?
		| select(.source == "bench" and (.key | test("^bench[.](rand_read_4k_qd1|rand_read_4k_qd32|seq_read_1m|seq_write_1m|fsync_4k_overwrite)[.]")))
		| .key as $k | select(.value == ($f | getpath($k | split("."))))
		| "\($r.id) \(.key)"] | unique | join("; ")' "$TMP/r.json")
[ -n "$measured" ] || fail "no recommendation rests on a quick-suite number of this run: $(jq -c '[.recommendations[] | {id, evidence}]' "$TMP/r.json" | head -c 1500)"
echo "measured evidence: $measured"

# The loop device itself says what was measured: the storage under its backing file.
jq -e '[.recommendations[] | select(.id == "devclass.loop_backing")] | length == 1' "$TMP/r.json" >/dev/null ||
	fail "devclass.loop_backing missing: $(jq -r '[.recommendations[].id] | join(" ")' "$TMP/r.json")"
echo "ok"
