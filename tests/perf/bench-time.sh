#!/bin/bash
# The time budgets of `fstune bench` (DESIGN.md): the quick suite, busy check and layout included, within 6 s and
# --full within 45 s, wall clock, measured here (a benchmark, not a unit test; non-sanitized build), with
# what each second went to: the busy check, the layout, each test's warm-up and measured time, and the
# rest (start-up, the file tests' own set-up, clean-up). Say the load average beside the numbers: the
# machine is shared.
#
# Usage: tests/perf/bench-time.sh [DIR]
#   DIR   where to measure; default (as root): a loop-mounted ext4 (loop with direct I/O) on a 4 GiB
#         sparse image, in a private mount namespace
# Environment: FSTUNE (default ./fstune), TMPDIR (where the image goes). Exit 1 when a budget is missed.
set -eu
. "$(dirname "$0")/../lib/perf.sh"

FSTUNE=${FSTUNE:-./fstune}
dir=${1:-}
work=$(mktemp -d "${TMPDIR:-/var/tmp}/bench-time.XXXXXX")
cleanup() {
	[ -n "${mnt:-}" ] && umount "$mnt" 2>/dev/null
	[ -n "${loopdev:-}" ] && losetup -d "$loopdev" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
"$FSTUNE" bench --help >/dev/null || { echo "bench-time: $FSTUNE has no bench command" >&2; exit 2; }

if [ -z "$dir" ]; then
	[ "$(id -u)" = 0 ] || { echo "bench-time: name a DIR, or run as root for a loop-mounted ext4" >&2; exit 2; }
	if [ -z "${BENCH_TIME_NS:-}" ]; then
		trap - EXIT
		rm -rf "$work"
		BENCH_TIME_NS=1 exec unshare --mount --propagation private -- bash "$0"
	fi
	mnt=$work/mnt
	mkdir "$mnt"
	loop_ext4 "$work/ext4.img" "$mnt" 4G
	dir=$mnt
fi

status=0
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
for suite in quick full; do
	budget=6
	[ $suite = full ] && budget=45
	start=$(date +%s.%N)
	"$FSTUNE" bench --$suite --json --quiet "$dir" >"$work/$suite.json" || { echo "bench --$suite failed" >&2; status=1; }
	end=$(date +%s.%N)
	took=$(awk -v a="$start" -v b="$end" 'BEGIN {printf "%.2f", b - a}')
	verdict=$(awk -v t="$took" -v b="$budget" 'BEGIN {print (t <= b) ? "ok" : "OVER BUDGET"}')
	printf 'bench --%-5s %6.1f s (budget %3d s) %s\n' "$suite" "$took" "$budget" "$verdict"
	# where the time went: the I/O tests' warm-up and measured window, the file tests' own time
	jq -r --argjson took "$took" '.bench as $b | ($b.parameters.warmup_s // 0) as $w |
		[$b | to_entries[] | select(.value | type == "object" and has("runtime_s") and has("iops"))] as $io |
		[$b | to_entries[] | select(.value | type == "object" and has("iops") | not) |
			select(.key != "parameters" and .key != "busy_check" and .key != "rotational_claim")] as $files |
		($b.busy_check.seconds // 0) as $busy | ($b.parameters.layout_s // 0) as $layout |
		([$io[] | .value.runtime_s] | add // 0) as $measured | (($io | length) * $w) as $warm |
		"  busy check \($busy * 100 | round / 100) s, layout \($layout * 100 | round / 100) s, warm-up \($warm * 100 | round / 100) s (\($io | length) x \($w) s), measured \($measured * 100 | round / 100) s, the rest \(($took - $busy - $layout - $warm - $measured) * 100 | round / 100) s" +
		(if ($files | length) > 0 then " (file tests: \([$files[] | .key] | join(", ")))" else "" end),
		($io[] | "    \(.key): \(.value.runtime_s) s measured, ci95 \(.value.ci95_pct // "-")%")' "$work/$suite.json"
	[ "$verdict" = ok ] || status=1
done
exit $status
