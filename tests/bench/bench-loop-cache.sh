#!/bin/bash
# A loop device without direct I/O reads and writes its backing file through the host's page cache:
# its reads and plain writes are cache_suspect, with the reason, in `bench` as in `report` (JSON and
# text); its fsync'd writes are not (a flush syncs the backing file); no rule sizes anything by the
# writes that ended in that cache.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
. "$FSTUNE_SRCDIR/tests/lib/bench.sh"
private_mount_ns "$@"
require_loop
require_cmd jq mkfs.ext4

make_image "$TMP/img" 512M
dev=$(attach_loop "$TMP/img" --direct-io=off)
assert_eq "$(cat "/sys/block/${dev#/dev/}/loop/dio")" 0 "the loop device without direct I/O"
mkfs.ext4 -q -F "$dev"
mnt=$(mount_tmp "$dev")

# cached BENCH-JSON-FILTER: the reads and seq_write_1m flagged with the loop reason, fsync not
cached() {
	local t
	for t in rand_read_4k_qd1 rand_read_4k_qd32 seq_read_1m; do
		jq -e --arg t "$t" "$1"'[$t] | .cache_suspect == true and
			(.cache_suspect_reason | test("reads its backing file through the host.s page cache \\(loop_direct_io off\\)"))' \
			"$TMP/out" >/dev/null || fail "$2: $t: $(jq -c --arg t "$t" "$1"'[$t]' "$TMP/out")"
	done
	jq -e "$1"'.seq_write_1m | .cache_suspect == true and (.cache_suspect_reason | test("writes its backing file"))' \
		"$TMP/out" >/dev/null || fail "$2: seq_write_1m: $(jq -c "$1.seq_write_1m" "$TMP/out")"
	jq -e "$1"'.fsync_4k_overwrite | (.cache_suspect_reason // "" | test("loop_direct_io")) | not' \
		"$TMP/out" >/dev/null || fail "$2: fsync_4k_overwrite flagged: $(jq -c "$1.fsync_4k_overwrite" "$TMP/out")"
}

run_status 0 env FSTUNE_TEST_SCALE=1 "$FSTUNE" bench --json --size 64M "${BENCH_SHORT[@]}" "$mnt"
cached .bench bench
grep -q 'rand_read_4k_qd1: cache_suspect: the loop device reads its backing file' "$TMP/err" ||
	fail "bench: no note: $(cat "$TMP/err")"

run_status 0 env FSTUNE_TEST_SCALE=1 "$FSTUNE" report --no-system-rules --format json --size 64M "${BENCH_SHORT[@]}" "$mnt"
cached .facts.bench report
jq -e '[.recommendations[] | select(.id == "devclass.loop_page_cache")] | length == 1' "$TMP/out" >/dev/null ||
	fail "report: no loop_page_cache finding: $(jq -c '[.recommendations[].id]' "$TMP/out")"
jq -e '[.recommendations[] | .evidence[]? | (.key // .) | strings | select(startswith("bench.seq_write_1m"))] | length == 0' \
	"$TMP/out" >/dev/null || fail "report: a rule rests on the cached writes: $(jq -c '[.recommendations[] | {id, evidence}]' "$TMP/out")"

run_status 0 env FSTUNE_TEST_SCALE=1 "$FSTUNE" report --no-system-rules --size 64M "${BENCH_SHORT[@]}" "$mnt"
grep -Eq '^rand_read_4k_qd1 .* yes cache\?' "$TMP/out" || fail "report text: row: $(cat "$TMP/out")"
grep -q '^cache? rand_read_4k_qd1: the loop device reads its backing file through the host.s page cache' "$TMP/out" ||
	fail "report text: the reason"
bench_no_scratch "$mnt"
exit 0
