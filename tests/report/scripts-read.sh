#!/bin/bash
# The read forms of the setting table, run for real: a test rule recommends every setting that has
# one (queue and bdi attributes of a loop device, vm sysctls, mount options of a loop mount, the
# reserved block count of its ext4) with the probed value as current; each check line of apply.sh,
# run right after the probe, must read back exactly the value recorded. The mount point has a space
# in its name and a superblock option a space in its value (usrjquota=a b), which mountinfo escapes
# (\040) and the read form decodes for the mount point and keeps for the options, as fstune does.
# Nothing is changed: only the checks run.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
private_mount_ns "$@"
require_loop
require_cmd jq mkfs.ext4 findmnt tune2fs

img=$TMP/ext.img
make_image "$img" 256M
mkfs.ext4 -q -F "$img" || fail "mkfs.ext4 failed"
dev=$(attach_loop "$img")
mnt="$TMP/m nt"
mkdir "$mnt"
mount -o "lazytime,commit=9,usrjquota=a b,jqfmt=vfsv0" "$dev" "$mnt"
on_exit "umount -l '$mnt'"
grep -qF ',usrjquota=a\040b' /proc/self/mountinfo || fail "no escaped option: $(grep -F "$TMP" /proc/self/mountinfo)"

mkdir -m 755 "$TMP/no-rules"
# Every setting with a read form, recommended with the probed value as current.
test_rule readback readback "settings with a read form (scripts test)" \
	"Recommends each setting a script can read back, so that its read form runs." \
	'{"queue.read_ahead_kb", "queue.scheduler", "queue.nr_requests", "device.write_cache",
		"bdi.max_ratio", "sysctl.vm.dirty_ratio", "sysctl.vm.dirty_bytes", "sysctl.vm.vfs_cache_pressure",
		"mount.option.noatime", "mount.option.lazytime", "mount.option.commit", "fs.reserved_blocks",
		"fstrim.timer"}' '{"device.read_ahead_kb", "fs.mount_point"}' <<'EOF'
	check = function(facts)
		local out, d, vm, fs = {}, facts.device, facts.vm or {}, facts.fs
		local function rec(setting, current, recommended)
			if current == nil then return end
			out[#out + 1] = {name = setting:gsub("%.", "_"), setting = setting, current = current,
				recommended = recommended, severity = "info", confidence = 1, title = setting,
				rationale = "Read back by the script.", evidence = {"fs.mount_point"}}
		end
		rec("queue.read_ahead_kb", d.read_ahead_kb, 256)
		rec("queue.scheduler", d.scheduler, "none")
		rec("queue.nr_requests", d.nr_requests, 64)
		rec("device.write_cache", d.write_cache, "write through")
		rec("bdi.max_ratio", vm.bdi and vm.bdi.max_ratio, 50)
		rec("sysctl.vm.dirty_ratio", vm.dirty_ratio, 10)
		rec("sysctl.vm.dirty_bytes", vm.dirty_bytes, 1073741824)
		rec("sysctl.vm.vfs_cache_pressure", vm.vfs_cache_pressure, 50)
		rec("mount.option.noatime", false, true)
		rec("mount.option.lazytime", true, false)
		rec("mount.option.commit", 9, 30)
		rec("fs.reserved_blocks", fs.reserved_blocks, 0)
		rec("fstrim.timer", fs.fstrim_timer, true)
		return out
	end,
	tests = {
		{name = "a mounted loop device", facts = {device = {read_ahead_kb = 128}, fs = {mount_point = "/m"}},
			expect = {"queue_read_ahead_kb", "mount_option_noatime"}},
		{name = "nothing mounted", facts = {device = {read_ahead_kb = 128}}, expect = {}},
	},
EOF
export FSTUNE_RULES_BUILTIN=$TMP/no-rules
mkdir "$TMP/s"
run_status 0 "$FSTUNE" report "$mnt" --bench none --no-system-rules --rules-dir "$TMP/rules" --format json \
	--scripts "$TMP/s"
cp "$TMP/out" "$TMP/report.json"
jq -e '.errors | length == 0' "$TMP/report.json" >/dev/null || fail "rule errors: $(jq -c .errors "$TMP/report.json")"
for want in queue.read_ahead_kb queue.scheduler sysctl.vm.dirty_ratio mount.option.noatime mount.option.lazytime \
	mount.option.commit fs.reserved_blocks; do
	jq -e --arg s "$want" 'any(.recommendations[]; .setting == $s)' "$TMP/report.json" >/dev/null ||
		fail "no $want recommended: $(jq -c '[.recommendations[].setting]' "$TMP/report.json")"
done
! grep -n 'not checked' "$TMP/s/apply.sh" || fail "a setting with a read form was not checked"

# Each check as apply.sh has it, with a check that insists on the value recorded.
check() {
	[ "$2" = "$3" ] || fail "$1: the read form printed '$3', the probe found '$2'"
	echo "$1" >>"$TMP/checked"
}
checks=$(sed -n 's/^\tcheck /check /p' "$TMP/s/apply.sh")
[ -n "$checks" ] || fail "no check in apply.sh"
eval "$checks"
settings=$(jq -r '[.recommendations[] | select(.apply | length > 0) | .setting] | sort | .[]' "$TMP/report.json")
assert_eq "$(sort "$TMP/checked")" "$settings" "the settings read back"
grep -qF 'v = $(i + 3)' "$TMP/s/apply.sh" || fail "no superblock option read"
grep -qF 'v = $6' "$TMP/s/apply.sh" || fail "no per-mount option read"
grep "^	check " "$TMP/s/apply.sh" >&2
echo "read back $(wc -l <"$TMP/checked") settings as the probe found them"
