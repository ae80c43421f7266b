#!/bin/bash
# Bad TARGETs and bad options of `fstune probe`: each is status 2 with one line naming what was
# wrong and what is accepted; good ones of each kind work.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
require_cmd jq

# expect_usage WHAT PATTERN CMD...: status 2, PATTERN on stderr, nothing on stdout.
expect_usage() {
	local what=$1 pattern=$2
	shift 2
	run_status 2 "$@"
	grep -q -- "$pattern" "$TMP/err" || fail "$what: stderr lacks '$pattern': $(cat "$TMP/err")"
	[ ! -s "$TMP/out" ] || fail "$what: wrote to stdout: $(cat "$TMP/out")"
}

accepted="give a directory, a block device or a filesystem image file"
expect_usage "missing path" "TARGET '$TMP/nope' does not exist; $accepted" \
	"$FSTUNE" probe "$TMP/nope"
mkfifo "$TMP/fifo"
expect_usage "FIFO" "TARGET '$TMP/fifo' is a FIFO; $accepted" "$FSTUNE" probe "$TMP/fifo"
expect_usage "char device" "TARGET '/dev/null' is a character device, not a block device; $accepted" \
	"$FSTUNE" probe /dev/null
if command -v python3 >/dev/null 2>&1; then
	python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$TMP/sock"
	expect_usage "socket" "TARGET '$TMP/sock' is a socket; $accepted" "$FSTUNE" probe "$TMP/sock"
fi
expect_usage "empty" "TARGET is empty" "$FSTUNE" probe ""
expect_usage "two targets" "one TARGET at most" "$FSTUNE" probe / /tmp
expect_usage "bad format" "unknown --format 'yaml'" "$FSTUNE" probe --format yaml /
expect_usage "bad option" "" "$FSTUNE" probe --no-such-option /
expect_usage "bad target-os" "unknown --target-os" "$FSTUNE" probe --target-os plan9 /
expect_usage "unwritable output" "" "$FSTUNE" probe --output /nonexistent-dir/facts.json /
# Exactly one line for a bad TARGET (no usage dump).
run_status 2 "$FSTUNE" probe "$TMP/nope"
assert_eq "$(wc -l <"$TMP/err")" 1 "lines on stderr for a missing path"

# The good kinds, as far as an unprivileged run can reach: a directory, an image file, --output.
run_status 0 "$FSTUNE" probe --json "$TMP"
assert_eq "$(jq -r .schema "$TMP/out")" fstune.facts/1 "schema"
truncate -s 1M "$TMP/image.img"
run_status 0 "$FSTUNE" probe --json "$TMP/image.img"
assert_eq "$(jq -r .unavailable.device.reason "$TMP/out")" "image file" "image file"
run_status 0 "$FSTUNE" probe --json --target-os freebsd --output "$TMP/facts.json" "$TMP"
[ ! -s "$TMP/out" ] || fail "--output also wrote to stdout"
assert_eq "$(jq -r .host.target_os "$TMP/facts.json")" freebsd "--target-os"
assert_eq "$(jq -r '.sources["host.target_os"]' "$TMP/facts.json")" user "--target-os source"
# The default TARGET is the current directory.
(cd "$TMP" && "$FSTUNE" probe --json >"$TMP/cwd.json") || fail "probe without TARGET"
assert_eq "$(jq -r .device.name "$TMP/cwd.json")" "$(jq -r .device.name "$TMP/facts.json")" "default TARGET"
# --help works and exits 0.
run_status 0 "$FSTUNE" probe --help
grep -q -- '--sources' "$TMP/out" || fail "--help does not list --sources"
exit 0
