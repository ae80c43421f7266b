# Shared by the perf scripts (sourced, not run).

# perf_build BUILDDIR: $builddir (absolute) and $fstune, its binary, whose goals are a plain build's (a
# warning for a sanitized one); exits 2 without the binary or without GNU time, by which the scripts
# measure. The rules are those of $srcdir, the source tree holding this file; $tmp is a scratch
# directory removed on exit.
perf_build() {
	srcdir=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
	builddir=$(cd "$1" && pwd)
	fstune="$builddir/fstune"
	[ -x "$fstune" ] || { echo "no fstune in $builddir" >&2; exit 2; }
	[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (GNU time)" >&2; exit 2; }
	if grep -q '^SAN_CFLAGS = -fsanitize' "$builddir/Makefile" 2>/dev/null; then
		echo "warning: $builddir is a sanitized build; the goal is for a plain one" >&2
	fi
	export FSTUNE_RULES_BUILTIN="$srcdir/rules/builtin"
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/fstune-perf.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
}

# loop_ext4 IMG MNT SIZE [mkfs.ext4 options...]: a new ext4 on a sparse image of SIZE, mounted on MNT
# (which must exist) through a loop device with direct I/O, without which the benchmark would measure
# the page cache under the loop device; sets loopdev for the caller's cleanup
loop_ext4() {
	local img=$1 mnt=$2 size=$3
	shift 3
	truncate -s "$size" "$img"
	loopdev=$(losetup --find --show --direct-io=on "$img")
	mkfs.ext4 -q -F "$@" "$loopdev"
	mount "$loopdev" "$mnt"
}
