#!/bin/bash
# `fstune rules list|show|test` on the shipped rules, a directory that replaces one of them, and a
# directory with a broken file; usage errors.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
require_cmd jq

good=$FSTUNE_SRCDIR/tests/rules/good
broken=$FSTUNE_SRCDIR/tests/rules/broken
builtin=$FSTUNE_RULES_BUILTIN

# list: every shipped id, text and JSON agree.
run_status 0 "$FSTUNE" rules list --no-system-rules
for id in directories queue writeback; do
	grep -q "^$id " "$TMP/out" || fail "rules list lacks $id"
done
run_status 0 "$FSTUNE" rules list --no-system-rules --format json
assert_eq "$(jq -r '[.rules[].id] | map(select(. == "directories" or . == "queue" or . == "writeback")) | length' "$TMP/out")" \
	3 "json ids"
assert_eq "$(jq -r '.errors | length' "$TMP/out")" 0 "json errors of the shipped rules"
assert_eq "$(jq -r '.rules[] | select(.id == "queue") | .needs | join(",")' "$TMP/out")" \
	"device.transport,device.scheduler" "queue needs"

# The uninstalled binary of a build tree (`./build.sh && ./fstune`) finds the source tree's rules
# by itself; a copy elsewhere is not that binary and looks in the installed directory only.
(unset FSTUNE_RULES_BUILTIN; "$FSTUNE" rules list --no-system-rules --format json) >"$TMP/own.json" ||
	fail "uninstalled binary without FSTUNE_RULES_BUILTIN: $(cat "$TMP/own.json")"
assert_eq "$(jq -r '[.rules[].id] | index("queue") != null' "$TMP/own.json")" true "uninstalled binary's rules"
assert_eq "$(jq -r '.errors | length' "$TMP/own.json")" 0 "uninstalled binary's rule errors"
cp "$FSTUNE" "$TMP/fstune-copy"
(unset FSTUNE_RULES_BUILTIN; "$TMP/fstune-copy" rules list --no-system-rules --format json) >"$TMP/copy.json" || true
jq -e --arg src "$FSTUNE_SRCDIR/" '.rules | map(select(.file | startswith($src))) | length == 0' \
	"$TMP/copy.json" >/dev/null || fail "a copy of the binary outside the build tree took the source tree's rules"
if jq -e '.rules | length == 0' "$TMP/copy.json" >/dev/null; then # nothing installed: say what to do
	jq -e '.errors | any(.message | test("make install"))' "$TMP/copy.json" >/dev/null ||
		fail "no hint for missing built-in rules: $(jq -c '.errors' "$TMP/copy.json")"
fi

# list --format markdown: the rules table and the setting -> rules table for the docs.
run_status 0 "$FSTUNE" rules list --no-system-rules --format markdown
grep -q '^| `directories` | Directory indexing' "$TMP/out" || fail "markdown rules table"
grep -q '^| `fs.feature.dir_index` | boolean | true, false | offline | `directories` |$' "$TMP/out" ||
	fail "markdown settings table: $(grep dir_index "$TMP/out")"
grep -q '^| `queue.scheduler` | string | none, mq-deadline, bfq, kyber | runtime | .*`queue`' "$TMP/out" ||
	fail "markdown settings table for queue.scheduler"

# A later directory replaces the built-in id, and says so.
run_status 0 "$FSTUNE" rules list --no-system-rules --rules-dir "$good"
grep -q "^notice: $good/queue.lua replaces $builtin/queue.lua (rule queue)$" "$TMP/out" ||
	fail "no replacement notice: $(cat "$TMP/out")"
grep -q "^queue .*(replaced)$" "$TMP/out" || fail "the built-in queue is not marked replaced"
run_status 0 "$FSTUNE" rules show --no-system-rules --rules-dir "$good" queue
grep -q "^file:     $good/queue.lua$" "$TMP/out" || fail "show does not show the replacing file"
# FSTUNE_RULES_PATH comes before --rules-dir: the --rules-dir file wins.
mkdir "$TMP/late"
sed 's/Local policy/Later policy/' "$good/queue.lua" >"$TMP/late/queue.lua"
FSTUNE_RULES_PATH=$good run_status 0 "$FSTUNE" rules show --no-system-rules --rules-dir "$TMP/late" queue
grep -q '^queue: Later policy' "$TMP/out" || fail "--rules-dir did not replace FSTUNE_RULES_PATH"

