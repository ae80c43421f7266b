#!/bin/bash
# Reports that could not judge what they were asked to say so first, with the right status: a facts
# file with nothing to judge (2) or with keys the schema does not know (warnings; 2 with --strict), a
# file with no filesystem (0, headline "No filesystem found"), built-in rules refused as root (3, headline
# with the command that fixes it, never "Nothing to change"); and rules that need facts only
# hand-written files hold (vm.bdflush) are left out of text and Markdown on a probed machine unless
# --verbose, while JSON lists them always.
. "${FSTUNE_SRCDIR:?run the tests through make check}/tests/lib/common.sh" || exit 99
require_cmd jq

[ -d "$FSTUNE_SRCDIR/rules/builtin" ] || skip "no rules/builtin in the source tree yet"
export FSTUNE_RULES_BUILTIN="$FSTUNE_SRCDIR/rules/builtin"
unset FSTUNE_RULES_PATH
R=("$FSTUNE" report --no-system-rules --bench none)
NVME="$FSTUNE_SRCDIR/tests/fixtures/sysroot/simple-nvme"

# --- rules only hand-written facts can run: hidden on a probed machine unless --verbose ---
run_status 0 "${R[@]}" --sysroot "$NVME" nvme0n1
! grep -q '^  legacy:' "$TMP/out" || fail "probed machine: text lists legacy (needs vm.bdflush)"
run_status 0 "${R[@]}" --sysroot "$NVME" nvme0n1 --format markdown
! grep -q '^| `legacy`' "$TMP/out" || fail "probed machine: Markdown lists legacy"
run_status 0 "${R[@]}" --sysroot "$NVME" nvme0n1 --json
jq -e '.not_evaluated | map(.rule) | index("legacy")' "$TMP/out" >/dev/null ||
	fail "probed machine: JSON does not list legacy among the rules not evaluated"
run_status 0 "${R[@]}" --sysroot "$NVME" nvme0n1 --verbose
grep -q '^  legacy: needs vm.bdflush' "$TMP/out" || fail "--verbose: text does not list legacy"
run_status 0 "${R[@]}" --sysroot "$NVME" nvme0n1 --verbose --format markdown
grep -q '^| `legacy` | needs vm.bdflush' "$TMP/out" || fail "--verbose: Markdown does not list legacy"
# A saved probe read back is still a probed machine; hand-written facts may add vm.bdflush.
"$FSTUNE" probe --sysroot "$NVME" nvme0n1 --json >"$TMP/saved.json" || fail "probe --json failed"
run_status 0 "${R[@]}" --facts "$TMP/saved.json"
! grep -q '^  legacy:' "$TMP/out" || fail "saved probe: text lists legacy"
run_status 0 "${R[@]}" --facts "$FSTUNE_SRCDIR/tests/facts/healthy-default.json"
grep -q '^  legacy: needs vm.bdflush' "$TMP/out" || fail "hand-written facts: text does not list legacy"
# Every command that prints results takes --verbose.
for cmd in probe workload "rules list"; do
	# shellcheck disable=SC2086
	run_status 0 "$FSTUNE" $cmd --verbose --sysroot "$NVME" --json
done

# --- --facts checked against the schema: unknown keys and groups named (2 with --strict); a file
# with neither a device nor a filesystem judges nothing (2) ---
echo '{}' >"$TMP/empty-object.json"
run_status 2 "${R[@]}" --facts "$TMP/empty-object.json"
grep -q "nothing could be judged" "$TMP/err" || fail "{}: stderr does not say nothing could be judged"
[ ! -s "$TMP/out" ] || fail "{}: a report was written"
echo '{"host": {"kernel": "6.1"}, "filesystem": {"type": "ext4"}}' >"$TMP/no-fs.json"
run_status 2 "${R[@]}" --facts "$TMP/no-fs.json"
grep -q 'nothing could be judged.*unknown group "filesystem"' "$TMP/err" ||
	fail "a filesystem group: the message does not name it"
echo '{"fs": {"type": "ext4", "tpye": "ext4", "block_size": 4096}, "filesystem": {}}' >"$TMP/typos.json"
run_status 0 "${R[@]}" --facts "$TMP/typos.json"
grep -q "^fstune: warning: .*typos.json: unknown key fs.tpye$" "$TMP/err" || fail "fs.tpye: no warning"
grep -q '^fstune: warning: .*typos.json: unknown group "filesystem"$' "$TMP/err" || fail "filesystem: no warning"
unwrapped "$TMP/out" | grep -q "not understood, so ignored: unknown key fs.tpye" ||
	fail "typos: the report does not say what it ignored"
