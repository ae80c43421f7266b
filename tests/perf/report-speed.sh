#!/bin/bash
# Speed goal of `fstune report`: `report --facts F --bench none` with all shipped rules runs
# in under 50 ms on a non-sanitized build. Not part of `make check` (timings are not tests there).
#
#   tests/perf/report-speed.sh BUILDDIR [RUNS]
# Prints the median and the slowest wall-clock time of RUNS runs (default 20) on each facts file under
# tests/facts/, and exits 1 when a median is over the goal.
set -eu
. "$(dirname "$0")/../lib/perf.sh"
perf_build "${1:?usage: $0 BUILDDIR [RUNS]}"
runs=${2:-20}
goal_ms=${FSTUNE_REPORT_GOAL_MS:-50}
unset FSTUNE_RULES_PATH
nrules=$(ls "$FSTUNE_RULES_BUILTIN"/*.lua 2>/dev/null | wc -l)
echo "fstune report --facts F --bench none --format json, $nrules shipped rule files, $runs runs each"
echo "load: $(cut -d" " -f1-3 /proc/loadavg) on $(nproc) CPUs (timings on a busy machine are upper bounds)"
worst=0
for facts in "$srcdir"/tests/facts/*.json; do
	times=()
	cpus=()
	for ((i = 0; i < runs; i++)); do
		t0=$(date +%s%N)
		/usr/bin/time -f "%U %S" -o "$tmp/time" "$fstune" report --no-system-rules --facts "$facts" --bench none \
			--format json >/dev/null 2>&1 || [ $? -le 1 ]
		t1=$(date +%s%N)
		times+=($(((t1 - t0) / 1000)))
		# CPU time of fstune and its rule children: what the machine's load does not inflate.
		cpus+=("$(awk '{ printf "%d", ($1 + $2) * 1000000 }' "$tmp/time")")
	done
	median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$((runs / 2 + 1))p")
	max=$(printf '%s\n' "${times[@]}" | sort -n | tail -n 1)
	cpu=$(printf '%s\n' "${cpus[@]}" | sort -n | sed -n "$((runs / 2 + 1))p")
	printf '  %-28s wall median %6.1f ms  max %6.1f ms   cpu median %5.1f ms\n' "$(basename "$facts")" \
		"$(awk -v us="$median" 'BEGIN { print us / 1000 }')" "$(awk -v us="$max" 'BEGIN { print us / 1000 }')" \
		"$(awk -v us="$cpu" 'BEGIN { print us / 1000 }')"
	[ "$median" -gt "$worst" ] && worst=$median
done
if [ "$worst" -gt $((goal_ms * 1000)) ]; then
	echo "FAIL: the slowest median is over $goal_ms ms" >&2
	exit 1
fi
echo "ok: every median under $goal_ms ms"
