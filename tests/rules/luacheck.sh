#!/bin/bash
# luacheck over the shipped rules and the test rule files meant to be valid, with the repository's
# .luacheckrc (the sandbox's globals; named explicitly, since a build directory outside the source
# tree has none above it). The broken and hostile rule files are wrong on purpose and not checked.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
require_cmd luacheck

cd "$FSTUNE_SRCDIR"
paths=(rules/builtin tests/rules/good tests/rules/broken/ok.lua tests/rules/needs-bench tests/facts/rules-threshold
	tests/apply/rules)
luacheck --no-color --codes --config .luacheckrc "${paths[@]}" >"$TMP/out" 2>&1 ||
	{ cat "$TMP/out" >&2; fail "luacheck found problems in the rule files"; }
# luacheck read every file (a path it skipped would pass silently)
n=$(find "${paths[@]}" -name '*.lua' | wc -l)
grep -q "^Total: 0 warnings / 0 errors in $n files$" "$TMP/out" ||
	{ cat "$TMP/out" >&2; fail "luacheck did not check the $n rule files"; }
