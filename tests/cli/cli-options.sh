#!/bin/bash
# Every long option that a command's --help shows is one its parser takes: the common and workload
# flags and the benchmark parameters are put into each command's options by the shared parsers, so a
# command that lost one would still list it. Each option is given, then two options no command has:
# whether the option takes an argument or not, parsing stops at an unknown option with status 2, so
# nothing runs, and the one message is the parser's.
. "${FSTUNE_SRCDIR:?run the tests through make check}/tests/lib/common.sh" || exit 99

run_status 0 "$FSTUNE" --help
commands=$(sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p' "$TMP/out")
[ -n "$commands" ] || fail "fstune --help lists no commands"

checked=0
# The empty word is the wizard's own options.
for cmd in "" $commands; do
	# shellcheck disable=SC2086 # an empty $cmd is no word
	run_status 0 "$FSTUNE" $cmd --help
	cp "$TMP/out" "$TMP/help"
	# An unknown option: getopt's message, then where the options are, once.
	# shellcheck disable=SC2086
	run_status 2 "$FSTUNE" $cmd --fstune-no-such-option
	[ "$(grep -c "^Try 'fstune ${cmd:+$cmd }--help' for the" "$TMP/err")" = 1 ] ||
		fail "fstune $cmd --fstune-no-such-option: no pointer to its --help: $(cat "$TMP/err")"
	for opt in $(grep -o -- '--[a-z][a-z0-9-]*' "$TMP/help" | sort -u); do
		[ "$opt" = --help ] && continue
		# shellcheck disable=SC2086
		run_status 2 "$FSTUNE" $cmd "$opt" --fstune-no-such-option --fstune-nor-this-one
		if grep -q -- "'$opt'" "$TMP/err"; then
			cat "$TMP/err" >&2
			fail "'fstune $cmd --help' shows $opt, which its parser does not take"
		fi
		[ -s "$TMP/err" ] || fail "fstune $cmd $opt: status 2 without a message"
		# The parser has said what was wrong; a second, empty error would only confuse.
		! grep -q "unknown error" "$TMP/err" || fail "fstune $cmd $opt: $(cat "$TMP/err")"
		checked=$((checked + 1))
	done
done
[ "$checked" -ge 100 ] || fail "only $checked options checked: is --help printing them?"
echo "$checked options of the wizard and $(echo "$commands" | wc -w) commands are taken by their parsers"