run_status 2 "${R[@]}" --facts "$TMP/typos.json" --strict
[ ! -s "$TMP/out" ] || fail "typos --strict: a report was written"
grep -q "unknown keys or groups (--strict)" "$TMP/err" || fail "typos --strict: no final message"
# What fstune writes itself is known to its schema: no warning.
for f in "$FSTUNE_SRCDIR"/tests/facts/*.json "$TMP/saved.json"; do
	run_status 0 "${R[@]}" --facts "$f"
	[ ! -s "$TMP/err" ] || { cat "$TMP/err" >&2; fail "$(basename "$f"): warnings on fstune's own keys"; }
done

# --- a file with no filesystem signature: fs not_found, said first, status 0 ---
printf 'db1.example.org\n' >"$TMP/hostname"
run_status 0 "${R[@]}" "$TMP/hostname"
first=$(sed -n '5,/^$/p' "$TMP/out" | tr -s '\n ' '  ')
case $first in
"No filesystem found: no filesystem signature on $TMP/hostname"*) ;;
*) fail "plain file: the report does not open with 'No filesystem found' (line 5: $first)" ;;
esac
! grep -q "Nothing to change" "$TMP/out" || fail "plain file: the report says 'Nothing to change'"
unwrapped "$TMP/out" | grep -q "(a file without a filesystem)" || fail "plain file: Input calls it an image"
run_status 0 "${ON_TERMINAL[@]}" "$FSTUNE" report --no-system-rules "$TMP/hostname"
grep -q "no benchmarks: it holds no filesystem signature" "$TMP/err" ||
	fail "plain file: the note does not say why nothing was measured: $(cat "$TMP/err")"
! grep -q "losetup" "$TMP/err" || fail "plain file: the note tells to attach a text file as a loop device"
run_status 0 "${R[@]}" "$TMP/hostname" --json
assert_eq "$(jq -r '.facts.unavailable.fs.status' "$TMP/out")" not_found "plain file: fs status"
jq -e '.headline | startswith("No filesystem found")' "$TMP/out" >/dev/null || fail "plain file: no JSON headline"
run_status 0 "${R[@]}" "$TMP/hostname" --format markdown
grep -q '^\*\*No filesystem found' "$TMP/out" || fail "plain file: no Markdown headline"

# --- the built-in rules refused (as root, a directory writable by group): 3, the fix said first ---
if [ "$(id -u)" = 0 ]; then
	cp -r "$FSTUNE_SRCDIR/rules/builtin" "$TMP/rules"
	chmod -R go-w "$TMP/rules"
	chmod g+w "$TMP/rules"
	for format in text markdown; do
		FSTUNE_RULES_BUILTIN="$TMP/rules" run_status 3 "${R[@]}" --format $format \
			--facts "$FSTUNE_SRCDIR/tests/facts/healthy-default.json"
		grep -q "No advice: no rule could be evaluated" "$TMP/out" || fail "refused rules ($format): no headline"
		unwrapped "$TMP/out" | grep -qF "To fix it, run: chmod -R go-w $TMP/rules" ||
			fail "refused rules ($format): the headline does not give the command that fixes it"
		! grep -q "Nothing to change" "$TMP/out" || fail "refused rules ($format): says 'Nothing to change'"
	done
	FSTUNE_RULES_BUILTIN="$TMP/rules" run_status 3 "${R[@]}" --json \
		--facts "$FSTUNE_SRCDIR/tests/facts/healthy-default.json"
	assert_eq "$(jq -r '.errors[0].fix' "$TMP/out")" "chmod -R go-w $TMP/rules" "refused rules: JSON fix"
	# The command the report gives is the one that fixes it.
	chmod -R go-w "$TMP/rules"
	FSTUNE_RULES_BUILTIN="$TMP/rules" run_status 0 "${R[@]}" \
		--facts "$FSTUNE_SRCDIR/tests/facts/healthy-default.json"
	! grep -q "No advice" "$TMP/out" || fail "after the fix: still no advice"
else
	echo "not root: the refusal of group-writable rules is not tested (it applies to root only)"
fi
exit 0
