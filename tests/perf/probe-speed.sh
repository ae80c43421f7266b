#!/bin/bash
# Speed goal of `fstune probe`: `probe --format json` of a mounted filesystem in under 50 ms. Run on
# a non-sanitized build, not in make check:
#   FSTUNE=/path/to/build/fstune tests/perf/probe-speed.sh [DIR]
# DIR defaults to the current directory's filesystem. Uses hyperfine when installed, else the mean
# of a loop of runs timed with date +%s%N. Exit 0 when the mean is under the goal, 1 otherwise.
set -eu
FSTUNE=${FSTUNE:-fstune}
DIR=${1:-.}
RUNS=${RUNS:-50}
GOAL_MS=${GOAL_MS:-50}

if ldd "$(command -v "$FSTUNE")" 2>/dev/null | grep -q libasan; then
	echo "warning: $FSTUNE is built with sanitizers; the goal is for a plain build" >&2
fi
"$FSTUNE" probe --format json "$DIR" >/dev/null # warm the caches; fail early on errors

if command -v hyperfine >/dev/null 2>&1; then
	out=$(mktemp)
	trap 'rm -f "$out"' EXIT
	hyperfine -N --warmup 3 --runs "$RUNS" --export-json "$out" \
		"$FSTUNE probe --format json $DIR" >&2
	mean_ms=$(jq '.results[0].mean * 1000' "$out")
else
	total=0
	for ((i = 0; i < RUNS; i++)); do
		start=$(date +%s%N)
		"$FSTUNE" probe --format json "$DIR" >/dev/null
		end=$(date +%s%N)
		total=$((total + end - start))
	done
	mean_ms=$(awk -v t="$total" -v n="$RUNS" 'BEGIN { printf "%.2f", t / n / 1e6 }')
fi
printf 'fstune probe --format json %s: mean %.2f ms over %d runs (goal < %d ms)\n' \
	"$DIR" "$mean_ms" "$RUNS" "$GOAL_MS"
awk -v m="$mean_ms" -v g="$GOAL_MS" 'BEGIN { exit !(m < g) }'
