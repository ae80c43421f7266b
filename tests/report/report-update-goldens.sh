#!/bin/bash
# Rewrites the golden reports under tests/golden/ from the current build. Not a test: run it by hand
# after a change that is meant to change reports, read the diff, and say in the commit why each
# golden changed.
#
#   tests/report/report-update-goldens.sh BUILDDIR     (the directory holding the built `fstune`)
set -eu
srcdir=$(cd "$(dirname "$0")/../.." && pwd)
builddir=${1:?usage: $0 BUILDDIR}
export FSTUNE="$(cd "$builddir" && pwd)/fstune"
export FSTUNE_SRCDIR="$srcdir"
[ -x "$FSTUNE" ] || { echo "no fstune in $builddir: build first" >&2; exit 2; }
. "$srcdir/tests/lib/report.sh"
mkdir -p "$srcdir/tests/golden"
for facts in $(report_facts_files); do
	for format in $REPORT_FORMATS; do
		out="$srcdir/tests/golden/${facts%.json}.$(report_ext "$format")"
		report_run "$facts" "$format" | report_normalize "$format" >"$out.tmp"
		mv "$out.tmp" "$out"
		echo "wrote ${out#"$srcdir"/}"
	done
done
git -C "$srcdir" status --short -- tests/golden 2>/dev/null || true
