#!/bin/bash
# Exit statuses and bad input of `fstune report`: malformed, empty and wrong-typed facts files (2, one
# line naming the file), usage errors (2), an unwritable --output (2, nothing written), --fail-on
# thresholds (1), rule errors with and without --strict (0 / 3), a failed fact (3), and which status
# wins when several apply.
. "${FSTUNE_SRCDIR:?run the tests through make check}/tests/lib/common.sh" || exit 99
require_cmd jq

FACTS="$FSTUNE_SRCDIR/tests/facts"
# Copies with safe modes: as root the engine refuses rule files writable by group or others, which a
# checkout made under umask 002 would have.
cp -r "$FACTS/rules-broken" "$FACTS/rules-threshold" "$TMP/"
chmod -R go-w "$TMP/rules-broken" "$TMP/rules-threshold"
BROKEN="$TMP/rules-broken"
THRESH="$TMP/rules-threshold"
# Only the test rules run here: the built-in directory is an empty one, so the expected statuses do
# not depend on what the shipped rules say.
mkdir "$TMP/no-rules"
export FSTUNE_RULES_BUILTIN="$TMP/no-rules"
unset FSTUNE_RULES_PATH
R=("$FSTUNE" report --no-system-rules)

# one_line_error WHAT NEEDLE: stderr is exactly one line "fstune: ..." containing NEEDLE, stdout empty.
one_line_error() {
	[ "$(wc -l <"$TMP/err")" = 1 ] || { cat "$TMP/err" >&2; fail "$1: want one line on stderr"; }
	grep -q "^fstune: " "$TMP/err" || fail "$1: stderr does not start with 'fstune: '"
	grep -qF -- "$2" "$TMP/err" || { cat "$TMP/err" >&2; fail "$1: the message does not name '$2'"; }
	[ ! -s "$TMP/out" ] || fail "$1: something was written to stdout"
}

# --- bad facts files: status 2 with the core's message, naming the file ---
printf '{"schema": "fstune.facts/1", "fs": {"type": "ext4",\n' >"$TMP/truncated.json"
run_status 2 "${R[@]}" --facts "$TMP/truncated.json"
one_line_error "truncated facts" "truncated.json"
grep -q "line" "$TMP/err" || fail "a syntax error's message does not give the line"

: >"$TMP/empty.json"
run_status 2 "${R[@]}" --facts "$TMP/empty.json"
one_line_error "empty facts" "empty.json"

echo '{"schema": "fstune.facts/1", "fs": {"type": "ext4", "block_size": "4k"}}' >"$TMP/wrongtype.json"
run_status 2 "${R[@]}" --facts "$TMP/wrongtype.json"
one_line_error "wrong-typed facts" "fs.block_size"

echo '[1, 2, 3]' >"$TMP/array.json"
run_status 2 "${R[@]}" --facts "$TMP/array.json"
one_line_error "facts not an object" "array.json"

run_status 2 "${R[@]}" --facts "$TMP/does-not-exist.json"
one_line_error "missing facts file" "does-not-exist.json"

# --- usage errors: 2, one line and a hint ---
run_status 2 "${R[@]}" --facts "$FACTS/healthy-default.json" /srv
grep -q "exclude each other" "$TMP/err" || fail "--facts with a TARGET: no clear message"
run_status 2 "${R[@]}" --facts "$FACTS/healthy-default.json" --bench quick
grep -q "only --bench none goes with --facts" "$TMP/err" || fail "--facts with --bench quick: no clear message"
run_status 2 "${R[@]}" --facts "$FACTS/healthy-default.json" --bench sometimes
run_status 2 "${R[@]}" --facts "$FACTS/healthy-default.json" --fail-on info
run_status 2 "${R[@]}" --facts "$FACTS/healthy-default.json" --format yaml
run_status 2 "${R[@]}" --facts "$FACTS/healthy-default.json" --target-os solaris
run_status 2 "${R[@]}" --facts "$FACTS/healthy-default.json" --no-such-option
run_status 2 "${R[@]}" --facts "$FACTS/healthy-default.json" --rules-dir "$TMP/no-such-dir"
run_status 2 "${R[@]}" "$TMP" "$TMP"
grep -q "one TARGET at most" "$TMP/err" || fail "two TARGETs: no clear message"
run_status 0 "${R[@]}" --facts "$FACTS/healthy-default.json" --bench none
run_status 0 "${R[@]}" --help
grep -q -- "--fail-on" "$TMP/out" || fail "--help does not list --fail-on"

# --- --output that cannot be written: 2, and nothing written anywhere ---
mkdir "$TMP/w"
echo old >"$TMP/w/keep.txt"
: >"$TMP/w/afile"
for out in "$TMP/w/no-dir/r.txt" "$TMP/w/afile/r.txt" "$TMP/w" /proc/fstune-report-test.txt; do
	run_status 2 "${R[@]}" --facts "$FACTS/healthy-default.json" --output "$out"
	grep -q "^fstune: .*--output" "$TMP/err" || { cat "$TMP/err" >&2; fail "--output $out: no clear message"; }
	[ ! -s "$TMP/out" ] || fail "--output $out: the report went to stdout instead"
done
assert_eq "$(ls -A "$TMP/w" | tr '\n' ' ')" "afile keep.txt " "files in the output directory"
# A run that fails after --output was opened leaves the old file untouched.
run_status 2 "${R[@]}" --facts "$TMP/truncated.json" --output "$TMP/w/keep.txt"
assert_eq "$(cat "$TMP/w/keep.txt")" old "--output after a failed run"
assert_eq "$(ls -A "$TMP/w" | tr '\n' ' ')" "afile keep.txt " "files left by a failed run"

