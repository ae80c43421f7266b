#!/bin/bash
# The `direct` label says what the numbers measure: `no` on ext4 mounted data=journal (statx reports no
# direct I/O there: the page cache is measured too), `memory` on tmpfs.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
. "$FSTUNE_SRCDIR/tests/lib/bench.sh"
private_mount_ns "$@"
require_loop
require_cmd mkfs.ext4 jq

make_image "$TMP/img" 96M
dev=$(attach_loop "$TMP/img")
mkfs.ext4 -q -F "$dev"
mnt=$(mount_tmp "$dev" -o data=journal)
bench_run_consistent rand_write_4k_qd1 "$FSTUNE" bench --json --tests rand_read_4k_qd1,rand_write_4k_qd1 --size 16M "${BENCH_SHORT[@]}" "$mnt"
assert_eq "$(json_get "$TMP/out" '.bench.rand_read_4k_qd1.direct')" no "data=journal direct"
assert_eq "$(json_get "$TMP/out" '.bench.parameters.direct')" no "parameters direct"
grep -q "direct: no: statx: direct I/O is not supported" "$TMP/err" || fail "no note on buffered I/O: $(cat "$TMP/err")"
bench_assert_consistent "$TMP/out" rand_write_4k_qd1 0.3
bench_no_scratch "$mnt"

tm=$(mount_tmp tmpfs -t tmpfs -o size=64m)
run_status 0 "$FSTUNE" bench --json --tests rand_read_4k_qd1,rand_read_4k_qd32 --size 16M "${BENCH_SHORT[@]}" "$tm"
assert_eq "$(json_get "$TMP/out" '.bench.rand_read_4k_qd1.direct')" memory "tmpfs direct"
assert_eq "$(json_get "$TMP/out" '.bench.rand_read_4k_qd32.direct')" memory "tmpfs direct QD32"
# RAM answers reads in well under 5 µs: self-evidently a cache
assert_eq "$(json_get "$TMP/out" '.bench.rand_read_4k_qd1.cache_suspect')" true "tmpfs cache_suspect"
bench_no_scratch "$tm"
exit 0
