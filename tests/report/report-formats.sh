#!/bin/bash
# The three formats of one report agree: on every facts file, text, Markdown and JSON show the same
# recommendation ids (same count) and, with --verbose, the same rules not evaluated (without it text
# and Markdown leave out rules that need facts only hand-written files hold); --json is --format json; --output
# writes what stdout would; a JSON report read back with --facts gives the same report; --target-os
# overrides the facts; sizes and durations take one form, and Markdown has no empty command headings.
. "${FSTUNE_SRCDIR:?run the tests through make check}/tests/lib/common.sh" || exit 99
. "$FSTUNE_SRCDIR/tests/lib/report.sh" || exit 99
require_cmd jq

[ -d "$FSTUNE_SRCDIR/rules/builtin" ] || skip "no rules/builtin in the source tree yet"
total=0
for facts in $(report_facts_files); do
	report_run "$facts" json >"$TMP/r.json"
	report_run "$facts" text --verbose >"$TMP/r.txt"
	report_run "$facts" markdown --verbose >"$TMP/r.md"

	jq -r '.recommendations[].id' "$TMP/r.json" | sort >"$TMP/ids.json"
	# Text: the line after "[SEVERITY] title" is the id.
	awk '/^\[(INFO|SUGGEST|WARN|CRITICAL)\] /{getline; sub(/^ +/, ""); print}' "$TMP/r.txt" | sort >"$TMP/ids.txt"
	sed -n 's/^- id: `\(.*\)`$/\1/p' "$TMP/r.md" | sort >"$TMP/ids.md"
	diff -u "$TMP/ids.json" "$TMP/ids.txt" >&2 || fail "$facts: text and JSON show different recommendations"
	diff -u "$TMP/ids.json" "$TMP/ids.md" >&2 || fail "$facts: Markdown and JSON show different recommendations"
	n=$(wc -l <"$TMP/ids.json")
	assert_eq "$(jq '.recommendations | length' "$TMP/r.json")" "$n" "$facts: recommendation count"
	grep -q "^Recommendations: $n\b" "$TMP/r.txt" || fail "$facts: the text summary does not say $n"
	grep -q "^## Recommendations ($n)$" "$TMP/r.md" || fail "$facts: the Markdown summary does not say $n"

	ne=$(jq '.not_evaluated | length' "$TMP/r.json")
	jq -r '.not_evaluated[].rule' "$TMP/r.json" | sort >"$TMP/ne.json"
	if [ "$ne" -gt 0 ]; then
		sed -n '/^Rules not evaluated$/,/^$/p' "$TMP/r.txt" | sed -n 's/^  \([a-z0-9_]*\): .*/\1/p' | sort >"$TMP/ne.txt"
		awk '/^## /{on = ($0 == "## Rules not evaluated")} on' "$TMP/r.md" | sed -n 's/^| `\([^`]*\)` | .*/\1/p' | sort >"$TMP/ne.md"
		diff -u "$TMP/ne.json" "$TMP/ne.txt" >&2 || fail "$facts: text lists other rules not evaluated"
		diff -u "$TMP/ne.json" "$TMP/ne.md" >&2 || fail "$facts: Markdown lists other rules not evaluated"
	else
		! grep -q '^Rules not evaluated$' "$TMP/r.txt" || fail "$facts: text lists rules not evaluated, JSON none"
	fi
	# One formatter for sizes and durations: no bare byte count beside a rounded size, no
	# "720 min 0 s", no real with five decimals; Markdown has no heading without commands under it.
	for r in "$TMP/r.txt" "$TMP/r.md"; do
		! grep -nE '[0-9] \([0-9]{4,}\)|[0-9] min [0-9]+ s|(^|[ (=])[0-9]+\.[0-9]{5,}' "$r" >&2 ||
			fail "$facts: a size or a duration not in the common form (${r##*.})"
	done
	awk '/^\*\*(Apply|Revert)\*\*$/ {h = $0; getline; getline; if ($0 !~ /^(```|[a-z ]+:$)/) {print h; bad = 1}}
		END {exit bad}' "$TMP/r.md" >&2 || fail "$facts: Markdown has an Apply or Revert heading with no commands"
	total=$((total + n))
done
[ "$total" -gt 0 ] || fail "no facts file produced any recommendation: the rules are not being run"

# --json is --format json; --output writes exactly what stdout gets, and nothing else.
facts=$(report_facts_files | head -n 1)
report_run "$facts" json | report_normalize json >"$TMP/a.json"
(cd "$FSTUNE_SRCDIR/tests/facts" && FSTUNE_RULES_BUILTIN="$FSTUNE_SRCDIR/rules/builtin" \
	"$FSTUNE" report --no-system-rules --facts "$facts" --json) | report_normalize json >"$TMP/b.json"
diff -u "$TMP/a.json" "$TMP/b.json" >&2 || fail "--json differs from --format json"
mkdir "$TMP/outdir"
report_run "$facts" text --output "$TMP/outdir/report.txt" >"$TMP/stdout"
[ ! -s "$TMP/stdout" ] || fail "--output: the report also went to stdout"
report_run "$facts" text | report_normalize text >"$TMP/c.txt"
report_normalize text <"$TMP/outdir/report.txt" >"$TMP/d.txt"
diff -u "$TMP/c.txt" "$TMP/d.txt" >&2 || fail "--output wrote something else than stdout gets"
assert_eq "$(ls -A "$TMP/outdir")" "report.txt" "files left beside --output"

# A JSON report read back with --facts: same facts, same recommendations.
report_run "$facts" json >"$TMP/report.json"
(cd "$TMP" && FSTUNE_RULES_BUILTIN="$FSTUNE_SRCDIR/rules/builtin" \
	"$FSTUNE" report --no-system-rules --facts report.json --format json) >"$TMP/again.json"
diff -u <(jq 'del(.generated)' "$TMP/report.json") <(jq 'del(.generated)' "$TMP/again.json") >&2 ||
	fail "a report read back with --facts gives another report"

# --facts - reads standard input.
(FSTUNE_RULES_BUILTIN="$FSTUNE_SRCDIR/rules/builtin" "$FSTUNE" report --no-system-rules --facts - \
	--format json <"$TMP/report.json") >"$TMP/stdin.json"
diff -u <(jq 'del(.generated)' "$TMP/report.json") <(jq 'del(.generated)' "$TMP/stdin.json") >&2 ||
	fail "--facts - gives another report"
(FSTUNE_RULES_BUILTIN="$FSTUNE_SRCDIR/rules/builtin" "$FSTUNE" report --no-system-rules --facts - \
	<"$TMP/report.json") | grep -q "facts read from standard input" || fail "--facts -: the input is not named"

# --target-os overrides host.target_os, with source user.
report_run "$facts" json --target-os freebsd >"$TMP/bsd.json"
assert_eq "$(jq -r '.facts.host.target_os' "$TMP/bsd.json")" freebsd "--target-os freebsd"
assert_eq "$(jq -r '.facts.sources["host.target_os"]' "$TMP/bsd.json")" user "source of host.target_os"
echo "formats agree on $total recommendations"
