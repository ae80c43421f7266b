#!/bin/sh
# Installs what fstune needs to build and test (Debian 12, as root), then configures and builds in
# this directory. Arguments are passed to ./configure (e.g. --enable-sanitizers --enable-werror).
# `build.sh --deps-only` stops after the dependency step: tests/build/build-deps.sh runs it to check that a
# machine with everything installed makes no apt call, as root or not.
set -eu
cd "$(dirname "$0")"

# Build and test dependencies, one real package per line (a virtual package such as e2fslibs-dev is
# never reported installed by dpkg, so it would be installed again on every run); keep README.md's
# list and configure.ac's hints in step. prometheus is there for its promtool, which checks
# `report --format openmetrics`; debhelper and lintian for .ci/run's package step (make deb);
# ansible-core and ansible-lint for tests/fleet/ansible.sh (the collection under contrib/ansible), and
# python3-apt for its apt module, with which tests/fleet/ansible-deb.sh installs the package it built;
# shellcheck for tests/report/scripts-*.sh (the scripts of report --scripts); lua-check for luacheck,
# which tests/rules/luacheck.sh runs over the rule files (.luacheckrc names the sandbox's globals);
# strace for tests/apply/apply-race.sh and tests/apply/apply-crash.sh (a delayed flock, a SIGKILL at
# each rename); systemd for systemd-analyze, which verifies the units the btrfs read-ahead advice
# writes (tests/rules/advice-btrfs.sh); chromium, whose headless mode renders the HTML pages of report
# and compare (tests/report/report-html.sh).
packages="
build-essential
autoconf
automake
pkg-config
libblkid-dev
libudev-dev
liblua5.4-dev
lua5.4
libext2fs-dev
comerr-dev
xfslibs-dev
liburing-dev
libjansson-dev
libncurses-dev
e2fsprogs
xfsprogs
btrfs-progs
util-linux
fio
tmux
ncurses-base
jq
python3
prometheus
debhelper
lintian
ansible-core
ansible-lint
python3-apt
shellcheck
lua-check
strace
systemd
chromium
"

missing=""
for p in $packages; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "build.sh: missing packages:$missing; run as root or: apt-get install$missing" >&2
		exit 1
	fi
	echo "build.sh: installing:$missing" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
[ "${1:-}" = --deps-only ] && exit 0

if [ ! -x configure ] || [ configure.ac -nt configure ]; then
	autoreconf -fi
fi
# What the last configure was given: its arguments and the compiler's environment. When they change,
# the objects of the last build go first: configure alone rewrites the Makefile, but no object
# depends on the flags it holds, so make would link the old ones again (a --enable-sanitizers
# build without a sanitizer in it).
flags="$* CC=${CC:-} CFLAGS=${CFLAGS:-} CPPFLAGS=${CPPFLAGS:-} LDFLAGS=${LDFLAGS:-}"
if [ ! -f Makefile ] || [ "$flags" != "$(cat .build-flags 2>/dev/null)" ]; then
	if [ -f Makefile ]; then
		echo "build.sh: the configure options changed since the last build: make clean" >&2
		make clean >/dev/null
	fi
	./configure "$@"
	printf '%s\n' "$flags" > .build-flags
fi
make -j"$(nproc)"