# --- --fail-on: 1 when met, 0 when not ---
run_status 0 "${R[@]}" --facts "$FACTS/healthy-default.json" --rules-dir "$THRESH"
run_status 1 "${R[@]}" --facts "$FACTS/healthy-default.json" --rules-dir "$THRESH" --fail-on warn
run_status 0 "${R[@]}" --facts "$FACTS/healthy-default.json" --rules-dir "$THRESH" --fail-on critical
run_status 1 "${R[@]}" --facts "$FACTS/ext4-dir-index-off.json" --rules-dir "$THRESH" --fail-on critical
run_status 1 "${R[@]}" --facts "$FACTS/ext4-dir-index-off.json" --rules-dir "$THRESH" --fail-on warn --json
assert_eq "$(jq -r '[.recommendations[].severity] | join(",")' "$TMP/out")" "critical,warn" "severities"
run_status 0 "${R[@]}" --facts "$FACTS/xfs-md-raid.json" --rules-dir "$THRESH" --fail-on warn
# The report is written in full when the threshold is met.
run_status 1 "${R[@]}" --facts "$FACTS/healthy-default.json" --rules-dir "$THRESH" --fail-on warn \
	--output "$TMP/thresh.txt"
grep -q "threshold_for_tests.ext4_seen" "$TMP/thresh.txt" || fail "--fail-on: the report was not written"

# --- a later file with the same id replaces the earlier one, and the report says so ---
mkdir "$TMP/over"
sed 's/warns on every ext4/warns on every ext4 (replaced)/' "$THRESH/threshold_for_tests.lua" >"$TMP/over/threshold_for_tests.lua"
run_status 0 "${R[@]}" --facts "$FACTS/healthy-default.json" --rules-dir "$THRESH" --rules-dir "$TMP/over" --json
assert_eq "$(jq -r '.notices | length' "$TMP/out")" 1 "notices"
assert_eq "$(jq -r '.notices[0].file' "$TMP/out")" "$TMP/over/threshold_for_tests.lua" "the replacing file"
assert_eq "$(jq -r '.recommendations[0].rationale' "$TMP/out")" "The test rule warns on every ext4 (replaced)." \
	"the replacing file is the one that ran"
run_status 0 "${R[@]}" --facts "$FACTS/healthy-default.json" --rules-dir "$THRESH" --rules-dir "$TMP/over"
grep -q "^  threshold_for_tests: $TMP/over/threshold_for_tests.lua replaces $THRESH/threshold_for_tests.lua$" "$TMP/out" ||
	fail "the text report does not say which file replaced which"

# --- a rule error: listed, status 0; with --strict 3 ---
run_status 0 "${R[@]}" --facts "$FACTS/healthy-default.json" --rules-dir "$BROKEN" --rules-dir "$THRESH" --json
assert_eq "$(jq -r '.errors | length' "$TMP/out")" 1 "rule errors in JSON"
assert_eq "$(jq -r '.errors[0].file | sub(".*/"; "")' "$TMP/out")" broken_for_tests.lua "file of the rule error"
assert_eq "$(jq -r '.errors[0].line' "$TMP/out")" 12 "line of the rule error"
assert_eq "$(jq -r '[.recommendations[].id] | join(",")' "$TMP/out")" threshold_for_tests.ext4_seen \
	"the other rules still ran"
grep -q "^fstune: 1 rule error, listed in the report$" "$TMP/err" || { cat "$TMP/err" >&2; fail "no note of the rule error"; }
run_status 0 "${R[@]}" --facts "$FACTS/healthy-default.json" --rules-dir "$BROKEN"
grep -q "^Rule errors$" "$TMP/out" || fail "the text report has no 'Rule errors' section"
grep -q "broken_for_tests.lua:12: " "$TMP/out" || fail "the text report does not give file:line"
run_status 0 "${R[@]}" --facts "$FACTS/healthy-default.json" --rules-dir "$BROKEN" --quiet
[ ! -s "$TMP/err" ] || fail "--quiet: something on stderr"
run_status 3 "${R[@]}" --facts "$FACTS/healthy-default.json" --rules-dir "$BROKEN" --strict
grep -q "(--strict: status 3)" "$TMP/err" || fail "--strict: no note on stderr"
grep -q "^Rule errors$" "$TMP/out" || fail "--strict: the report was not written"
# 3 beats 1.
run_status 3 "${R[@]}" --facts "$FACTS/ext4-dir-index-off.json" --rules-dir "$BROKEN" --rules-dir "$THRESH" \
	--strict --fail-on warn

# --- a failed fact makes the report partial: 3 ---
jq '.unavailable = {"fs.inode_count": {"status": "failed", "reason": "ext2fs_open: Input/output error"}}' \
	"$FACTS/healthy-default.json" >"$TMP/failed.json"
run_status 3 "${R[@]}" --facts "$TMP/failed.json"
grep -q "failed: ext2fs_open: Input/output error; fs.inode_count" "$TMP/out" || fail "the failed fact is not listed"
grep -q "partial" "$TMP/err" || fail "no note that the report is partial"
# 3 beats 1 here too; a usage error beats everything.
run_status 3 "${R[@]}" --facts "$TMP/failed.json" --rules-dir "$THRESH" --fail-on warn
run_status 2 "${R[@]}" --facts "$TMP/failed.json" --rules-dir "$THRESH" --fail-on warn --output "$TMP/w/afile/x"
echo "report statuses as documented"
