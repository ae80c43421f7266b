#!/bin/bash
# fstune apply and undo turned against their machine, on a loop-mounted ext4 (tests/lib/apply.sh):
#  1. a journal forged by root, its checksums recomputed, whose revert is `touch PWNED`: undo never
#     runs it, and runs the revert the setting table builds instead (the read-ahead comes back);
#     forged changes that ask what apply never does (an unknown setting, a command in a value, a
#     value out of range, another class, a file where the setting's form never goes, a fact it does
#     not change) refuse the whole undo (4) before anything is touched, as does another filesystem
#     mounted on the target since;
#  2. a journal, or its directory, owned by nobody or writable by others, and a --root owned by
#     nobody or writable by others: refused (4), naming the file and how to check it; a plain user's
#     apply and undo with a --root of their own work;
#  3. --root DIR with links leading out (an absolute link, a ".." chain): every path resolves inside
#     DIR as a chroot would, the directory outside is never touched; a link inside that leads to
#     nothing is refused (4) by name, before any change.
. "${FSTUNE_SRCDIR:?run the tests through make check}/tests/lib/common.sh" || exit 99
private_mount_ns "$@"
. "$FSTUNE_SRCDIR/tests/lib/apply.sh"
apply_setup
require_nobody
RESEAL=$FSTUNE_BUILDDIR/tests/tools/journal-reseal
PWNED=$TMP/pwned
ra=/sys/block/$disk/queue/read_ahead_kb
RA=(apply "${RULES[@]}" "${WORKLOAD[@]}" --only readahead.lower_for_random --yes --host-wide)

apply_ra() {
	run_status 0 "$FSTUNE" "${RA[@]}" --root "$ROOT" --live "$mnt"
	assert_eq "$(cat "$ra")" 128 "read-ahead after apply"
	journal=$(last_journal)
	cp "$journal" "$TMP/journal.good"
}
# forge FILTER: the journal rewritten by jq FILTER, its checksums recomputed (still root's, 0644).
forge() {
	jq "$1" "$TMP/journal.good" >"$journal"
	"$RESEAL" "$journal" || fail "journal-reseal failed"
}

# --- 1. forged by root ---
apply_ra
forge '(.changes[0].revert) = ["touch '"$PWNED"'"]'
run_status 0 "$FSTUNE" undo "$journal" --root "$ROOT" --live
[ ! -e "$PWNED" ] || fail "undo ran the journal's revert string"
assert_eq "$(cat "$ra")" 1024 "read-ahead after undo of the forged journal"
grep -qF "ran: echo 1024 > /sys/block/$disk/queue/read_ahead_kb" "$TMP/out" || fail "the table's revert: $(cat "$TMP/out")"
grep -qF "the journal recorded \`touch $PWNED\`" "$TMP/out" || fail "the recorded revert is not named: $(cat "$TMP/out")"

apply_ra
before_tree=$(tree_sum)
n=0
while IFS='|' read -r filter why; do
	forge "$filter"
	run_status 4 "$FSTUNE" undo "$journal" --root "$ROOT" --live --force
	grep -qF "refusing to undo $journal: line " "$TMP/err" && grep -qF -- "$why" "$TMP/err" ||
		fail "forged ($filter): $(cat "$TMP/err")"
	[ ! -e "$PWNED" ] && [ "$(cat "$ra")" = 128 ] && [ "$(tree_sum)" = "$before_tree" ] ||
		fail "a refused undo changed something ($filter)"
	[ ! -e "$ROOT/etc/cron.d" ] || fail "a refused undo wrote /etc/cron.d"
	n=$((n + 1))
done <<EOF
.changes[0].setting = "evil.run"|no setting is named evil.run
.changes[0].old = "1024; touch $PWNED"|queue.read_ahead_kb wants an integer
.changes[0].new = 99999999|out of range
.changes[0].disruption = "offline"|the journal says class offline, the setting table runtime
.changes[0].files[0].path = "/etc/cron.d/fstune"|it restores /etc/cron.d/fstune, where queue.read_ahead_kb's persistent form never goes
.changes[0].before = {"vm.dirty_ratio": 1}|which queue.read_ahead_kb does not change
.changes[0].before = {"device.read_ahead_kb": "x; touch $PWNED"}|is not a value that fact takes
EOF
assert_eq "$n" 7 "forged journals tried"
# another filesystem on the target's mount point since: undo would change another device
cp "$TMP/journal.good" "$journal"
uuid=$(jq -r '.run.identity["fs.uuid"]' "$journal")
[ -n "$uuid" ] && [ "$uuid" != null ] || fail "the run records no identity: $(jq -c .run "$journal")"
make_image "$TMP/other.img" 64M
mkfs.ext4 -q -F "$TMP/other.img"
other=$(attach_loop "$TMP/other.img")
mount "$other" "$mnt" || fail "mount $other on $mnt"
run_status 4 "$FSTUNE" undo "$journal" --root "$ROOT" --live --force
grep -qF "the target $mnt: fs.uuid was $uuid when apply ran and is " "$TMP/err" || fail "another filesystem: $(cat "$TMP/err")"
umount "$mnt"
assert_eq "$(cat "$ra")" 128 "read-ahead after a refused undo"
run_status 0 "$FSTUNE" undo "$journal" --root "$ROOT" --live
assert_eq "$(cat "$ra")" 1024 "read-ahead after the real undo"

