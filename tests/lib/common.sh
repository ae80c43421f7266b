# Shared helpers of the shell tests. Source it first; it sets `set -eu`, a scratch directory removed on
# every exit, and the automake exit-code protocol: 0 pass, 77 skip, 99 hard error, anything else fail.
# shellcheck shell=bash
set -eu

: "${FSTUNE:?run the tests through make check}"
: "${FSTUNE_SRCDIR:?run the tests through make check}"

TEST_NAME=$(basename "$0" .sh)
TMP=$(mktemp -d "${TMPDIR:-/tmp}/fstune-test.XXXXXX")
# Cleanups live in a file, not a shell array, so that helpers called inside $(...) (attach_loop,
# mount_tmp) can register theirs from the subshell.
# The file sits beside $TMP, not in it, so a test may count what it leaves in $TMP.
_CLEANUPS=$(mktemp "${TMPDIR:-/tmp}/fstune-cleanups.XXXXXX")

# Runs registered cleanups in reverse order, then removes the scratch directory.
_run_cleanups() {
	local cmd
	if [ -f "$_CLEANUPS" ]; then
		while IFS= read -r cmd; do
			eval "$cmd" >/dev/null 2>&1 || true
		done < <(tac "$_CLEANUPS")
	fi
	rm -rf "$TMP" "$_CLEANUPS"
}
trap _run_cleanups EXIT
# A benchmark holds the lock of its filesystem, and a second one there is refused: tests benchmarking
# one shared filesystem side by side (make -j, another checkout's tests) each use a lock directory of
# their own; tests/bench/bench-lock.sh takes the real one, /run/fstune.
export FSTUNE_TEST_LOCK_DIR=$TMP/locks
trap 'exit 130' INT
trap 'exit 143' TERM

on_exit() { printf '%s\n' "$1" >>"$_CLEANUPS"; }

