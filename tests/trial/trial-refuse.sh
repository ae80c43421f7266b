#!/bin/bash
# What `fstune trial --device` refuses, each with status 4 naming the failed check (2 for a bad
# candidate, before anything is opened), and the device's data verified unchanged by checksum: a loop
# device holding ext4; the same mounted; the second device of a two-device btrfs mounted through the
# first; a blank device with a wrong confirmation or none; a candidate with a shell metacharacter or an
# option mkfs is not allowed in a trial. Plus the image refusals: an existing file, too small.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
private_mount_ns "$@"
. "$FSTUNE_SRCDIR/tests/lib/trial.sh"
require_trial
require_cmd sha256sum

sum() { sha256sum "$1" | cut -d' ' -f1; }

# refused WANT_STATUS CHECK DEV ARGS...: runs the trial on DEV, checks the status, that the message
# names CHECK, and that DEV's bytes did not change.
refused() {
	local want=$1 check=$2 dev=$3 before
	shift 3
	before=$(sum "$dev")
	run_status "$want" "$FSTUNE" trial --device "$dev" "${TRIAL_TINY[@]}" --repeat 1 "$@"
	grep -qF -- "$check" "$TMP/err" || fail "$dev: the message does not name '$check': $(cat "$TMP/err")"
	assert_eq "$(sum "$dev")" "$before" "checksum of $dev after a refusal ($check)"
	[ -z "$(find "$TMP" -maxdepth 1 -name 'fstune-trial.*')" ] || fail "a mount point was left"
}

make_image "$TMP/ext4.img" 64M
dev=$(attach_loop "$TMP/ext4.img")
# no lazy initialisation: ext4lazyinit would zero inode tables under a mount, behind fstune's back
mkfs.ext4 -q -E lazy_itable_init=0,lazy_journal_init=0 "$dev"
refused 4 "check: no signature" "$dev" --destroy-data="$dev"
grep -q "ext4 signature" "$TMP/err" || fail "the signature is not named: $(cat "$TMP/err")"

# Mounted, then read-only: a read-write filesystem writes its own journal and superblock on its own
# schedule, and the checksum is about what fstune writes. A read-only mount is still a mount.
mnt=$(mount_tmp "$dev")
echo data >"$mnt/file"
mount -o remount,ro "$mnt"
refused 4 "check: not mounted" "$dev" --destroy-data="$dev"
umount "$mnt"

if command -v mkfs.btrfs >/dev/null 2>&1; then
	make_image "$TMP/b1.img" 256M
	make_image "$TMP/b2.img" 256M
	b1=$(attach_loop "$TMP/b1.img")
	b2=$(attach_loop "$TMP/b2.img")
	mkfs.btrfs -q -f -d single -m single "$b1" "$b2" >/dev/null
	btrfs device scan "$b1" "$b2" >/dev/null 2>&1 || true
	bm=$(mount_tmp "$b1")
	echo data >"$bm/file"
	mount -o remount,ro "$bm"
	refused 4 "check: opens with O_EXCL" "$b2" --destroy-data="$b2"
	umount "$bm"
elif [ "${FSTUNE_REQUIRE_PRIVILEGED_TESTS:-0}" = 1 ]; then
	fail "mkfs.btrfs is missing: the two-device btrfs case cannot run"
else
	echo "note: no mkfs.btrfs: the two-device btrfs case was not run" >&2
fi

make_image "$TMP/blank.img" 64M
blank=$(attach_loop "$TMP/blank.img")
refused 4 "check: confirmation" "$blank" --destroy-data=/dev/null
refused 4 "check: confirmation" "$blank" </dev/null
refused 2 "shell metacharacter" "$blank" --destroy-data="$blank" --candidates 'ext4:-b 4096;ext4:-L x`reboot`'
refused 2 "shell metacharacter" "$blank" --destroy-data="$blank" --candidates 'ext4:-b 4096 && reboot'
refused 2 "is not an option mke2fs takes" "$blank" --destroy-data="$blank" --candidates 'ext4:-S'
refused 2 "another device" "$blank" --destroy-data="$blank" --candidates 'ext4:-J device=/dev/sda'
refused 2 "is not an option mkfs.xfs takes" "$blank" --destroy-data="$blank" --candidates 'xfs:-r rtdev=/dev/sda'
# every check passes, then the size: a 64 MiB device is too small for a trial
refused 4 "at least 1 GiB" "$blank" --destroy-data="$blank" --candidates 'ext4:'

# images: never over an existing file, never under 1 GiB
echo keep >"$TMP/exists.img"
run_status 4 "$FSTUNE" trial --image "$TMP/exists.img" "${TRIAL_TINY[@]}" --candidates 'ext4:'
assert_eq "$(cat "$TMP/exists.img")" keep "an existing file given as --image"
run_status 2 "$FSTUNE" trial --image "$TMP/small.img" --size 512M --candidates 'ext4:'
[ ! -e "$TMP/small.img" ] || fail "a refused image was made"
run_status 2 "$FSTUNE" trial --image "$TMP/x.img" --device "$blank"
run_status 2 "$FSTUNE" trial --image "$TMP/x.img" --tests seq_read_1m
exit 0
