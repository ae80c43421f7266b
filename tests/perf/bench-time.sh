#!/bin/bash
# The time budgets of `fstune bench` (DESIGN.md): the quick suite, busy check and layout included, within 10 s and
# --full within 60 s, wall clock, measured here (a benchmark, not a unit test; non-sanitized build).
#
# Usage: tests/perf/bench-time.sh [DIR]
#   DIR   where to measure; default (as root): a loop-mounted ext4 (loop with direct I/O) on a 4 GiB
#         sparse image, in a private mount namespace
# Environment: FSTUNE (default ./fstune), TMPDIR (where the image goes). Exit 1 when a budget is missed.
set -eu
. "$(dirname "$0")/lib.sh"

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
for suite in quick full; do
	budget=10
	[ $suite = full ] && budget=60
	start=$(date +%s.%N)
	"$FSTUNE" bench --$suite --quiet "$dir" >"$work/$suite.txt" || { echo "bench --$suite failed" >&2; status=1; }
	end=$(date +%s.%N)
	took=$(awk -v a="$start" -v b="$end" 'BEGIN {printf "%.1f", b - a}')
	verdict=$(awk -v t="$took" -v b="$budget" 'BEGIN {print (t <= b) ? "ok" : "OVER BUDGET"}')
	printf 'bench --%-5s %6.1f s (budget %3d s) %s\n' "$suite" "$took" "$budget" "$verdict"
	[ "$verdict" = ok ] || status=1
done
exit $status
