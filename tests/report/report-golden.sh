#!/bin/bash
# The report of every facts file under tests/facts/, in text, Markdown and JSON, equals its golden
# under tests/golden/ after the normalization of tests/lib/report.sh. A golden changes only in a commit
# that says why; tests/report/report-update-goldens.sh rewrites them.
. "${FSTUNE_SRCDIR:?run the tests through make check}/tests/lib/common.sh" || exit 99
. "$FSTUNE_SRCDIR/tests/lib/report.sh" || exit 99
require_cmd jq diff

[ -d "$FSTUNE_SRCDIR/rules/builtin" ] || skip "no rules/builtin in the source tree yet"
n=0
bad=0
for facts in $(report_facts_files); do
	for format in $REPORT_FORMATS; do
		golden="$FSTUNE_SRCDIR/tests/golden/${facts%.json}.$(report_ext "$format")"
		got="$TMP/${facts%.json}.$(report_ext "$format")"
		status=0
		report_run "$facts" "$format" >"$TMP/raw" 2>"$TMP/err" || status=$?
		[ "$status" = 0 ] || { cat "$TMP/err" >&2; fail "report on $facts ($format): status $status"; }
		report_normalize "$format" <"$TMP/raw" >"$got"
		# A golden must not freeze a broken shipped rule into the expected output.
		if [ "$format" = json ] && [ "$(jq '.errors | length' "$got")" != 0 ]; then
			jq -r '.errors[] | "\(.file):\(.line // "-"): \(.message)"' "$got" >&2
			fail "the shipped rules have errors on $facts"
		fi
		if [ ! -f "$golden" ]; then
			echo "missing golden $golden: run tests/report/report-update-goldens.sh" >&2
			bad=$((bad + 1))
		elif ! diff -u "$golden" "$got" >"$TMP/diff"; then
			head -n 60 "$TMP/diff" >&2
			echo "^^^ $facts ($format) differs from its golden" >&2
			bad=$((bad + 1))
		fi
		n=$((n + 1))
	done
done
[ "$n" -ge 12 ] || fail "only $n reports compared: facts files missing?"
[ "$bad" = 0 ] || fail "$bad of $n reports differ from their goldens (if the change is meant, run tests/report/report-update-goldens.sh and say why in the commit)"
echo "$n reports equal their goldens"
