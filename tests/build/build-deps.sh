#!/bin/bash
# build.sh's dependency step: every package it names is a real package that dpkg reports installed
# (a virtual one, such as e2fslibs-dev, never is, so every build would run apt-get), configure.ac's
# hints name the same packages, and on a machine that has everything a run as root and a run as an
# unprivileged user make no apt call at all (an offline machine builds).
. "${FSTUNE_SRCDIR:?run the tests through make check}/tests/lib/common.sh" || exit 99
require_root
require_cmd dpkg-query setpriv

build=$FSTUNE_SRCDIR/build.sh
packages=$(sed -n '/^packages="$/,/^"$/p' "$build" | sed '1d;$d')
[ -n "$packages" ] || fail "no package list found in build.sh"
for p in $packages; do
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null) || fail "build.sh names '$p', which dpkg does not know (a virtual package?)"
	[ "$st" = "install ok installed" ] || fail "build.sh names '$p', which is not installed: '$st' (run ./build.sh as root first)"
done
# configure.ac's hints: FST_REQUIRE([VAR], [modules], [packages]) and the explicit apt-get hints
hints=$(sed -n 's/^FST_REQUIRE(\[[A-Z0-9_]*\], \[[^]]*\], \[\([^]]*\)\]).*/\1/p; s/.*apt-get install \([a-z0-9.+-]*\)\].*/\1/p' \
	"$FSTUNE_SRCDIR/configure.ac")
[ -n "$hints" ] || fail "no package hints found in configure.ac"
for p in $hints; do
	printf '%s\n' $packages | grep -qx -- "$p" || fail "configure.ac hints at '$p', which build.sh does not install"
done

# A spy apt-get and apt-cache: any call is recorded and fails, as it would offline.
mkdir "$TMP/spy"
for tool in apt-get apt-cache apt; do
	printf '#!/bin/sh\necho "%s $*" >>%s/apt-calls\nexit 100\n' "$tool" "$TMP" >"$TMP/spy/$tool"
	chmod 755 "$TMP/spy/$tool"
done
cp "$build" "$TMP/build.sh"
chmod 755 "$TMP" "$TMP/build.sh"
touch "$TMP/apt-calls"
chmod 666 "$TMP/apt-calls"

PATH="$TMP/spy:$PATH" run_status 0 sh "$TMP/build.sh" --deps-only
[ ! -s "$TMP/apt-calls" ] || fail "as root, with everything installed, build.sh called: $(cat "$TMP/apt-calls")"
PATH="$TMP/spy:$PATH" run_status 0 setpriv --reuid=65534 --regid=65534 --clear-groups -- sh "$TMP/build.sh" --deps-only
[ ! -s "$TMP/apt-calls" ] || fail "as nobody, with everything installed, build.sh called: $(cat "$TMP/apt-calls")"
grep -q . "$TMP/err" && fail "build.sh --deps-only printed: $(cat "$TMP/err")"

# A missing package, as nobody: a clear message naming it and the command, and still no apt call.
sed 's/^jq$/jq\nfstune-no-such-package/' "$build" >"$TMP/build.sh"
PATH="$TMP/spy:$PATH" run_status 1 setpriv --reuid=65534 --regid=65534 --clear-groups -- sh "$TMP/build.sh" --deps-only
grep -q "missing packages: fstune-no-such-package; run as root or: apt-get install fstune-no-such-package" "$TMP/err" ||
	fail "missing package as nobody: $(cat "$TMP/err")"
[ ! -s "$TMP/apt-calls" ] || fail "as nobody, build.sh called: $(cat "$TMP/apt-calls")"
echo "build.sh's dependency step names real packages and makes no apt call when all are installed"
