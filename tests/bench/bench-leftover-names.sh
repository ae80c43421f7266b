#!/bin/bash
# What a benchmark leaves is named for what it is:
#  - a filesystem unmounted lazily (umount -l) under a running benchmark: the run still removes its
#    scratch directory, through the parent it made it in, so the filesystem mounted again holds none;
#  - an empty scratch directory of a dead run is named empty, not "of a killed run";
#  - a scratch directory whose pid now belongs to a live process (a pid reused) is still a leftover:
#    its pid file's start time is not that process's; with the process's own start time it is a live
#    run's and left alone, as one with a pid file of the older form (the pid alone) is.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
private_mount_ns "$@"
. "$FSTUNE_SRCDIR/tests/lib/bench.sh"
require_loop
require_cmd mkfs.ext4 timeout

make_image "$TMP/img" 128M
dev=$(attach_loop "$TMP/img")
mkfs.ext4 -q -F "$dev"
mnt=$(mount_tmp "$dev")

# ---- a lazy unmount under a running benchmark ----
"$FSTUNE" bench --tests rand_read_4k_qd1 --size 16M --runtime 3 --warmup 0 --busy-check 0 "$mnt" \
	>"$TMP/lazy.out" 2>"$TMP/lazy.err" &
pid=$!
wait_for_glob 20 "$mnt/.fstune-bench.*/data" || { kill "$pid"; fail "no scratch directory appeared: $(cat "$TMP/lazy.err")"; }
umount -l "$mnt"
timeout 60 tail --pid="$pid" -f /dev/null || fail "the benchmark still runs 60 s after the lazy unmount"
wait "$pid" || echo "the benchmark ended with status $? after the lazy unmount: $(tail -n 3 "$TMP/lazy.err")"
mount "$dev" "$mnt"
bench_no_scratch "$mnt"

# ---- an empty scratch directory of a dead run ----
sleep 0 &
dead=$!
wait "$dead"
mkdir "$mnt/.fstune-bench.$dead"
echo "$dead" >"$mnt/.fstune-bench.$dead/pid"
run_status 0 "$FSTUNE" bench --tests rand_read_4k_qd1 --size 16M "${BENCH_SHORT[@]}" "$mnt"
grep -q "an empty scratch directory of an ended run (pid $dead: its filesystem was unmounted under it, or it was killed before it wrote): $mnt/.fstune-bench.$dead; .fstune bench --clean $mnt. removes it" \
	"$TMP/err" || fail "empty leftover: $(cat "$TMP/err")"
! grep -q "killed run (pid $dead)" "$TMP/err" || fail "an empty leftover named as a killed run's: $(cat "$TMP/err")"
run_status 0 "$FSTUNE" bench --clean "$mnt"
grep -q "removed $mnt/.fstune-bench.$dead (.*, left empty by ended run $dead)" "$TMP/err" || fail "--clean: $(cat "$TMP/err")"
bench_no_scratch "$mnt"

# ---- a pid reused by a live process ----
sleep 600 &
live=$!
on_exit "kill $live"
boot=$(cat /proc/sys/kernel/random/boot_id)
start=$(awk '{ sub(/.*\) /, ""); print $20 }' "/proc/$live/stat")
left=$mnt/.fstune-bench.$live
mkdir "$left"
head -c 1M /dev/urandom >"$left/data"
# the start time of another process: the run that wrote it is gone, its pid is sleep's now
echo "$live $((start + 1)) $boot" >"$left/pid"
run_status 0 "$FSTUNE" bench --tests rand_read_4k_qd1 --size 16M "${BENCH_SHORT[@]}" "$mnt"
grep -q "a scratch directory of a killed run (pid $live) holds [0-9.]* [KM]i*B: $left;" "$TMP/err" ||
	fail "a leftover whose pid was reused: $(cat "$TMP/err")"
# another boot's: gone too
echo "$live $start 00000000-0000-0000-0000-000000000000" >"$left/pid"
run_status 0 "$FSTUNE" bench --tests rand_read_4k_qd1 --size 16M "${BENCH_SHORT[@]}" "$mnt"
grep -q "a scratch directory of a killed run (pid $live)" "$TMP/err" || fail "a leftover of another boot: $(cat "$TMP/err")"
# the live process's own start time, or the pid alone: a live run's, left alone
for content in "$live $start $boot" "$live"; do
	echo "$content" >"$left/pid"
	run_status 0 "$FSTUNE" bench --tests rand_read_4k_qd1 --size 16M "${BENCH_SHORT[@]}" "$mnt"
	! grep -q "pid $live" "$TMP/err" || fail "a live run's scratch directory ($content) taken for a leftover: $(cat "$TMP/err")"
	run_status 0 "$FSTUNE" bench --clean "$mnt"
	[ -d "$left" ] || fail "--clean removed a live run's scratch directory ($content)"
done
rm -r "$left"
# and a run's own pid file has the three fields, its start time the process's
"$FSTUNE" bench --tests rand_read_4k_qd1 --size 16M --runtime 3 --warmup 0 --busy-check 0 "$mnt" >/dev/null 2>&1 &
pid=$!
wait_for_glob 20 "$mnt/.fstune-bench.$pid/data" || { kill "$pid"; fail "no scratch directory appeared"; }
assert_eq "$(cat "$mnt/.fstune-bench.$pid/pid")" "$pid $(awk '{ sub(/.*\) /, ""); print $20 }' "/proc/$pid/stat") $boot" \
	"the pid file"
kill "$pid"
wait "$pid" || true
bench_no_scratch "$mnt"
exit 0
