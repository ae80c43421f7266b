#!/bin/bash
# Who else owns a knob, on this host: a sysctl.d file made here for the test (removed on every exit,
# and never applied: only systemd-sysctl at boot or `sysctl --system` would read it) is listed by
# `fstune probe` as the owner of its setting, and as the winner, its name sorting after every other.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
require_root
require_cmd jq
host_sysctl_lock
[ -d /etc/sysctl.d ] && [ -w /etc/sysctl.d ] || skip "/etc/sysctl.d is not a writable directory"

# The current value, so that even a `sysctl --system` run meanwhile by someone else changes nothing.
cur=$(cat /proc/sys/vm/dirty_expire_centisecs)
conf=/etc/sysctl.d/zzzz-fstune-test-$$.conf
on_exit "rm -f '$conf'"
printf '# made by fstune test probe-owners-host, removed when it ends\nvm/dirty_expire_centisecs = %s\n' "$cur" >"$conf"

run_status 0 "$FSTUNE" probe --format json "$TMP"
jq -e --arg p "$conf" --arg v "$cur" '.owners.sysctl.vm.dirty_expire_centisecs | last |
	.kind == "sysctl.d" and .path == $p and .line == 2 and .value == $v and .wins == true and
	.key == "vm/dirty_expire_centisecs"' "$TMP/out" >/dev/null ||
	fail "the test's file is not the listed owner: $(jq -c '.owners.sysctl.vm.dirty_expire_centisecs' "$TMP/out")"
run_status 0 "$FSTUNE" probe "$TMP"
grep -q "$conf" "$TMP/out" || fail "the text form of probe does not name $conf"

rm -f "$conf"
run_status 0 "$FSTUNE" probe --format json "$TMP"
jq -e --arg p "$conf" '[.owners.sysctl.vm.dirty_expire_centisecs // [] | .[] | select(.path == $p)] == []' \
	"$TMP/out" >/dev/null || fail "a removed file is still listed"
exit 0
