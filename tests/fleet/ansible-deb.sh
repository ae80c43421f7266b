#!/bin/bash
# The README's fleet commands as written, on this machine as the one host: `make deb` builds the
# package, and the playbook, run from a checkout with the inventory the README shows
# (localhost ansible_connection=local), installs that .deb, reports (no benchmark: nothing written
# on the target), fetches the report, and says that one host has nothing to compare. Before it: a
# missing fstune_deb and hosts whose apt sources lack fstune fail early, saying which to give, with
# nothing installed. The package's drift units are installed, pass systemd-analyze verify and are not
# enabled. The package is purged after, on every exit path; the test holds a lock so that no other
# test installs it meanwhile, and skips where fstune is installed already (not ours to remove).
. "${FSTUNE_SRCDIR:?run the tests through make check}/tests/lib/common.sh" || exit 99
require_root
require_cmd ansible-playbook dpkg-buildpackage dh flock jq systemd-analyze

exec {_PKG_LOCK}>"${TMPDIR:-/tmp}/fstune-tests-package.lock"
flock -w 1200 "$_PKG_LOCK" || fail "the package lock was held for 20 minutes"
dpkg-query -W -f='${Status}' fstune 2>/dev/null | grep -q ' installed$' &&
	skip "the fstune package is installed on this machine: the test installs and purges its own"
[ -e /var/lib/fstune ] && had_state=1 || had_state=0
on_exit "dpkg -P fstune"
[ "$had_state" = 1 ] || on_exit "rm -rf /var/lib/fstune"

# A checkout: the collection (its link to itself kept) and the README's inventory.
version=$(sed -n 's/^AC_INIT(\[fstune\], \[\([^]]*\)\].*/\1/p' "$FSTUNE_SRCDIR/configure.ac")
deb=fstune_${version}_$(dpkg --print-architecture).deb
co=$TMP/checkout
mkdir -p "$co/contrib" "$TMP/home"
cp -a "$FSTUNE_SRCDIR/contrib/ansible" "$co/contrib/"
sed -n 's/^    # inventory$//; /^    localhost ansible_connection=local$/s/^    //p' "$FSTUNE_SRCDIR/contrib/ansible/README.md" >"$co/inventory"
assert_eq "$(cat "$co/inventory")" "localhost ansible_connection=local" "the inventory of contrib/ansible/README.md"
export HOME=$TMP/home ANSIBLE_HOME=$TMP/home/.ansible ANSIBLE_NOCOLOR=1 ANSIBLE_RETRY_FILES_ENABLED=0 \
	ANSIBLE_LOCAL_TEMP=$TMP/home/tmp ANSIBLE_PYTHON_INTERPRETER=/usr/bin/python3
unset ANSIBLE_CONFIG ANSIBLE_COLLECTIONS_PATH ANSIBLE_COLLECTIONS_PATHS
play() { (cd "$co" && ansible-playbook -i inventory contrib/ansible/playbooks/fleet-report.yml "$@"); }

# No package given and none in apt: the role stops before changing anything, saying which to give.
apt-cache policy fstune 2>/dev/null | grep -q 'Candidate: [^(]' && skip "an apt source here carries fstune"
run_status 2 play -e fstune_fetch_dir="$co/reports"
grep -q "no apt source of localhost has the fstune package: give -e fstune_deb=PATH" "$TMP/out" ||
	fail "no package: the failure does not say what to give: $(cat "$TMP/out")"
run_status 2 play -e fstune_deb="$co/no-such.deb" -e fstune_fetch_dir="$co/reports"
grep -q "fstune_deb=$co/no-such.deb: no such file on the controller" "$TMP/out" ||
	fail "a missing .deb: $(cat "$TMP/out")"
[ ! -e "$co/reports" ] && ! command -v fstune >/dev/null || fail "a failed play left a report or the package"

# The README's two commands, from the checkout.
# What make deb leaves in the build directory is removed after, unless it was there before.
for f in "$deb" "fstune-dbgsym_${version}_$(dpkg --print-architecture).deb" "fstune-$version.tar.gz"; do
	[ -e "$FSTUNE_BUILDDIR/$f" ] || on_exit "rm -f '$FSTUNE_BUILDDIR/$f'"
done
run_status 0 env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$FSTUNE_BUILDDIR" deb
cp "$FSTUNE_BUILDDIR/$deb" "$co/"
readme=$(sed -n '/^    ansible-playbook -i inventory contrib\/ansible\/playbooks\/fleet-report.yml/,/^$/p' "$FSTUNE_SRCDIR/README.md")
[ -n "$readme" ] || fail "the README has no ansible-playbook command"
run_status 0 bash -c "cd '$co' && $readme"
cp "$TMP/out" "$TMP/play.log"
grep -q 'failed=0' "$TMP/play.log" || fail "the README's play failed: $(cat "$TMP/play.log")"
assert_eq "$(dpkg-query -W -f='${Status} ${Version}' fstune)" "install ok installed $version" "the package the play installed"
grep -q "one host (localhost): nothing to compare; its report is $co/reports/localhost.json" "$TMP/play.log" ||
	fail "one host: the play does not say why it compared nothing: $(cat "$TMP/play.log")"
r=$co/reports/localhost.json
assert_eq "$(jq -r .schema "$r")" fstune.report/1 "the fetched report"
assert_eq "$(jq -r .generated.version "$r")" "$version" "the version that made the report (the installed one)"
jq -e '.facts.bench == null' "$r" >/dev/null || fail "the play ran benchmarks on the host"
[ -z "$(find /tmp -maxdepth 1 -name '*.fstune' -newer "$co/inventory")" ] || fail "the copied .deb was left on the host"

# The drift units: installed, valid, off.
for u in fstune-drift.service fstune-drift.timer; do
	[ -f "/lib/systemd/system/$u" ] || fail "$u not installed"
done
[ -x /usr/libexec/fstune/fstune-drift ] || fail "the drift check is not installed"
run_status 0 systemd-analyze verify /lib/systemd/system/fstune-drift.service /lib/systemd/system/fstune-drift.timer
[ ! -s "$TMP/err" ] || fail "systemd-analyze verify: $(cat "$TMP/err")"
[ ! -e /etc/systemd/system/timers.target.wants/fstune-drift.timer ] || fail "the drift timer is enabled by the package"

run_status 0 dpkg -P fstune
[ ! -e /usr/bin/fstune ] || fail "dpkg -P left /usr/bin/fstune"
echo "the README's fleet commands install the .deb the build made, report on one host and fetch it; the package is gone again"