# A step that fails under `set -e` names itself: the command as the test wrote it, its status and
# where (file:line, and the functions it was called through), so that a log is never a tool's one
# line without the step that printed it. Only in the test's own shell: a command substitution
# inherits the trap (errtrace), but a failure there reaches the line that ran it.
_on_err() {
	local status=$1 i where
	[ "$BASHPID" = "$$" ] || return 0
	where="${BASH_SOURCE[1]##*/}:${BASH_LINENO[0]}"
	for ((i = 1; i < ${#FUNCNAME[@]} - 1; i++)); do
		where+=", in ${FUNCNAME[i]}, called from ${BASH_SOURCE[i + 1]##*/}:${BASH_LINENO[i]}"
	done
	echo "FAIL: $TEST_NAME: the step '$BASH_COMMAND' exited with status $status at $where" >&2
}
set -E
trap '_on_err $?' ERR

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# A missing prerequisite is a skip, except under FSTUNE_REQUIRE_PRIVILEGED_TESTS=1 (CI), where it is a
# hard error: nothing may vanish silently there.
skip() {
	if [ "${FSTUNE_REQUIRE_PRIVILEGED_TESTS:-0}" = 1 ]; then
		echo "ERROR: would skip, but FSTUNE_REQUIRE_PRIVILEGED_TESTS=1: $*" >&2
		exit 99
	fi
	echo "SKIP: $*" >&2
	exit 77
}

require_root() { [ "$(id -u)" = 0 ] || skip "needs root"; }
require_cmd() {
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 || skip "needs $c"
	done
}
require_loop() {
	require_root
	require_cmd losetup
	[ -e /dev/loop-control ] || skip "no /dev/loop-control: loop devices unavailable"
}

# Re-executes the test in a private mount namespace, so that its mounts vanish with it and never
# show on the host. Call before any mount.
private_mount_ns() {
	if [ -z "${FSTUNE_IN_PRIVATE_NS:-}" ]; then
		require_root
		require_cmd unshare
		trap - EXIT
		rm -rf "$TMP" "$_CLEANUPS"
		FSTUNE_IN_PRIVATE_NS=1 exec unshare --mount --propagation private -- bash "$0" "$@"
	fi
}

# as_nobody CMD...: runs CMD as the unprivileged user nobody, without supplementary groups.
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"; }

# require_nobody: the test runs fstune as nobody, so nobody must be able to execute it (a private
# directory above the build tree stops that: a skip) and to reach the test's files below $TMP.
require_nobody() {
	require_cmd setpriv
	as_nobody test -x "$FSTUNE" || skip "user nobody cannot execute $FSTUNE (a directory above it is private)"
	chmod 0755 "$TMP"
}

# wait_for_glob SECONDS PATTERN: polls every 0.05 s, for SECONDS at the most, until the shell pattern
# PATTERN names a file (a dot file too, where the pattern spells the dot). Returns 1 if none showed:
# the caller says what that means.
wait_for_glob() {
	local i
	for ((i = 0; i < $1 * 20; i++)); do
		compgen -G "$2" >/dev/null && return 0
		sleep 0.05
	done
	compgen -G "$2" >/dev/null
}

# host_sysctl_lock: holds, until the test ends, the lock of the tests that change the host's own
# vm.dirty_expire_centisecs or its owners in /etc/sysctl.d, or that need them to stay put while they
# run (make -j runs tests side by side: a sysctl.d file made by one made another's apply refuse).
# Call after private_mount_ns, whose re-run would wait on the lock its first run holds.
host_sysctl_lock() {
	require_cmd flock
	exec {_HOST_SYSCTL_LOCK}>"${TMPDIR:-/tmp}/fstune-tests-host-sysctl.lock"
	flock -w 600 "$_HOST_SYSCTL_LOCK" || fail "the host sysctl lock was held for 10 minutes"
}

# test_rule FILE ID TITLE DESCRIPTION SETTINGS NEEDS < FIELDS: a rule of the test's own in
# $TMP/rules/FILE.lua (the directory readable by all, for a test that runs fstune as nobody), whose
# sources name the test. SETTINGS and NEEDS are Lua lists ('{"fs.type"}'); FIELDS, on standard input,
# are the rest of the table: check and tests.
test_rule() {
	local area=${0%/*}
	mkdir -p -m 755 "$TMP/rules"
	{
		printf 'return {\n\tid = "%s",\n\ttitle = "%s",\n\tdescription = "%s",\n' "$2" "$3" "$4"
		printf '\tsources = {"tests/%s/%s"},\n\tsettings = %s,\n\tneeds = %s,\n' "${area##*/}" "${0##*/}" "$5" "$6"
		cat
		echo "}"
	} >"$TMP/rules/$1.lua"
}

# "${ON_TERMINAL[@]}" CMD...: CMD with its standard input on a pseudo-terminal (tests/lib/on-terminal.py).
ON_TERMINAL=(python3 "$FSTUNE_SRCDIR/tests/lib/on-terminal.py")

# make_image FILE SIZE: a sparse file.
make_image() { truncate -s "$2" "$1"; }

# attach_loop IMAGE [losetup options...]: prints the loop device, released when the test ends. Direct
# I/O so that benchmarks measure the disk under the image, not the page cache, unless the options say
# --direct-io=off (given both, losetup 2.38 turns direct I/O on).
#
# The device is never detached by its name: the moment a loop device is cleared its number is free,
# `losetup -f` in a test running beside this one may take it, and a later `losetup -d NAME` would then
# detach that test's device under its mkfs (EIO, "cannot check mount status"). Instead a holder
# process keeps it open, and `losetup -d` while it is open only marks it autoclear: the kernel clears
# it at its last close, when the holder ends (killed at exit, or when the test's shell is gone) and
# the test's mounts are released, whichever is last.
attach_loop() {
	local img=$1 dev dio=--direct-io=on o hold
	shift
	for o in "$@"; do
		case $o in --direct-io*) dio= ;; esac
	done
	dev=$(losetup --find --show ${dio:+"$dio"} "$@" "$img") || skip "losetup failed for $img"
	exec {hold}<"$dev" || fail "cannot open $dev to hold it"
	tail --pid=$$ -f /dev/null <&"$hold" >/dev/null 2>&1 &
	on_exit "kill $!"
	losetup -d "$dev" || fail "cannot mark $dev autoclear"
	[ "$(losetup -nO AUTOCLEAR "$dev" | tr -d " ")" = 1 ] || fail "$dev is not autoclear: $(losetup -l "$dev")"
	echo "$dev"
}

# mount_tmp DEV [mount options]: mounts on a fresh directory under $TMP, unmounted on exit; prints it.
# (A tmpfs: mount_tmp tmpfs -t tmpfs -o size=64m.) Inside $(...) `set -e` does not apply, hence the
# explicit failure.
mount_tmp() {
	local dev=$1 mnt
	shift
	mnt=$(mktemp -d "$TMP/mnt.XXXXXX")
	mount "$@" "$dev" "$mnt" || fail "mount${*:+ $*} $dev on $mnt failed"
	on_exit "umount -l $mnt"
	echo "$mnt"
}

# unwrapped FILE: the text with every line break and run of spaces as one space, so that a phrase of
# a wrapped report matches wherever the wrapping broke it (it moves with the length of $TMP).
unwrapped() { tr -s '\n ' '  ' <"$1"; }

# no_controls FILE WHAT: text for a terminal: no byte below 0x20 but line breaks and tabs, no DEL,
# no C1 control (UTF-8 c2 80..9f).
no_controls() {
	if LC_ALL=C grep -naP '[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]' "$1" >"$TMP/bad"; then
		fail "$2 holds a control character: $(cat -v "$TMP/bad" | head -5)"
	fi
}

# json_get FILE FILTER: jq with a clear failure.
json_get() { jq -er "$2" "$1" || fail "$TEST_NAME: jq '$2' on $1 found nothing"; }

# assert_eq GOT WANT WHAT
assert_eq() { [ "$1" = "$2" ] || fail "$3: got '$1', want '$2'"; }

# run_status WANT CMD...: runs CMD, fails unless it exits with WANT; output to $TMP/out, $TMP/err.
run_status() {
	local want=$1 got=0
	shift
	"$@" >"$TMP/out" 2>"$TMP/err" || got=$?
	if [ "$got" != "$want" ]; then
		echo "--- stdout" >&2; cat "$TMP/out" >&2
		echo "--- stderr" >&2; cat "$TMP/err" >&2
		fail "$*: exit status $got, want $want"
	fi
}
