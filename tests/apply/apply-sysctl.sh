#!/bin/bash
# A sysctl of the host, for real: vm.dirty_expire_centisecs moved by one centisecond with fstune apply
# (its sysctl.d line under a scratch --root), verified, and undone. A trap puts the original value
# back on any exit, whatever fstune did. Inside a container a vm.* sysctl is the whole host's: apply
# and apply.sh refuse it (4, naming it, nothing changed) until --host-wide says the admin owns the
# host. This machine may be a container; where it is not, the test makes this process tree one in
# fstune's eyes (the marker systemd leaves, in a private mount namespace).
. "${FSTUNE_SRCDIR:?run the tests through make check}/tests/lib/common.sh" || exit 99
private_mount_ns "$@"
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
# The files under the root but fstune's own journal directory, where apply takes its lock before it
# probes (so a refused run may have made it, with nothing in it but the lock).
tree_sum() { (cd "$ROOT" && find . -path ./var -prune -o -type f -print | sort | xargs md5sum); }

run_status 0 "$FSTUNE" probe / --format json
if [ "$(jq .host.container "$TMP/out")" != true ]; then
	mkdir -p /run/systemd
	mount -t tmpfs -o size=1m tmpfs /run/systemd || fail "cannot mount a tmpfs on /run/systemd"
	echo fstune-test >/run/systemd/container
	run_status 0 "$FSTUNE" probe / --format json
	assert_eq "$(jq .host.container "$TMP/out")" true "host.container with systemd's marker"
fi

# Refused without --host-wide, naming the setting; nothing changed, no journal.
run_status 4 "$FSTUNE" apply "${RULES[@]}" --only applytest.expire --root "$ROOT" --live --yes "$TMP"
grep -q "inside a container what the whole host shares: sysctl.vm.dirty_expire_centisecs (applytest.expire)" \
	"$TMP/err" || fail "the refusal: $(cat "$TMP/err")"
assert_eq "$(cat "$KEY")" "$orig" "vm.dirty_expire_centisecs after the refused apply"
assert_eq "$(tree_sum)" "$sum_before" "files after the refused apply"
! ls "$ROOT"/var/lib/fstune/journal/*.json >/dev/null 2>&1 || fail "the refused apply wrote a journal"
# --root alone changes nothing on this host: not refused
run_status 0 "$FSTUNE" apply "${RULES[@]}" --only applytest.expire --root "$ROOT" --yes --dry-run "$TMP"

run_status 0 "$FSTUNE" apply "${RULES[@]}" --only applytest.expire --root "$ROOT" --live --yes --host-wide --json "$TMP"
assert_eq "$(cat "$KEY")" "$want" "vm.dirty_expire_centisecs after apply"
assert_eq "$(jq -r '.changes[0].verified' "$TMP/out")" true "verified"
grep -qx "vm.dirty_expire_centisecs = $want" "$ROOT/etc/sysctl.d/60-fstune.conf" ||
	fail "sysctl.d: $(cat "$ROOT/etc/sysctl.d/60-fstune.conf")"
grep -qx "vm.swappiness = 10" "$ROOT/etc/sysctl.d/60-fstune.conf" || fail "the admin's line was lost"

run_status 0 "$FSTUNE" undo --last --root "$ROOT" --live
assert_eq "$(cat "$KEY")" "$orig" "vm.dirty_expire_centisecs after undo"
assert_eq "$(tree_sum)" "$sum_before" "files after undo"

# The report marks the change host_wide, and its apply.sh refuses it the same way: a report of that
# one recommendation (the test rule alone: apply.sh would make every runtime change of the report).
mkdir -m 755 "$TMP/s" "$TMP/no-rules"
test_rule expire hostwide "a host-wide sysctl (apply-sysctl.sh)" "vm.dirty_expire_centisecs one centisecond away." \
	'{"sysctl.vm.dirty_expire_centisecs"}' '{"vm.dirty_expire_centisecs"}' <<'RULE'
	check = function(facts)
		local e = facts.vm.dirty_expire_centisecs
		return {{name = "expire", setting = "sysctl.vm.dirty_expire_centisecs", recommended = e > 100 and e - 1 or e + 1,
			severity = "info", confidence = 0.5, title = "a host sysctl", rationale = "A test.",
			evidence = {"vm.dirty_expire_centisecs"}}}
	end,
	tests = {{name = "one", facts = {vm = {dirty_expire_centisecs = 3000}}, expect = {"expire"}}},
RULE
SCRIPT_RULES=(--no-system-rules --rules-dir "$TMP/rules")
FSTUNE_RULES_BUILTIN=$TMP/no-rules run_status 0 "$FSTUNE" report "${SCRIPT_RULES[@]}" --bench none --format json \
	--scripts "$TMP/s" "$TMP"
assert_eq "$(jq -c '[.recommendations[] | [.id, .host_wide]]' "$TMP/out")" '[["hostwide.expire",true]]' \
	"the report's recommendations, host_wide"
FSTUNE_RULES_BUILTIN=$TMP/no-rules run_status 0 "$FSTUNE" report "${SCRIPT_RULES[@]}" --bench none "$TMP"
grep -q "Host-wide: inside this container" "$TMP/out" || fail "the text report does not say it: $(cat "$TMP/out")"
rm -rf "$ROOT" && mkdir -p "$ROOT"
run_status 4 sh "$TMP/s/apply.sh" --yes --root "$ROOT" --live
grep -q "apply.sh: inside a container, sysctl.vm.dirty_expire_centisecs (hostwide.expire) would change" "$TMP/err" ||
	fail "apply.sh's refusal: $(cat "$TMP/err")"
assert_eq "$(cat "$KEY")" "$orig" "vm.dirty_expire_centisecs after the refused apply.sh"
run_status 0 sh "$TMP/s/apply.sh" --yes --root "$ROOT" --live --host-wide
assert_eq "$(cat "$KEY")" "$want" "vm.dirty_expire_centisecs after apply.sh --host-wide"
run_status 0 sh "$TMP/s/revert.sh" --yes --root "$ROOT" --live
assert_eq "$(cat "$KEY")" "$orig" "vm.dirty_expire_centisecs after revert.sh"
echo ok
