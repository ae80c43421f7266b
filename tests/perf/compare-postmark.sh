#!/bin/bash
# fstune's smallfile against Debian's postmark 1.53 (a benchmark, not a unit test; run it as root on a
# non-sanitized build).
#
# Part 1, equivalence: for several parameter sets, both run with the same seed and parameters; they
# must perform the same numbers of creates, reads, appends and deletes and leave the same files (the
# same size in every slot, hence the same size distribution) when the transactions end. Postmark's
# sizes are logged by a small LD_PRELOAD shim around remove(3) (Postmark deletes the files left in
# slot order; fstune dumps them in the same order through FSTUNE_SMALLFILE_DUMP).
#
# Part 2, timing: ext4 made with -b 1024 and with -b 4096 on loop devices with direct I/O, fresh for
# every run; each tool runs the same transactions (counted to last at least PM_TX_SECONDS seconds on
# the faster filesystem), PM_ROUNDS rounds in alternating order; medians, the noise band (min..max
# across rounds, as ± % of the median), and the ranking each tool gives: a winner only when the two
# filesystems' ranges do not overlap, else "inconclusive".
#
# Usage: tests/perf/compare-postmark.sh [--equivalence-only | --timing-only]
# Environment: FSTUNE (default ./fstune), POSTMARK (default postmark), CC (default cc),
#   PM_TX_SECONDS (default 60: the issue's bound; lower it when time is short, and say so),
#   PM_ROUNDS (default 5), PM_FILES (default 10000), PM_SIZE (default 500-10000), TMPDIR,
#   PM_TRANSACTIONS (a fixed count instead of the calibrated one: on a shared machine whose speed
#   changes by 2x from minute to minute, a count from a short calibration can fall short of 60 s).
set -eu
. "$(dirname "$0")/../lib/perf.sh"

FSTUNE=${FSTUNE:-./fstune}
POSTMARK=${POSTMARK:-postmark}
CC=${CC:-cc}
tx_seconds=${PM_TX_SECONDS:-60}
rounds=${PM_ROUNDS:-5}
files=${PM_FILES:-10000}
size=${PM_SIZE:-500-10000}
equiv_only=0
timing_only=0
[ "${1:-}" = --equivalence-only ] && equiv_only=1
[ "${1:-}" = --timing-only ] && timing_only=1
[ "${1:-}" = -h ] || [ "${1:-}" = --help ] && { sed -n '2,22p' "$0"; exit 0; }

