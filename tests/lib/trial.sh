# Helpers of the trial tests (tests/trial/trial-*.sh), sourced after tests/lib/common.sh.
# shellcheck shell=bash

# The trial's mount points go under $TMPDIR, so a test can see what it leaves; its record of what it
# made goes to a directory of the test's own (as bench's lock: FSTUNE_TEST_LOCK_DIR), so a test only
# ever sees its own trials' records.
export TMPDIR=$TMP
export FSTUNE_TEST_LOCK_DIR=$TMP/run

# A tiny workload: the cold tree of the 1999 experiment with a few hundred files, scaled.
TRIAL_FILES=$((200 * ${FSTUNE_TEST_SCALE:-1}))
TRIAL_TINY=(--workload source-tree --files "$TRIAL_FILES")

require_trial() {
	require_loop
	require_cmd mkfs.ext4 mkfs.ext2 jq
}

# trial_no_leftovers IMAGE: no loop device on IMAGE, IMAGE gone, no mount point left, no record.
trial_no_leftovers() {
	local img=$1 left
	[ ! -e "$img" ] || fail "the image $img was left behind"
	left=$(losetup -a | grep -F "$img" || true)
	[ -z "$left" ] || fail "a loop device was left on $img: $left"
	left=$(find "$TMP" -maxdepth 1 -name 'fstune-trial.*' | head -1)
	[ -z "$left" ] || fail "a mount point was left behind: $left"
	left=$(grep -F "$TMP/fstune-trial." /proc/self/mountinfo || true)
	[ -z "$left" ] || fail "a mount was left behind: $left"
	left=$(find "$FSTUNE_TEST_LOCK_DIR" -name 'trial-*.json' 2>/dev/null | head -1)
	[ -z "$left" ] || fail "a record was left behind: $left"
}
