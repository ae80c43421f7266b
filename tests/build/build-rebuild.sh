#!/bin/bash
# build.sh rebuilds when the configure options change: the README's `./build.sh` and then
# `./build.sh --enable-sanitizers --enable-werror` must give a sanitized binary, so a second run with
# other options (or another CC/CFLAGS) cleans the objects before it configures, and a run with the
# same options only makes. build.sh runs in a copy of its own with a configure that records its
# arguments and a make on PATH that records its calls: a real rebuild takes minutes on two cores
# (the real one is what CI's clean clone and .ci/run do).
. "${FSTUNE_SRCDIR:?run the tests through make check}/tests/lib/common.sh" || exit 99
require_cmd dpkg-query

tree=$TMP/tree
mkdir -p "$tree" "$TMP/spy"
cp "$FSTUNE_SRCDIR/build.sh" "$tree/build.sh"
touch -d '2000-01-01' "$tree/configure.ac"
cat >"$tree/configure" <<EOF
#!/bin/sh
echo "configure \$*" >>$TMP/calls
echo "all:" >Makefile
EOF
printf '#!/bin/sh\necho "make $*" >>%s/calls\n' "$TMP" >"$TMP/spy/make"
chmod 755 "$tree/configure" "$TMP/spy/make"

# run_build [ENV...] -- [ARGS...]: build.sh's calls, one a line, in $TMP/got.
run_build() {
	local env=()
	while [ "$1" != -- ]; do env+=("$1"); shift; done
	shift
	: >"$TMP/calls"
	# the dependency step is real: as root with every package installed it installs nothing
	env -u CC -u CFLAGS -u CPPFLAGS -u LDFLAGS "${env[@]}" PATH="$TMP/spy:$PATH" \
		sh "$tree/build.sh" "$@" >"$TMP/out" 2>"$TMP/err" || fail "build.sh $*: $(cat "$TMP/err")"
	sed "s/-j[0-9]*$/-jN/" "$TMP/calls" >"$TMP/got"
}

# expect WHAT LINE...: build.sh made exactly these calls, in this order.
expect() {
	local what=$1
	shift
	printf '%s\n' "$@" >"$TMP/want"
	diff -u "$TMP/want" "$TMP/got" >&2 || fail "$what: build.sh's calls differ"
}

run_build --
expect "a fresh tree" "configure " "make -jN"
run_build --
expect "the same options again" "make -jN"
run_build -- --enable-sanitizers --enable-werror
expect "the README's second command after its first" "make clean" "configure --enable-sanitizers --enable-werror" "make -jN"
grep -q "configure options changed" "$TMP/err" || fail "the clean is not said: $(cat "$TMP/err")"
run_build -- --enable-sanitizers --enable-werror
expect "the second command again" "make -jN"
run_build CFLAGS=-O0 -- --enable-sanitizers --enable-werror
expect "another CFLAGS" "make clean" "configure --enable-sanitizers --enable-werror" "make -jN"
# a configure that fails leaves the options unrecorded: the next run cleans and configures again
mv "$tree/configure" "$tree/configure.good"
printf '#!/bin/sh\necho "configure $*" >>%s/calls\nexit 1\n' "$TMP" >"$tree/configure"
chmod 755 "$tree/configure"
env -u CC -u CFLAGS -u CPPFLAGS -u LDFLAGS PATH="$TMP/spy:$PATH" sh "$tree/build.sh" --enable-fuzzers \
	>/dev/null 2>&1 && fail "build.sh went on after configure failed"
mv "$tree/configure.good" "$tree/configure"
run_build -- --enable-fuzzers
expect "after a failed configure" "make clean" "configure --enable-fuzzers" "make -jN"
echo "build.sh cleans before it configures with other options, and only makes with the same ones"