command -v "$POSTMARK" >/dev/null || { echo "compare-postmark: postmark not found (apt install postmark)" >&2; exit 2; }
command -v jq >/dev/null || { echo "compare-postmark: jq not found" >&2; exit 2; }
command -v "$CC" >/dev/null || { echo "compare-postmark: no C compiler ($CC) for the remove() shim" >&2; exit 2; }
"$FSTUNE" bench --help >/dev/null || { echo "compare-postmark: $FSTUNE has no bench command" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/var/tmp}/compare-postmark.XXXXXX")
mnt=
loopdev=
cleanup() {
	if [ -n "$mnt" ]; then umount "$mnt" 2>/dev/null || true; fi
	if [ -n "$loopdev" ]; then losetup -d "$loopdev" 2>/dev/null || true; fi
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

cat >"$work/shim.c" <<'EOF'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
/* Logs the size of every regular file Postmark removes, then removes it. */
int remove(const char *path)
{
	static int (*real)(const char *);
	const char *log = getenv("PM_SHIM_LOG");
	struct stat st;

	if (!real)
		real = (int (*)(const char *))dlsym(RTLD_NEXT, "remove");
	if (log && stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
		FILE *f = fopen(log, "a");
		if (f) {
			fprintf(f, "%lld\n", (long long)st.st_size);
			fclose(f);
		}
	}
	return real(path);
}
EOF
"$CC" -shared -fPIC -O2 -o "$work/shim.so" "$work/shim.c" -ldl

# postmark_run DIR SEED FILES LOW HIGH TX SUBDIRS BLOCK BIAS_READ BIAS_CREATE: Postmark's report on stdout
postmark_run() {
	local dir=$1
	cat >"$work/pm.cfg" <<EOF
set location $dir
set seed $2
set number $3
set size $4 $5
set transactions $6
$([ "$7" -gt 0 ] && echo "set subdirectories $7")
set read $8
set write $8
set bias read $9
set bias create ${10}
run
quit
EOF
	(cd "$dir" && "$POSTMARK" "$work/pm.cfg")
}

# fstune_run DIR SEED FILES LOW HIGH TX SUBDIRS BLOCK BIAS_READ BIAS_CREATE: bench.smallfile as JSON
fstune_run() {
	FSTUNE_SMALLFILE="seed=$2,files=$3,size=$4-$5,transactions=$6,subdirs=$7,read=$8,write=$8,bias_read=$9,bias_create=${10}" \
		"$FSTUNE" bench --tests smallfile --busy-check 0 --quiet --json "$1" | jq -c '.bench.smallfile'
}

# pm_num REPORT REGEX: the first number of the first line matching
pm_num() { grep -E "$2" "$1" | head -1 | grep -oE '[0-9]+' | head -1; }

# ---- Part 1: equivalence ----
equiv_fail=0
if [ $timing_only = 0 ]; then
echo "== equivalence: same seed and parameters, same operations and same files left"
eqdir=$work/eq
mkdir "$eqdir"
# seed files low high transactions subdirs block bias_read bias_create
while read -r seed nf low high tx sub blk br bc; do
	rm -f "$work/pm.sizes" "$work/fs.sizes"
	PM_SHIM_LOG=$work/pm.sizes LD_PRELOAD=$work/shim.so postmark_run "$eqdir" "$seed" "$nf" "$low" "$high" "$tx" "$sub" "$blk" "$br" "$bc" >"$work/pm.out"
	FSTUNE_SMALLFILE_DUMP=$work/fs.sizes fstune_run "$eqdir" "$seed" "$nf" "$low" "$high" "$tx" "$sub" "$blk" "$br" "$bc" >"$work/fs.json"
	pc=$(pm_num "$work/pm.out" ' created \(')
	pr=$(pm_num "$work/pm.out" ' read \(')
	pa=$(pm_num "$work/pm.out" ' appended \(')
	pd=$(pm_num "$work/pm.out" ' deleted \(')
	pleft=$(pm_num "$work/pm.out" 'Deletion alone')
	fc=$(jq .creates "$work/fs.json"); fr=$(jq .reads "$work/fs.json"); fa=$(jq .appends "$work/fs.json")
	fd=$(jq .deletes "$work/fs.json"); fleft=$(jq .files_left "$work/fs.json")
	tail -n "$pleft" "$work/pm.sizes" >"$work/pm.left"
	same_slots=no; same_dist=no
	cmp -s "$work/pm.left" "$work/fs.sizes" && same_slots=yes
	cmp -s <(sort -n "$work/pm.left") <(sort -n "$work/fs.sizes") && same_dist=yes
	verdict=same
	[ "$pc $pr $pa $pd $pleft" = "$fc $fr $fa $fd $fleft" ] && [ $same_slots = yes ] || { verdict=DIFFERENT; equiv_fail=1; }
	printf '  seed=%s files=%s size=%s-%s tx=%s subdirs=%s block=%s bias=%s/%s\n' "$seed" "$nf" "$low" "$high" "$tx" "$sub" "$blk" "$br" "$bc"
	printf '    postmark: %s created, %s read, %s appended, %s deleted, %s left (sum %s bytes)\n' "$pc" "$pr" "$pa" "$pd" "$pleft" \
		"$(awk '{s+=$1} END {print s+0}' "$work/pm.left")"
	printf '    fstune:   %s created, %s read, %s appended, %s deleted, %s left (sum %s bytes)\n' "$fc" "$fr" "$fa" "$fd" "$fleft" \
		"$(jq .bytes_left "$work/fs.json")"
	printf '    same size in every slot: %s; same size distribution: %s => %s\n' "$same_slots" "$same_dist" "$verdict"
done <<'EOF'
42 500 500 10000 500 0 512 5 5
1 1000 500 1000 5000 10 4096 5 5
7 2000 1 4096 20000 20 1024 3 7
12345 300 4096 131072 400 0 8192 8 2
99 5000 500 10000 30000 50 4096 -1 5
EOF
if [ $equiv_fail = 0 ]; then echo "  => equivalent in every case"; else echo "  => NOT equivalent (see above)"; fi
fi
[ $equiv_only = 1 ] && exit $equiv_fail

# ---- Part 2: timing on ext4 -b 1024 vs -b 4096 ----
[ "$(id -u)" = 0 ] || { echo "compare-postmark: the timing part needs root (loop devices)" >&2; exit 2; }
command -v mkfs.ext4 >/dev/null || { echo "compare-postmark: mkfs.ext4 not found" >&2; exit 2; }
low=${size%-*}
high=${size#*-}
img=$work/fs.img
mnt=$(mktemp -d "$work/mnt.XXXXXX")

# fresh_fs BLOCK: a new ext4 with that block size on a 2 GiB sparse image, loop with direct I/O
fresh_fs() {
	umount "$mnt" 2>/dev/null || true
	[ -n "$loopdev" ] && losetup -d "$loopdev"
	rm -f "$img"
	loop_ext4 "$img" "$mnt" 2G -b "$1"
	mkdir "$mnt/w"
}

if [ -n "${PM_TRANSACTIONS:-}" ]; then
	tx=$PM_TRANSACTIONS
else
# calibrate: transactions/s of fstune (time-bounded, 5 s) on each block size; the count for
# tx_seconds is taken from the faster one, so every run lasts at least that long (Postmark is measured
# with the same count: when it is faster, its own report says how long it took)
best=0
for b in 1024 4096; do
	fresh_fs "$b"
	t=$(FSTUNE_SMALLFILE="seed=42,files=$files,size=$low-$high,subdirs=0,read=4096,write=4096" \
		"$FSTUNE" bench --tests smallfile --runtime 5 --busy-check 0 --quiet --json "$mnt/w" | jq '.bench.smallfile.tps')
	echo "calibration: fstune smallfile on ext4 -b $b: $t transactions/s"
	best=$(awk -v a="$best" -v b="$t" 'BEGIN {print (b > a) ? b : a}')
done
# Postmark (stdio buffering, no syncfs) is usually the faster: its rate over a run of about 5 s
pm_tx=$(awk -v t="$best" 'BEGIN {printf "%d", t * 5 + 1}')
postmark_run "$mnt/w" 42 "$files" "$low" "$high" "$pm_tx" 0 4096 5 5 >"$work/pm.out"
t=$(grep -E 'seconds of transactions' "$work/pm.out" | grep -oE '\(([0-9]+) per second' | grep -oE '[0-9]+')
echo "calibration: postmark on ext4 -b 4096: $t transactions/s"
best=$(awk -v a="$best" -v b="$t" 'BEGIN {print (b > a) ? b : a}')
# a margin: calibration runs are short, and a fresh filesystem is faster than one with history
tx=$(awk -v t="$best" -v s="$tx_seconds" 'BEGIN {printf "%d", t * s * 1.3 + 1}')
fi
[ "$tx_seconds" -lt 60 ] && echo "NOTE: PM_TX_SECONDS=$tx_seconds: scaled down from the 60 s the issue asks for"
[ "$rounds" -lt 5 ] && echo "NOTE: PM_ROUNDS=$rounds: scaled down from the 5 rounds the issue asks for"
echo "== timing: $files files of $low..$high bytes, $tx transactions, block 4096, seed 42, $rounds rounds"

: >"$work/results"
for r in $(seq "$rounds"); do
	# alternate the order of block sizes and tools between rounds
	if [ $((r % 2)) = 1 ]; then order="1024 4096"; else order="4096 1024"; fi
	for b in $order; do
		for tool in postmark fstune; do
			fresh_fs "$b"
			if [ $tool = postmark ]; then
				postmark_run "$mnt/w" 42 "$files" "$low" "$high" "$tx" 0 4096 5 5 >"$work/pm.out"
				tps=$(grep -E 'seconds of transactions' "$work/pm.out" | grep -oE '\(([0-9]+) per second' | grep -oE '[0-9]+')
				secs=$(pm_num "$work/pm.out" 'seconds of transactions')
			else
				fstune_run "$mnt/w" 42 "$files" "$low" "$high" "$tx" 0 4096 5 5 >"$work/fs.json"
				tps=$(jq .tps "$work/fs.json")
				secs=$(jq .transactions_s "$work/fs.json")
			fi
			echo "$tool $b $tps $secs" >>"$work/results"
			short=""
			awk -v s="$secs" -v m="$tx_seconds" 'BEGIN {exit !(s < m)}' && short="  SHORTER than $tx_seconds s"
			printf '  round %s  ext4 -b %-5s %-9s %10s tps  (%s s of transactions)%s\n' "$r" "$b" "$tool" "$tps" "$secs" "$short"
		done
	done
done

echo "== medians and noise bands"
for tool in postmark fstune; do
	line=""
	for b in 1024 4096; do
		stats=$(awk -v t=$tool -v b=$b '$1 == t && $2 == b {print $3}' "$work/results" | sort -g |
			awk '{v[NR] = $1} END {m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
				printf "%s %s %s %.1f", m, v[1], v[NR], (m > 0 ? 50 * (v[NR] - v[1]) / m : 0)}')
		read -r med min max band <<<"$stats"
		printf '  %-9s ext4 -b %-5s median %10s tps  range %s..%s  (noise band ±%s%%)\n' "$tool" "$b" "$med" "$min" "$max" "$band"
		eval "med_$b=$med min_$b=$min max_$b=$max"
	done
	# a winner only when the ranges do not overlap
	if awk -v a="$min_1024" -v b="$max_4096" 'BEGIN {exit !(a > b)}'; then
		rank="-b 1024 faster ($(awk -v a="$med_1024" -v b="$med_4096" 'BEGIN {printf "%+.1f%%", 100 * (a / b - 1)}') in medians)"
	elif awk -v a="$min_4096" -v b="$max_1024" 'BEGIN {exit !(a > b)}'; then
		rank="-b 4096 faster ($(awk -v a="$med_4096" -v b="$med_1024" 'BEGIN {printf "%+.1f%%", 100 * (a / b - 1)}') in medians)"
	else
		rank="inconclusive (the ranges overlap)"
	fi
	echo "  ranking by $tool: $rank"
done
exit $equiv_fail
