#!/bin/bash
# --output naming an existing device or FIFO writes into it, never renames a temporary over it:
# `fstune report --output /dev/null` as root must not replace /dev/null with a regular file. Tried on
# device nodes made under the scratch directory, never on the real /dev.
. "${FSTUNE_SRCDIR:?run the tests through make check}/tests/lib/common.sh" || exit 99
require_root
require_cmd mknod mkfifo

FACTS="$FSTUNE_SRCDIR/tests/facts/healthy-default.json"
R=("$FSTUNE" report --no-system-rules --quiet --facts "$FACTS")

mknod "$TMP/null" c 1 3
run_status 0 "${R[@]}" --output "$TMP/null"
[ -c "$TMP/null" ] || fail "--output to a character device replaced it: $(ls -l "$TMP/null")"
mknod "$TMP/full" c 1 7
run_status 2 "${R[@]}" --output "$TMP/full"
[ -c "$TMP/full" ] || fail "--output to /dev/full's twin replaced it"
grep -q "No space left on device" "$TMP/err" || fail "a write error on --output is not reported"

mkfifo "$TMP/fifo"
cat "$TMP/fifo" >"$TMP/from-fifo" &
reader=$!
run_status 0 "${R[@]}" --output "$TMP/fifo"
wait "$reader"
[ -p "$TMP/fifo" ] || fail "--output to a FIFO replaced it"
grep -q "^fstune report$" "$TMP/from-fifo" || fail "the report did not go through the FIFO"
# (.cleanups is tests/lib/common.sh's own list of cleanups)
assert_eq "$(ls -A "$TMP" | grep -v '^\.cleanups$' | grep -c '^\.')" 0 "temporary files left beside --output"
echo "--output writes devices and FIFOs in place"
