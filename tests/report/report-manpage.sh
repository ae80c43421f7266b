#!/bin/bash
# fstune(1) is kept in step with the program: every long option that a command's --help prints appears
# in the man page, every command that `fstune --help` lists has its subsection under COMMANDS, and
# every command the page describes exists. The page also has the sections a man page must have.
. "${FSTUNE_SRCDIR:?run the tests through make check}/tests/lib/common.sh" || exit 99

PAGE="$FSTUNE_SRCDIR/doc/fstune.1"
[ -f "$PAGE" ] || fail "no doc/fstune.1"

for section in NAME SYNOPSIS DESCRIPTION COMMANDS OPTIONS "EXIT STATUS" ENVIRONMENT FILES EXAMPLES; do
	grep -q "^\.SH \"\?$section\"\?$" "$PAGE" || fail "fstune(1) has no $section section"
done
for var in FSTUNE_DEBUG FSTUNE_RULES_BUILTIN FSTUNE_RULES_PATH NO_COLOR; do
	grep -q "^\.B $var$" "$PAGE" || fail "fstune(1) does not document $var"
done
for status in 0 1 2 3 4; do
	sed -n '/^\.SH EXIT STATUS/,/^\.SH /p' "$PAGE" | grep -q "^\.B $status$" ||
		fail "fstune(1) does not document exit status $status"
done

run_status 0 "$FSTUNE" --help
commands=$(sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p' "$TMP/out")
[ -n "$commands" ] || fail "fstune --help lists no commands"
# The subsections of COMMANDS: ".SS "fstune NAME ..."".
documented=$(sed -n '/^\.SH COMMANDS/,/^\.SH /s/^\.SS "fstune \([a-z][a-z-]*\).*/\1/p' "$PAGE")

checked=0
for cmd in $commands; do
	echo "$documented" | grep -qx "$cmd" || fail "command '$cmd' has no subsection under COMMANDS in fstune(1)"
	run_status 0 "$FSTUNE" "$cmd" --help
	for opt in $(grep -o -- '--[a-z][a-z0-9-]*' "$TMP/out" | sort -u); do
		# roff writes a hyphen as \- ; an option is documented when "\-\-name" appears as a whole word.
		roff=$(printf '%s' "$opt" | sed 's/-/\\\\-/g')
		grep -q -- "$roff\\($\\|[^a-z0-9\\\\-]\\)" "$PAGE" ||
			fail "'fstune $cmd --help' shows $opt, which fstune(1) does not document"
		checked=$((checked + 1))
	done
done
for cmd in $documented; do
	echo "$commands" | grep -qx "$cmd" || fail "fstune(1) describes '$cmd', which 'fstune --help' does not list"
done
[ "$checked" -ge 8 ] || fail "only $checked options checked: is --help printing them?"
echo "$checked options of $(echo $commands | wc -w) commands are in fstune(1)"
