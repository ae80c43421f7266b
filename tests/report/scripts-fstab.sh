#!/bin/bash
# apply.sh's fstab diff reads the fstab as fstune does: the octal escapes of its fields undone
# (\040 a space, \011 a tab), so the entry of a mount point whose name holds a space and a tab is
# found and its change shown, with the entry's fields kept as the fstab spells them. An entry that
# only looks like it (an escaped backslash, \134, before 040) and one of another mount point are
# left alone. The facts are a hand-written file's (no such filesystem here): apply.sh with --root
# alone installs under the scratch root, shows the diff and changes nothing on this machine;
# revert.sh takes the root back to what it was.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
require_cmd jq shellcheck

jq 'del(.workload) | .fs.mount_point = "/srv/m nt\tx" | .fs.mount_options = ["rw", "strictatime"]' \
	"$FSTUNE_SRCDIR/tests/facts/ext4-dir-index-off.json" >"$TMP/facts.json"
mkdir "$TMP/s"
run_status 0 "$FSTUNE" report --facts "$TMP/facts.json" --no-system-rules --access random --io-mode mmap --io-size 4k \
	--format json --scripts "$TMP/s"
jq -e 'any(.recommendations[]; .id == "mount.strictatime" and .disruption == "remount")' "$TMP/out" >/dev/null ||
	fail "no remount to keep in fstab: $(jq -c '[.recommendations[] | [.id, .disruption]]' "$TMP/out")"
shellcheck "$TMP/s/apply.sh" >"$TMP/sc" 2>&1 || fail "shellcheck apply.sh: $(head -c 2000 "$TMP/sc")"

root=$TMP/root
mkdir -p "$root/etc"
entry='/dev/sdb1	/srv/m\040nt\011x	ext4	defaults,strictatime	0	2'
{
	printf '%s\n' '/dev/sda1	/	ext4	defaults	0	1'
	printf '%s\n' '/dev/sdc1	/srv/m\134040nt\011x	ext4	defaults,strictatime	0	2'
	printf '%s\n' "$entry"
	printf '%s\n' '/dev/sdd1	/srv/m	ext4	defaults,strictatime	0	2'
} >"$root/etc/fstab"
cp "$root/etc/fstab" "$TMP/fstab.before"

run_status 0 sh "$TMP/s/apply.sh" --yes --root "$root"
grep -qxF -- "-$entry" "$TMP/out" || fail "the diff does not take out the entry: $(cat "$TMP/out")"
grep -qxF -- "+${entry/strictatime/noatime}" "$TMP/out" || fail "the diff does not put in its change: $(cat "$TMP/out")"
assert_eq "$(grep -c '^[-+]/dev/' "$TMP/out")" 2 "lines of the fstab diff"
! grep -q 'has no entry for' "$TMP/out" || fail "the entry was not found: $(cat "$TMP/out")"
cmp -s "$root/etc/fstab" "$TMP/fstab.before" || fail "apply.sh wrote the fstab: $(cat "$root/etc/fstab")"
grep -qx 'apply.sh: done; revert.sh takes these changes back' "$TMP/out" || fail "apply.sh did not end: $(cat "$TMP/out" "$TMP/err")"

run_status 0 sh "$TMP/s/revert.sh" --yes --root "$root"
assert_eq "$(find "$root" -mindepth 1 | LC_ALL=C sort)" "$root/etc
$root/etc/fstab" "files under the root after revert.sh"
cmp -s "$root/etc/fstab" "$TMP/fstab.before" || fail "revert.sh changed the fstab"
echo ok
