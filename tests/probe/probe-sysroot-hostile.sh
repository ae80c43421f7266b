#!/bin/bash
# A --sysroot capture is hostile input: copies of tests/fixtures/sysroot/simple-nvme with a file the
# probes read replaced by a FIFO (no writer: a blocking open or read would hang), a symbolic link to
# /dev/zero (a read to EOF would never end), a 3 GiB sparse file (a read of it whole would cost
# 3 GiB), a link to /dev/watchdog's stand-in (a character device is never opened), a link loop and a
# directory. probe and report return at once (a timeout would mean a hang) with the fact `failed`
# and a reason naming the file, status 3; a mountinfo that cannot be read is a usage error (2), named.
# A model string that is not UTF-8 is escaped in valid JSON, its key listed in "escaped", status 0.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
require_cmd jq mkfifo timeout

NVME=$FSTUNE_SRCDIR/tests/fixtures/sysroot/simple-nvme
QUEUE=sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/nvme/nvme0/nvme0n1/queue
[ -d "$NVME/$QUEUE" ] || fail "the fixture moved: no $QUEUE"

# variant NAME: a fresh writable copy of the capture in $TMP/NAME; prints its path.
variant() {
	rm -rf "${TMP:?}/$1"
	cp -a "$NVME" "$TMP/$1"
	chmod -R u+w "$TMP/$1"
	echo "$TMP/$1"
}

# replace ROOT FILE KIND: FILE (relative to ROOT) becomes a fifo, zero (link to /dev/zero), sparse
# (3 GiB of holes), chardev (link to /dev/null, a character device like /dev/watchdog), loop (a link
# to itself) or dir.
replace() {
	local f=$1/$2
	rm -f "$f"
	case $3 in
	fifo) mkfifo "$f" ;;
	zero) ln -s /dev/zero "$f" ;;
	sparse) truncate -s 3G "$f" ;;
	chardev) ln -s /dev/null "$f" ;;
	loop) ln -s "$(basename "$f")" "$f" ;;
	dir) mkdir "$f" ;;
	esac
}

# within STATUS CMD...: CMD ends (a hang is killed after 60 s: status 124) with STATUS; stdout in
# $TMP/out, stderr in $TMP/err. Prints the seconds it took, which the log keeps.
within() {
	local want=$1 t0 t1
	shift
	t0=$EPOCHREALTIME
	run_status "$want" timeout 60 "$@"
	t1=$EPOCHREALTIME
	echo "$* took $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }') s" >&2
}

# failed_fact FILE KEY WHAT: KEY is `failed` in the facts FILE with a reason naming WHAT.
failed_fact() {
	assert_eq "$(jq -r --arg k "$2" '.unavailable[$k].status' "$1")" failed "$2's status"
	jq -r --arg k "$2" '.unavailable[$k].reason' "$1" | grep -qF -- "$3" ||
		fail "$2's reason does not name $3: $(jq -c --arg k "$2" '.unavailable[$k]' "$1")"
}

n=0
for kind in fifo zero sparse chardev loop dir; do
	root=$(variant "$kind")
	replace "$root" "$QUEUE/rotational" "$kind"
	replace "$root" "$QUEUE/scheduler" "$kind"
	replace "$root" proc/cpuinfo "$kind"
	replace "$root" sys/class/block/nvme0n1p3/size "$kind"
	within 3 "$FSTUNE" probe --sysroot "$root" --format json nvme0n1p3
	jq -e . "$TMP/out" >/dev/null || fail "$kind: probe wrote no JSON"
	cp "$TMP/out" "$TMP/$kind.json"
	failed_fact "$TMP/$kind.json" device.rotational queue/rotational
	failed_fact "$TMP/$kind.json" device.scheduler queue/scheduler
	failed_fact "$TMP/$kind.json" device.size_bytes nvme0n1p3/size
	case $kind in
	fifo | zero | chardev)
		jq -r '.unavailable["device.rotational"].reason' "$TMP/$kind.json" | grep -q "not a regular file" ||
			fail "$kind: the reason does not say what is wrong: $(cat "$TMP/$kind.json")"
		;;
	sparse)
		jq -r '.unavailable["device.rotational"].reason' "$TMP/$kind.json" | grep -q "larger than fstune reads" ||
			fail "sparse: the reason does not say the file is too large: $(cat "$TMP/$kind.json")"
		;;
	esac
	# the host's facts stand without cpuinfo: the probe goes on past a file it refused
	jq -e '.host.mem_total_bytes > 0' "$TMP/$kind.json" >/dev/null || fail "$kind: no host facts"
	within 3 "$FSTUNE" report --sysroot "$root" --no-system-rules --format json nvme0n1p3
	jq -e '.facts.unavailable["device.rotational"].status == "failed"' "$TMP/out" >/dev/null ||
		fail "$kind: the report lacks the failed fact"
	within 3 "$FSTUNE" report --sysroot "$root" --no-system-rules nvme0n1p3
	n=$((n + 1))
done
assert_eq "$n" 6 "variants run"

# mountinfo, which every target needs, as a FIFO and as a link to /dev/zero: a usage error naming it.
for kind in fifo zero; do
	root=$(variant "mi-$kind")
	replace "$root" proc/self/mountinfo "$kind"
	within 2 "$FSTUNE" probe --sysroot "$root" --format json /
	grep -q "proc/self/mountinfo: not a regular file" "$TMP/err" || fail "mountinfo $kind: $(cat "$TMP/err")"
done
# a mountinfo past its bound (16 MiB): refused the same way, after reading no more than that
root=$(variant mi-big)
replace "$root" proc/self/mountinfo sparse
within 2 "$FSTUNE" probe --sysroot "$root" --format json /
grep -q "mountinfo: larger than fstune reads" "$TMP/err" || fail "mountinfo 3 GiB: $(cat "$TMP/err")"

# a model string from sysfs that is not UTF-8: exit 0, valid JSON, the model escaped and listed
root=$(variant model)
printf 'KINGSTON \xff\xfe\\ SKC\n' >"$root/sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/nvme/nvme0/model"
within 0 "$FSTUNE" probe --sysroot "$root" --format json nvme0n1p3
assert_eq "$(jq -r .device.model "$TMP/out")" 'KINGSTON \xff\xfe\\ SKC' "the model, escaped"
jq -e '.escaped | index("device.model")' "$TMP/out" >/dev/null || fail "device.model is not listed: $(jq -c .escaped "$TMP/out")"
within 0 "$FSTUNE" report --sysroot "$root" --no-system-rules --format json nvme0n1p3
within 0 "$FSTUNE" report --sysroot "$root" --no-system-rules nvme0n1p3
