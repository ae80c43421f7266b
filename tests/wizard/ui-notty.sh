#!/bin/bash
# Without a terminal the wizard does not start curses: it says to use `fstune report` and exits 2.
# Its usage errors are 2 as well, and --help needs no terminal.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"

run_status 2 "$FSTUNE" </dev/null
grep -q "fstune report" "$TMP/err" || fail "no pointer to 'fstune report': $(cat "$TMP/err")"
[ ! -s "$TMP/out" ] || fail "wrote to standard output without a terminal: $(head -c 200 "$TMP/out")"
# Standard output a pipe, standard input a terminal or not: still no curses.
out=$("$FSTUNE" 2>"$TMP/err2" </dev/null | cat; echo "status=${PIPESTATUS[0]}")
case "$out" in *status=2) ;; *) fail "piped: $out" ;; esac
grep -q "fstune report" "$TMP/err2" || fail "piped: no pointer to 'fstune report'"
[ "$(printf '%s' "$out" | grep -c $'\e')" = 0 ] || fail "escape sequences written to a pipe"

run_status 0 "$FSTUNE" --help
grep -q -- "--facts FILE" "$TMP/out" || fail "--help does not list --facts"
run_status 2 "$FSTUNE" --no-such-option </dev/null
run_status 2 "$FSTUNE" --facts "$TMP/missing.json" </dev/null
grep -q "missing.json" "$TMP/err" || fail "the error does not name the facts file: $(cat "$TMP/err")"
run_status 2 "$FSTUNE" --sysroot "$TMP/missing-dir" </dev/null
run_status 2 "$FSTUNE" --rules-dir "$TMP/missing-rules" </dev/null
grep -q "missing-rules" "$TMP/err" || fail "the error does not name the rules dir"
run_status 2 "$FSTUNE" --format json </dev/null
grep -q "fstune report" "$TMP/err" || fail "--format: no pointer to 'fstune report'"
run_status 2 "$FSTUNE" --workload no-such-preset </dev/null
grep -q "smallfiles" "$TMP/err" || fail "--workload: the error does not list the presets"
run_status 2 "$FSTUNE" --sample "$TMP" </dev/null
grep -q "fstune report --sample" "$TMP/err" || fail "--sample: no pointer to 'fstune report --sample'"