# --- 2. owners and modes ---
apply_ra
jdir=$(dirname "$journal")
check_refused() { # WHAT-IN-MESSAGE CMD...
	local want=$1
	shift
	run_status 4 "$@"
	grep -qF -- "$want" "$TMP/err" || fail "$*: $(cat "$TMP/err")"
	[ ! -e "$PWNED" ] && [ "$(cat "$ra")" = 128 ] || fail "a refused run changed something: $*"
}
chown nobody "$journal"
check_refused "the journal $journal is owned by uid 65534" "$FSTUNE" undo "$journal" --root "$ROOT" --live
check_refused "the journal $journal is owned by uid 65534" "$FSTUNE" undo --last --root "$ROOT" --live
chown root "$journal"
chmod o+w "$journal"
check_refused "the journal $journal is writable by others" "$FSTUNE" undo "$journal" --root "$ROOT" --live
chmod 0644 "$journal"
chmod g+w "$jdir"
check_refused "the journal directory $jdir is writable by its group" "$FSTUNE" undo "$journal" --root "$ROOT" --live
# (apply is refused with a change still to make: the read-ahead is 128 already, so another one)
ODD=(apply "${RULES[@]}" --only applytest.odd_readahead --yes)
check_refused "the journal directory $jdir is writable by its group" "$FSTUNE" "${ODD[@]}" --root "$ROOT" "$mnt"
chmod 0755 "$jdir"
chown nobody "$ROOT"
check_refused "--root $ROOT is owned by uid 65534, not by root" "$FSTUNE" undo "$journal" --root "$ROOT" --live
check_refused "--root $ROOT is owned by uid 65534, not by root" "$FSTUNE" "${ODD[@]}" --root "$ROOT" "$mnt"
chown root "$ROOT"
chmod o+w "$ROOT"
check_refused "--root $ROOT is writable by others" "$FSTUNE" "${ODD[@]}" --root "$ROOT" "$mnt"
chmod 0755 "$ROOT"
run_status 0 "$FSTUNE" undo "$journal" --root "$ROOT" --live
assert_eq "$(cat "$ra")" 1024 "read-ahead after undo"
# a plain user's own --root: apply writes there (without --live), undo takes it back
own=$TMP/own
mkdir "$own"
chown nobody: "$own"
run_status 0 as_nobody "$FSTUNE" "${RA[@]}" --root "$own" "$mnt"
rules=$own/etc/udev/rules.d/69-fstune.rules
grep -q 'ATTR{queue/read_ahead_kb}="128"' "$rules" || fail "the plain user's apply: $(cat "$TMP/out" "$TMP/err")"
[ "$(stat -c %U "$rules")" = nobody ] || fail "the rule file is not the user's"
run_status 0 as_nobody "$FSTUNE" undo --last --root "$own"
[ ! -e "$rules" ] || fail "the plain user's undo left $rules"
assert_eq "$(cat "$ra")" 1024 "read-ahead after a plain user's --root apply"

# --- 3. links leading out of --root ---
outside=$TMP/outside
mkdir -p "$outside/udev/rules.d"
printf '%s %s ext4 strictatime 0 2\n' "$dev" "$mnt" >"$outside/fstab"
outside_sum() { (cd "$outside" && find . -printf '%p %y\n' | sort && find . -type f -exec md5sum {} + | sort) | md5sum; }
outside0=$(outside_sum)
BOTH=(apply "${RULES[@]}" "${WORKLOAD[@]}" --only readahead.lower_for_random,mount.strictatime --yes)
# an absolute link: /etc is DIR/<outside> as a chroot sees it, which does not exist yet: fstab is not
# found there (the remount's note says so), the rule file goes under DIR
jail=$TMP/jail1
mkdir "$jail"
ln -s "$outside" "$jail/etc"
run_status 4 "$FSTUNE" "${BOTH[@]}" --root "$jail" "$mnt"
grep -qF "cannot create $jail/etc: the name is a link that leads to nothing inside $jail" "$TMP/err" ||
	fail "a dangling link in --root: $(cat "$TMP/err")"
! ls "$jail"/var/lib/fstune/journal/*.json >/dev/null 2>&1 || fail "a refused apply wrote a journal"
mkdir -p "$jail$outside"
printf '%s %s ext4 strictatime 0 2\n' "$dev" "$mnt" >"$jail$outside/fstab"
run_status 0 "$FSTUNE" "${BOTH[@]}" --root "$jail" "$mnt"
grep -q noatime "$jail$outside/fstab" || fail "the fstab inside DIR was not edited: $(cat "$jail$outside/fstab")"
[ -f "$jail$outside/udev/rules.d/69-fstune.rules" ] || fail "no rule file inside DIR: $(find "$jail" | sort)"
assert_eq "$(outside_sum)" "$outside0" "the directory outside --root"
run_status 0 "$FSTUNE" undo --last --root "$jail"
grep -q strictatime "$jail$outside/fstab" || fail "undo: $(cat "$jail$outside/fstab")"
# a ".." chain under etc/ ends at DIR itself
jail=$TMP/jail2
mkdir -p "$jail/etc"
ln -s ../../../../../../.. "$jail/etc/udev"
run_status 0 "$FSTUNE" "${RA[@]}" --root "$jail" "$mnt"
[ -f "$jail/rules.d/69-fstune.rules" ] || fail "the ..-chain did not end at DIR: $(find "$jail" | sort)"
assert_eq "$(outside_sum)" "$outside0" "the directory outside --root"
[ ! -e /rules.d ] || fail "apply wrote /rules.d on the host"
