#!/bin/bash
# A file benchmark killed with SIGKILL leaves its scratch directory with its test's tree in it; the next
# run reports it, and on a terminal (answer y) removes all of it, never following a symbolic link.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
. "$FSTUNE_SRCDIR/tests/lib/bench.sh"
require_cmd script

d=$TMP/dir
mkdir "$d" "$TMP/outside"
touch "$TMP/outside/keep"

"$FSTUNE" bench --tests metadata --runtime 60 --busy-check 0 --files 200000 --files-per-dir 100 \
	--file-size 1000-2000 "$d" >/dev/null 2>"$TMP/kerr" &
pid=$!
wait_for_glob 20 "$d/.fstune-bench.*/metadata/d1/*" || { kill "$pid"; fail "no metadata files appeared: $(cat "$TMP/kerr")"; }
kill -s KILL "$pid"
wait "$pid" 2>/dev/null || true
left=$(find "$d" -maxdepth 1 -name '.fstune-bench.*')
[ -n "$left" ] || fail "SIGKILL should leave the scratch directory"
ln -s "$TMP/outside" "$left/metadata/d1/link"

# not on a terminal: reported, not touched
run_status 0 "$FSTUNE" bench --tests tree --files 50 "${BENCH_SHORT[@]}" "$d"
grep -q "of a killed run (pid ${left##*.}) holds [0-9.]* [KMG]*i*B: $left; .fstune bench --clean" "$TMP/err" || fail "leftover not reported: $(cat "$TMP/err")"
[ -d "$left/metadata/d1" ] || fail "the leftover was touched without asking"

# on a terminal, answered y: removed with its tree; the link's target is untouched
printf 'y\n' | script -qec "\"$FSTUNE\" bench --tests tree --files 50 ${BENCH_SHORT[*]} \"$d\"" /dev/null >"$TMP/tty" 2>&1 ||
	fail "run on a terminal failed: $(cat "$TMP/tty")"
grep -q "$left ([0-9.]* [KMG]*i*B) was left behind by a killed benchmark run. Remove it?" "$TMP/tty" || fail "no removal offered: $(cat "$TMP/tty")"
[ -z "$(ls -A "$d")" ] || fail "left behind after removal: $(find "$d" -mindepth 1 | head -5)"
[ -f "$TMP/outside/keep" ] || fail "removal followed a symbolic link"
exit 0
