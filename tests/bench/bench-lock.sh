#!/bin/bash
# One benchmark per filesystem at a time, with the real lock directory (/run/fstune) and the real
# space rules (no FSTUNE_TEST_SCALE: never below 512 MiB free). Two benchmarks started together on a
# 2 GiB loop filesystem: free space, watched from outside every 20 ms, never falls below 512 MiB;
# one of them is refused at once (status 4) naming the other's pid and command. While a benchmark
# runs, report --bench quick and a plain user's benchmark of the same filesystem are refused the same
# way, the null engine (no I/O) is not, and a benchmark of another filesystem is not.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
private_mount_ns "$@"
require_loop
require_cmd mkfs.ext4 stat
require_nobody
unset FSTUNE_TEST_SCALE FSTUNE_TEST_LOCK_DIR

img=$TMP/fs.img
make_image "$img" 2G
mkfs.ext4 -q -F -m 0 "$img" || fail "mkfs.ext4 failed"
mnt=$(mount_tmp "$(attach_loop "$img")")
chmod 0777 "$mnt"
free_bytes() { stat -f -c '%a %S' "$mnt" | awk '{ printf "%d", $1 * $2 }'; }
MiB=$((1024 * 1024))
[ "$(free_bytes)" -gt $((1500 * MiB)) ] || fail "the fresh filesystem has only $(free_bytes) bytes free"

# --- two at once, the free space watched from outside ---
"$FSTUNE" bench --tests seq_write_1m,rand_read_4k_qd1 --runtime 2 --busy-check 0 "$mnt" >"$TMP/a.out" 2>"$TMP/a.err" &
pa=$!
"$FSTUNE" bench --tests seq_write_1m,rand_read_4k_qd1 --runtime 2 --busy-check 0 "$mnt" >"$TMP/b.out" 2>"$TMP/b.err" &
pb=$!
lowest=$(free_bytes)
while kill -0 "$pa" 2>/dev/null || kill -0 "$pb" 2>/dev/null; do
	f=$(free_bytes)
	[ "$f" -ge "$lowest" ] || lowest=$f
	sleep 0.02
done
sa=0 sb=0
wait "$pa" || sa=$?
wait "$pb" || sb=$?
echo "lowest free: $((lowest / MiB)) MiB; statuses $sa $sb" >&2
[ "$lowest" -ge $((512 * MiB)) ] || fail "free space fell to $((lowest / MiB)) MiB, below 512 MiB"
case "$sa $sb" in
"0 4") ran=$pa refused=b ;;
"4 0") ran=$pb refused=a ;;
*) fail "statuses $sa and $sb, want one 0 and one 4: $(cat "$TMP/a.err" "$TMP/b.err")" ;;
esac
grep -q "another benchmark runs on the filesystem of $mnt: pid $ran (.*fstune bench .*$mnt) holds /run/fstune/bench-" \
	"$TMP/$refused.err" || fail "the refusal does not name the first run: $(cat "$TMP/$refused.err")"
[ ! -s "$TMP/$refused.out" ] || fail "the refused run printed results: $(cat "$TMP/$refused.out")"
[ -z "$(find "$mnt" -maxdepth 1 -name '.fstune-bench.*')" ] || fail "a scratch directory was left: $(ls -a "$mnt")"
lock=$(grep -o '/run/fstune/bench-[0-9a-f]*\.lock' "$TMP/$refused.err")
[ "$(stat -c '%a %U' /run/fstune)" = "1777 root" ] || fail "/run/fstune is $(stat -c '%a %U' /run/fstune)"
[ -f "$lock" ] && [ ! -s "$lock" ] || fail "the lock file $lock is not an empty file"

# --- a long run holds the lock: everything else on this filesystem is refused ---
"$FSTUNE" bench --tests rand_read_4k_qd1 --size 256M --runtime 60 --busy-check 0 "$mnt" >"$TMP/long.out" \
	2>"$TMP/long.err" &
long=$!
on_exit "kill $long"
wait_for_glob 60 "$mnt/.fstune-bench.$long" || fail "the long run made no scratch directory: $(cat "$TMP/long.err")"
run_status 4 "$FSTUNE" report --no-system-rules --bench quick --runtime 1 "$mnt"
grep -q "pid $long " "$TMP/err" || fail "report --bench quick: $(cat "$TMP/err")"
mkdir "$mnt/user"
chown nobody: "$mnt/user"
run_status 4 as_nobody "$FSTUNE" bench --tests rand_read_4k_qd1 --runtime 1 "$mnt/user"
grep -q "pid $long " "$TMP/err" || fail "the plain user's run: $(cat "$TMP/err")"
run_status 0 "$FSTUNE" bench --engine null --tests rand_read_4k_qd1 --busy-check 0 "$mnt"
other=$(mount_tmp tmpfs -t tmpfs -o size=600m)
run_status 0 "$FSTUNE" bench --tests rand_read_4k_qd1 --size 256M --runtime 0.5 --busy-check 0 "$other"
kill -INT "$long"
sl=0
wait "$long" || sl=$?
assert_eq "$sl" 130 "the long run's status after SIGINT"
# released with it: the next run goes
run_status 0 "$FSTUNE" bench --tests rand_read_4k_qd1 --size 256M --runtime 0.5 --busy-check 0 "$mnt"

# --- a plain user who cannot write the lock directory runs unguarded, and is told so ---
mkdir -m 0755 "$TMP/locks-root"
run_status 0 as_nobody env FSTUNE_TEST_LOCK_DIR="$TMP/locks-root/sub" "$FSTUNE" bench --tests rand_read_4k_qd1 \
	--size 256M --runtime 0.5 --busy-check 0 "$mnt/user"
grep -q "no lock held on $mnt/user: $TMP/locks-root/sub is not writable by this user" "$TMP/out" "$TMP/err" ||
	fail "no note of the missing lock: $(cat "$TMP/out" "$TMP/err")"
