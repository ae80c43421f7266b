# Helpers of the filesystem probe tests (tests/probe/fs-*.sh), sourced after tests/lib/common.sh.
# shellcheck shell=bash

# probe_json OUT TARGET [fstune options...]: `fstune probe TARGET --format json` into OUT; the exit
# status must be 0 (a test wanting another status calls run_status itself).
probe_json() {
	local out=$1 target=$2
	shift 2
	run_status 0 "$FSTUNE" probe "$target" --format json "$@"
	cp "$TMP/out" "$out"
}

# probe_mounted TYPE IMAGE [mount options...]: IMAGE on a loop device, mounted, probed through its
# directory into $TMP/mounted.json. Sets dev, mnt and j (that file), and checks what every mounted
# filesystem must report: its type, its mount point and the loop device under it.
probe_mounted() {
	local type=$1 img=$2
	shift 2
	require_loop
	dev=$(attach_loop "$img")
	mnt=$(mount_tmp "$dev" "$@")
	j=$TMP/mounted.json
	probe_json "$j" "$mnt"
	want "$j" .fs.type "\"$type\""
	want "$j" .fs.mount_point "\"$mnt\""
	want "$j" .device.name "\"${dev#/dev/}\""
}

# want FILE FILTER EXPECTED [WHAT]: jq -c FILTER on FILE must print EXPECTED exactly.
want() {
	local got
	got=$(jq -c "$2" "$1") || fail "${4:-$1}: jq '$2' failed"
	[ "$got" = "$3" ] || fail "${4:-$1}: $2 is $got, want $3"
}

# has_feature FILE NAME / lacks_feature FILE NAME
has_feature() { want "$1" "(.fs.features // []) | index(\"$2\") != null" true "$1 feature $2"; }
lacks_feature() { want "$1" "(.fs.features // []) | index(\"$2\") == null" true "$1 without $2"; }

# dumpe2fs_field IMAGE "Field name": the value dumpe2fs -h prints for it (the reference answer).
dumpe2fs_field() {
	dumpe2fs -h "$1" 2>/dev/null | sed -n "s/^$2: *//p" | head -n 1
}
