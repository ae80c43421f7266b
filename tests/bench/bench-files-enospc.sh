#!/bin/bash
# The smallfile benchmarks (a transaction count keeps them running) when another writer fills the
# filesystem mid-run: a clear error naming ENOSPC, no numbers kept as results, status 3, and nothing
# left behind.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
. "$FSTUNE_SRCDIR/tests/lib/bench.sh"
private_mount_ns "$@"
require_root
require_cmd jq dd timeout

full=$(mktemp -d "$TMP/tmpfs.XXXXXX")
mount -t tmpfs -o size=64m tmpfs "$full"
on_exit "umount -l $full"

# fill_mid TEST MARKER [env...]: starts TEST, waits for MARKER in its directory, fills the filesystem
fill_mid() {
	local test=$1 marker=$2 st=0
	shift 2
	env "$@" "$FSTUNE" bench --json --tests "$test" --runtime 60 --busy-check 0 --files 400 --file-size 1000-60000 \
		"$full" >"$TMP/out" 2>"$TMP/err" &
	local pid=$!
	wait_for_glob 20 "$full/.fstune-bench.*/$test/$marker" || { kill "$pid" 2>/dev/null || true; fail "$test: no $marker appeared: $(cat "$TMP/err")"; }
	dd if=/dev/zero of="$full/filler" bs=64k 2>/dev/null || true # until ENOSPC
	timeout 60 tail --pid="$pid" -f /dev/null || { kill "$pid" 2>/dev/null || true; fail "$test: ENOSPC did not end the run"; }
	wait "$pid" || st=$?
	assert_eq "$st" 3 "$test: status after ENOSPC mid-run"
	grep -q "$test: .*No space left on device (the filesystem filled up during the run)" "$TMP/err" ||
		fail "$test: ENOSPC message: $(cat "$TMP/err")"
	jq -e --arg t "$test" '.bench[$t] == null and .unavailable["bench." + $t].status == "failed"' "$TMP/out" >/dev/null ||
		fail "$test: numbers kept after ENOSPC: $(cat "$TMP/out")"
	rm -f "$full/filler"
	bench_no_scratch "$full"
	[ -z "$(ls -A "$full")" ] || fail "$test: left behind: $(ls -A "$full")"
}

# an explicit transaction count and more creates than deletes: the run lasts until the space runs out
fill_mid smallfile '*' FSTUNE_SMALLFILE=files=400,size=1000-60000,transactions=100000000,bias_create=6
fill_mid smallfile_fsync '*' FSTUNE_SMALLFILE=files=400,size=1000-60000,transactions=100000000,bias_create=6
exit 0
