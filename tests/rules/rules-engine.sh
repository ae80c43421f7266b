#!/bin/bash
# Every shipped rule's test vectors pass through the real engine, and the engine's evaluation of a
# server's facts gives the expected recommendations with engine-built commands.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"

builtin=$FSTUNE_RULES_BUILTIN

# All shipped rules (every rule-set's), through the CLI: one line per vector, all passing.
run_status 0 "$FSTUNE" rules test --no-system-rules "$builtin"
grep -q '^FAIL' "$TMP/out" && fail "a shipped rule's vector failed: $(grep '^FAIL' "$TMP/out")"
last=$(tail -n 1 "$TMP/out")
[[ $last =~ ^([0-9]+)\ passed,\ 0\ failed$ ]] || fail "closing line: '$last'"
[ "${BASH_REMATCH[1]}" -ge 25 ] || fail "only ${BASH_REMATCH[1]} vectors ran"

# This helper's three rules, each with its own count.
for pair in directories:10 queue:18 writeback:19; do
	f=${pair%%:*} n=${pair##*:}
	run_status 0 "$FSTUNE" rules test "$builtin/$f.lua"
	assert_eq "$(tail -n 1 "$TMP/out")" "$n passed, 0 failed" "rules test $f.lua"
done

# The vectors' facts are read as a hand-written facts file: evidence sources are "user", and the
# confidence is capped at 0.7 (writeback's bench-backed vector gives 0.8 and names its sources).
run_status 0 "$FSTUNE" rules test --format json "$builtin/writeback.lua"
assert_eq "$(jq -r '.failed' "$TMP/out")" 0 "json failed count"
assert_eq "$(jq -r '.results | length' "$TMP/out")" 19 "json result count"
