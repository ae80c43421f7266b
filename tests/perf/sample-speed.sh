#!/bin/bash
# Speed of the sampler (`--sample`) against `find -printf '%s\n'` on the same warm tree of about
# 200,000 files (FSTUNE_TEST_SCALE multiplies it). Goal: at least 200,000 files/s, and no
# slower than find. Not part of make check; run on a non-sanitized build:
#   FSTUNE=/path/to/fstune FSTUNE_SRCDIR=/path/to/source tests/perf/sample-speed.sh [DIR]
# With DIR, that tree is measured instead of a generated one. Exit 1 when a goal is missed.
set -eu
: "${FSTUNE:?set FSTUNE to the fstune binary (a build without sanitizers)}"
scale=${FSTUNE_TEST_SCALE:-1}
rounds=${ROUNDS:-5}
work=
cleanup() { [ -z "$work" ] || rm -rf "$work"; }
trap cleanup EXIT

if [ $# -gt 0 ]; then
	tree=$1
else
	work=$(mktemp -d "${TMPDIR:-/tmp}/fstune-perf.XXXXXX")
	tree=$work/tree
	# 2,000 directories in two levels, 100 files each, sizes 0..64 KiB written sparsely (truncate):
	# the sampler reads metadata only, so file contents do not matter.
	python3 - "$tree" "$scale" <<'PY'
import os, random, sys
root, scale = sys.argv[1], float(sys.argv[2])
rng = random.Random(1)
for a in range(int(40 * scale)):
    for b in range(50):
        d = os.path.join(root, "a%d" % a, "b%d" % b)
        os.makedirs(d)
        for i in range(100):
            fd = os.open(os.path.join(d, "f%d" % i), os.O_CREAT | os.O_WRONLY, 0o644)
            os.ftruncate(fd, rng.randrange(0, 65536))
            os.close(fd)
PY
fi

# Warm the caches, then take the best of $rounds wall-clock times of each.
find "$tree" -printf '%s\n' >/dev/null
"$FSTUNE" workload --quiet --json --sample "$tree" >/dev/null
# Best wall time and best CPU time (user + sys) of $rounds runs. The goals are judged on CPU time,
# which other work on a shared machine does not inflate; wall times are printed beside them.
best() {
	local out wall cpu bw='' bc=''
	for ((r = 0; r < rounds; r++)); do
		out=$( { /usr/bin/time -f '%e %U %S' "$@" >/dev/null; } 2>&1 | tail -1)
		wall=$(echo "$out" | awk '{print $1}')
		cpu=$(echo "$out" | awk '{print $2 + $3}')
		if [ -z "$bw" ] || awk "BEGIN {exit !($wall < $bw)}"; then bw=$wall; fi
		if [ -z "$bc" ] || awk "BEGIN {exit !($cpu < $bc)}"; then bc=$cpu; fi
	done
	echo "$bw $bc"
}
files=$("$FSTUNE" workload --quiet --json --sample "$tree" | jq -r .workload.files_total)
entries=$(find "$tree" | wc -l)
read -r w_find c_find < <(best find "$tree" -printf '%s\n')
read -r w_fst c_fst < <(best "$FSTUNE" workload --quiet --json --sample "$tree")

awk -v f="$files" -v e="$entries" -v wf="$w_find" -v cf="$c_find" -v ws="$w_fst" -v cs="$c_fst" '
function rate(n, t) { return n / (t > 0 ? t : 0.01) }
BEGIN {
	printf "tree: %d files, %d entries; best of '"$rounds"' warm runs\n", f, e
	printf "%-24s %8s %12s %8s %12s\n", "", "wall s", "per s", "cpu s", "per s"
	printf "%-24s %8.2f %12.0f %8.2f %12.0f\n", "find -printf %s", wf, rate(e, wf), cf, rate(e, cf)
	printf "%-24s %8.2f %12.0f %8.2f %12.0f\n", "fstune workload --sample", ws, rate(f, ws), cs, rate(f, cs)
	ok = rate(f, cs) >= 200000 && cs <= cf
	printf "goals (>= 200000 files/s, no slower than find, on cpu time): %s\n", ok ? "met" : "MISSED"
	exit !ok
}'
