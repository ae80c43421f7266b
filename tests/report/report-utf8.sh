#!/bin/bash
# A mount point whose name is not UTF-8 (bytes FF FE, and a backslash), on a loop-mounted ext4
# mounted strictatime with a read-ahead of 1024 KiB: probe, a sample of files named so too, and every
# report format exit 0 with valid output; the JSON holds the name escaped (\xff\xfe, \\) with
# fs.mount_point in the facts' top-level "escaped" array; the commands quote the original bytes, as
# printf octal escapes, and run for real: apply.sh remounts that mount point noatime and revert.sh
# puts strictatime back, fstune apply and undo do the same and edit and restore its fstab entry
# (written with fstab's own \134 for the backslash).
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
private_mount_ns "$@"
require_loop
require_cmd jq mkfs.ext4 findmnt sh
export FSTUNE_RULES_PATH=
RULES=(--no-system-rules --rules-dir "$FSTUNE_SRCDIR/tests/apply/rules")
WORKLOAD=(--access random --io-mode mmap --io-size 4096)

img=$TMP/ext.img
make_image "$img" 256M
mkfs.ext4 -q -F "$img" || fail "mkfs.ext4 failed"
dev=$(attach_loop "$img")
disk=${dev#/dev/}
ra=/sys/block/$disk/queue/read_ahead_kb
on_exit "echo $(cat "$ra") > $ra"
echo 1024 >"$ra"
mnt=$TMP/$(printf 'm\xff\xfe\\x')
mkdir "$mnt"
mount -o strictatime "$dev" "$mnt" || fail "mount on a name that is not UTF-8 failed"
on_exit "umount -l '$mnt'"
escaped=$TMP/'m\xff\xfe\\x' # the name as the facts write it
options() { findmnt -rno VFS-OPTIONS --mountpoint "$mnt"; }
[[ ,$(options), == *,strictatime,* || ,$(options), != *,relatime,* ]] || fail "not strictatime: $(options)"

# --- probe and the report formats ---
run_status 0 "$FSTUNE" probe --format json "$mnt"
cp "$TMP/out" "$TMP/probe.json"
jq -e . "$TMP/probe.json" >/dev/null || fail "probe wrote invalid JSON"
assert_eq "$(jq -r .fs.mount_point "$TMP/probe.json")" "$escaped" "fs.mount_point as escaped"
jq -e '.escaped | index("fs.mount_point")' "$TMP/probe.json" >/dev/null ||
	fail "fs.mount_point is not listed in escaped: $(jq -c .escaped "$TMP/probe.json")"
run_status 0 "$FSTUNE" probe "$mnt"
# a sample of files whose names are not UTF-8 either
mkdir -p "$mnt/data/$(printf 'd\xff')"
echo x >"$mnt/data/$(printf 'd\xff')/$(printf 'f\xfe\\')"
run_status 0 "$FSTUNE" workload --sample "$mnt/data" --format json "$mnt"
jq -e '.workload.files_total == 1' "$TMP/out" >/dev/null || fail "the sample: $(cat "$TMP/out")"
rm -rf "$mnt/data"
for format in json text markdown openmetrics html; do
	run_status 0 "$FSTUNE" report "${RULES[@]}" --bench none --format "$format" "$mnt"
done
run_status 0 "$FSTUNE" report "${RULES[@]}" --bench none --format json "${WORKLOAD[@]}" "$mnt"
cp "$TMP/out" "$TMP/report.json"
jq -e '.facts.escaped | index("fs.mount_point")' "$TMP/report.json" >/dev/null || fail "the report's facts lack escaped"
cmd=$(jq -r '.recommendations[] | select(.id == "mount.strictatime") | .apply[0]' "$TMP/report.json")
assert_eq "$cmd" "mount -o remount,noatime '$TMP/m'\"\$(printf '\\377\\376')\"'\\x'" "the remount command"
# the facts saved and read back: the same escaped value, the same command
run_status 0 "$FSTUNE" report "${RULES[@]}" --facts "$TMP/probe.json" --format json "${WORKLOAD[@]}"
assert_eq "$(jq -r '.recommendations[] | select(.id == "mount.strictatime") | .apply[0]' "$TMP/out")" "$cmd" \
	"the command from saved facts"

# --- the scripts, for real (no sysctl step: the facts lose their vm branch) ---
jq 'del(.vm) | .sources |= with_entries(select(.key | startswith("vm.") | not))
	| .unavailable |= with_entries(select(.key | startswith("vm") | not))' "$TMP/probe.json" >"$TMP/facts.json"
scripts=$TMP/scripts
mkdir "$scripts"
run_status 0 "$FSTUNE" report --facts "$TMP/facts.json" --no-system-rules "${WORKLOAD[@]}" --scripts "$scripts" --quiet
grep -qF "	$cmd" "$scripts/apply.sh" || fail "apply.sh lacks the command: $(grep -n remount "$scripts/apply.sh")"
sh -n "$scripts/apply.sh" || fail "sh -n apply.sh"
root=$TMP/root
mkdir -p "$root/etc"
printf '%s %s ext4 strictatime 0 2\n' "$dev" "$TMP/m$(printf '\xff\xfe')\\134x" >"$root/etc/fstab"
run_status 0 sh "$scripts/apply.sh" --yes --root "$root" --live --host-wide
[[ ,$(options), == *,noatime,* ]] || fail "apply.sh did not remount noatime: $(options)"
grep -qF -- "+$dev	$TMP/m$(printf '\xff\xfe')\\134x	ext4	noatime" "$TMP/out" ||
	fail "apply.sh's fstab diff: $(cat "$TMP/out")"
run_status 0 sh "$scripts/revert.sh" --yes --root "$root" --live
[[ ,$(options), != *,noatime,* ]] || fail "revert.sh did not take noatime back: $(options)"

# --- fstune apply and undo ---
fstab0=$(md5sum <"$root/etc/fstab")
run_status 0 "$FSTUNE" apply "${RULES[@]}" "${WORKLOAD[@]}" --only mount.strictatime --root "$root" --live --yes "$mnt"
[[ ,$(options), == *,noatime,* ]] || fail "apply did not remount noatime: $(options)"
grep -qF "$TMP/m$(printf '\xff\xfe')\\134x ext4 noatime 0 2" "$root/etc/fstab" || fail "apply's fstab: $(cat "$root/etc/fstab")"
journal=$(ls "$root"/var/lib/fstune/journal/*.json)
jq -e . "$journal" >/dev/null || fail "the journal is not valid JSON"
run_status 0 "$FSTUNE" undo --last --root "$root" --live
[[ ,$(options), != *,noatime,* ]] || fail "undo did not take noatime back: $(options)"
assert_eq "$(md5sum <"$root/etc/fstab")" "$fstab0" "fstab after undo"