# show: description, sources, settings, needs, uses, tests.
run_status 0 "$FSTUNE" rules show --no-system-rules directories
grep -q '^directories: Directory indexing on ext2/3/4' "$TMP/out" || fail "show title"
grep -q '^needs:    fs.type, fs.features$' "$TMP/out" || fail "show needs"
grep -q '^settings: fs.feature.dir_index, fs.feature.large_dir$' "$TMP/out" || fail "show settings"
grep -q '^uses:     fs.block_size, ' "$TMP/out" || fail "show uses"
grep -q '^  - tune2fs(8) -O dir_index' "$TMP/out" || fail "show sources"
grep -q '^  1. ext4 without dir_index -> dir_index_off$' "$TMP/out" || fail "show tests"
grep -q '^  6. ext4 defaults: nothing to say -> nothing$' "$TMP/out" || fail "show negative test"
run_status 0 "$FSTUNE" rules show --no-system-rules --format json writeback
assert_eq "$(jq -r '.settings | join(",")' "$TMP/out")" \
	"sysctl.vm.dirty_bytes,sysctl.vm.dirty_background_bytes" "show json settings"
run_status 0 "$FSTUNE" rules show --no-system-rules --format markdown queue
grep -q '^## `queue`: I/O scheduler' "$TMP/out" || fail "show markdown"

# test: good directory (one vector there is meant to fail), broken directory, a single file.
run_status 1 "$FSTUNE" rules test "$good"
assert_eq "$(tail -n 1 "$TMP/out")" "4 passed, 2 failed" "rules test good"
grep -q "^FAIL $good/queue.lua 2 positive that must fail: expected never_produced, got \[\]$" "$TMP/out" ||
	fail "failing vector line: $(cat "$TMP/out")"
run_status 1 "$FSTUNE" rules test "$broken"
assert_eq "$(tail -n 1 "$TMP/out")" "2 passed, 1 failed" "rules test broken"
grep -q "^FAIL $broken/syntax.lua (load): line 3: " "$TMP/out" || fail "load failure line: $(cat "$TMP/out")"
grep -q "^PASS $broken/ok.lua 1 ext4: ok$" "$TMP/out" || fail "the good file beside the broken one"
# Lua shortens chunk names past 60 bytes; a long path must still give its file and line.
long="$TMP/a-directory-name-long-enough-that-lua-would-shorten-the-path-of-a-rule"
mkdir -p "$long"
cp "$broken/syntax.lua" "$long/"
run_status 1 "$FSTUNE" rules test "$long/syntax.lua"
grep -q "^FAIL $long/syntax.lua (load): line 3: " "$TMP/out" || fail "long path: $(cat "$TMP/out")"
run_status 0 "$FSTUNE" rules test "$broken/ok.lua"
assert_eq "$(cat "$TMP/out")" "PASS $broken/ok.lua 1 ext4: ok
PASS $broken/ok.lua 2 xfs: ok
2 passed, 0 failed" "rules test one file"
run_status 0 "$FSTUNE" rules test --quiet "$broken/ok.lua"
assert_eq "$(cat "$TMP/out")" "2 passed, 0 failed" "rules test --quiet"
run_status 1 "$FSTUNE" rules test --format json "$broken"
assert_eq "$(jq -r '"\(.passed) \(.failed)"' "$TMP/out")" "2 1" "rules test json"
# list on the broken directory still lists the good file, with the error.
run_status 0 "$FSTUNE" rules list --no-system-rules --rules-dir "$broken"
grep -q "^ok_rule " "$TMP/out" || fail "list lost the good file beside a broken one"
grep -q "^error: $broken/syntax.lua:3: " "$TMP/out" || fail "list does not show the load error"

# Usage errors: one line on stderr, status 2.
run_status 2 "$FSTUNE" rules show --no-system-rules no_such_rule
grep -q "no rule 'no_such_rule' is loaded" "$TMP/err" || fail "unknown id message"
run_status 2 "$FSTUNE" rules show --no-system-rules
run_status 2 "$FSTUNE" rules frobnicate
run_status 2 "$FSTUNE" rules
run_status 2 "$FSTUNE" rules list extra
run_status 2 "$FSTUNE" rules list --rules-dir "$TMP/does-not-exist"
grep -q -- "--rules-dir $TMP/does-not-exist: not a readable directory" "$TMP/err" || fail "missing --rules-dir"
run_status 2 "$FSTUNE" rules test "$TMP/does-not-exist.lua"
run_status 2 "$FSTUNE" rules list --format yaml
exit 0
