#!/bin/bash
# Speed and size goal of `fstune compare` at fleet size: 1,000 reports (the server fixtures
# multiplied by tests/lib/make-fleet.sh) compared in under 5 s of wall-clock time on a non-sanitized
# build, printing at most 300 lines, none wider than 200 columns, with each finding's host count.
# Not part of `make check` (timings are not tests there).
#
#   tests/perf/compare-fleet.sh BUILDDIR [N]
# Prints the time, peak memory, lines and widest line of the text and Markdown forms, the time of
# --format json, and exits 1 when a goal is missed.
set -eu
. "$(dirname "$0")/../lib/perf.sh"
perf_build "${1:?usage: $0 BUILDDIR [N]}"
n=${2:-1000}
goal_s=${FSTUNE_COMPARE_GOAL_S:-5}
distinct=$("$srcdir/tests/lib/make-fleet.sh" "$fstune" "$n" "$tmp/fleet")
echo "fstune compare of $n reports ($distinct distinct ones, $(du -sh "$tmp/fleet" | cut -f1) of JSON)"
echo "load: $(cut -d" " -f1-3 /proc/loadavg) on $(nproc) CPUs (timings on a busy machine are upper bounds)"
status=0
for fmt in text markdown json; do
	t0=$(date +%s%N)
	/usr/bin/time -f "%U %S %M" -o "$tmp/time" "$fstune" compare --format "$fmt" "$tmp"/fleet/*.json >"$tmp/out.$fmt"
	t1=$(date +%s%N)
	read -r user sys rss <"$tmp/time"
	wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", (b - a) / 1e9 }')
	lines=$(wc -l <"$tmp/out.$fmt")
	width=$(LC_ALL=C.UTF-8 wc -L <"$tmp/out.$fmt")
	printf '  %-8s %6s s wall, %5.2f s CPU, %4d MiB peak, %5d lines, widest %d columns\n' "$fmt" "$wall" \
		"$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')" $((rss / 1024)) "$lines" "$width"
	awk -v w="$wall" -v g="$goal_s" 'BEGIN { exit !(w < g) }' || { echo "  $fmt: over the goal of $goal_s s" >&2; status=1; }
	if [ "$fmt" != json ]; then
		[ "$lines" -le 300 ] || { echo "  $fmt: over 300 lines" >&2; status=1; }
		[ "$width" -le 200 ] || { echo "  $fmt: a line over 200 columns" >&2; status=1; }
	fi
done
# Every finding with its host count, as the JSON counts it.
while read -r id hosts; do
	grep -Eq "^  ${id//./\\.} +[a-z0-9, ]+ +$hosts +" "$tmp/out.text" || { echo "  text: no host count $hosts for $id" >&2; status=1; }
done < <(jq -r '.fleet.findings[] | "\(.id) \(.hosts)"' "$tmp/out.json")
exit "$status"
