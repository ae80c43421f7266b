#!/bin/bash
# Benchmark (not in make check): the wizard's first screen must be drawn within 100 ms of the
# program starting, on a non-sanitized build. The program runs in a real 80x24 terminal (tmux) on
# the live machine, so the first screen includes the Target scan (sysfs, mountinfo, blkid). The
# time is from just before exec to the first frame reaching the terminal (FSTUNE_DEBUG=ui).
#
# Usage: FSTUNE=/path/to/fstune FSTUNE_SRCDIR=/path/to/source tests/perf/wizard-first-draw.sh [RUNS]
# Prints min / median / max in ms; exits 1 when the median is over the budget.
set -eu
: "${FSTUNE:?set FSTUNE to a non-sanitized fstune binary}"
: "${FSTUNE_SRCDIR:=$(cd "$(dirname "$0")/../.." && pwd)}"
export FSTUNE FSTUNE_SRCDIR
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
. "$FSTUNE_SRCDIR/tests/lib/tmux.sh"
require_tmux

runs=${1:-20}
budget_ms=${WIZARD_FIRST_DRAW_BUDGET_MS:-100}
if nm -D "$FSTUNE" 2>/dev/null | grep -q __asan_init || ldd "$FSTUNE" 2>/dev/null | grep -q libasan; then
	echo "wizard-first-draw: $FSTUNE is a sanitized build; configure without --enable-sanitizers" >&2
	exit 2
fi

cat >"$TMP/tmux.conf" <<-EOF2
	set -g status off
	set -g escape-time 0
	set -g default-terminal tmux-256color
EOF2
: >"$TMP/times"
for ((i = 0; i < runs; i++)); do
	rm -f "$TMP/dbg" "$TMP/start"
	cat >"$TMP/run.sh" <<-EOF2
		date +%s.%N >$(printf '%q' "$TMP/start")
		exec env LC_ALL=C.UTF-8 FSTUNE_DEBUG=ui $(printf '%q' "$FSTUNE") --no-system-rules 2>$(printf '%q' "$TMP/dbg")
	EOF2
	tmux -S "$TMUX_SOCK" -f "$TMP/tmux.conf" new-session -d -s fst -x 80 -y 24 "bash $TMP/run.sh"
	start=$SECONDS
	until grep -q "first frame drawn at" "$TMP/dbg" 2>/dev/null; do
		((SECONDS - start < 10)) || fail "no first frame after 10 s (run $i)"
		sleep 0.01
	done
	tmux_wait "Target:" 5
	tmux_keys q
	while tmux -S "$TMUX_SOCK" has-session -t fst 2>/dev/null; do sleep 0.01; done
	drawn=$(sed -n 's/.*first frame drawn at \([0-9.]*\).*/\1/p' "$TMP/dbg")
	awk -v a="$(cat "$TMP/start")" -v b="$drawn" 'BEGIN { printf "%.2f\n", (b - a) * 1000 }' >>"$TMP/times"
done
sort -n "$TMP/times" >"$TMP/sorted"
min=$(head -n 1 "$TMP/sorted")
max=$(tail -n 1 "$TMP/sorted")
median=$(awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }' "$TMP/sorted")
echo "wizard first draw over $runs runs: min ${min} ms, median ${median} ms, max ${max} ms (budget ${budget_ms} ms)"
awk -v m="$median" -v b="$budget_ms" 'BEGIN { exit !(m <= b) }' || {
	echo "wizard-first-draw: the median ${median} ms is over the budget of ${budget_ms} ms" >&2
	exit 1
}
