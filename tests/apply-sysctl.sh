#!/bin/bash
# A sysctl of the host, for real: vm.dirty_expire_centisecs moved by one centisecond with fstune apply
# (its sysctl.d line under a scratch --root), verified, and undone. A trap puts the original value
# back on any exit, whatever fstune did.
. "${FSTUNE_SRCDIR:?run the tests through make check}/tests/lib/common.sh" || exit 99
require_root
require_cmd sysctl jq md5sum
host_sysctl_lock
export FSTUNE_RULES_PATH=
RULES=(--no-system-rules --rules-dir "$FSTUNE_SRCDIR/tests/apply/rules")
KEY=/proc/sys/vm/dirty_expire_centisecs
orig=$(cat "$KEY")
on_exit "sysctl -qw vm.dirty_expire_centisecs=$orig"
[ -w "$KEY" ] || skip "vm.dirty_expire_centisecs is not writable here"
want=$((orig > 100 ? orig - 1 : orig + 1))
ROOT=$TMP/root
mkdir -p "$ROOT/etc/sysctl.d"
printf '# an admin'"'"'s own\nvm.swappiness = 10\n' >"$ROOT/etc/sysctl.d/60-fstune.conf"
sum_before=$(cd "$ROOT" && find . -type f | sort | xargs md5sum)

run_status 0 "$FSTUNE" apply "${RULES[@]}" --only applytest.expire --root "$ROOT" --live --yes --json "$TMP"
assert_eq "$(cat "$KEY")" "$want" "vm.dirty_expire_centisecs after apply"
assert_eq "$(jq -r '.changes[0].verified' "$TMP/out")" true "verified"
grep -qx "vm.dirty_expire_centisecs = $want" "$ROOT/etc/sysctl.d/60-fstune.conf" ||
	fail "sysctl.d: $(cat "$ROOT/etc/sysctl.d/60-fstune.conf")"
grep -qx "vm.swappiness = 10" "$ROOT/etc/sysctl.d/60-fstune.conf" || fail "the admin's line was lost"

run_status 0 "$FSTUNE" undo --last --root "$ROOT" --live
assert_eq "$(cat "$KEY")" "$orig" "vm.dirty_expire_centisecs after undo"
assert_eq "$(cd "$ROOT" && find . -path ./var -prune -o -type f -print | sort | xargs md5sum)" "$sum_before" \
	"files after undo"
echo ok
