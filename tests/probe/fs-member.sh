#!/bin/bash
# A member of a mounted multi-device btrfs that mountinfo does not name: two loop devices made into
# one raid1 btrfs, mounted through the first. The second is probed, reported and benchmarked as a
# block device: fs.member_of names the mount, no rule proposes mkfs, bench refuses it (status 4).
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
. "$FSTUNE_SRCDIR/tests/lib/fs.sh"
private_mount_ns "$@"
require_loop
require_cmd mkfs.btrfs btrfs blkid jq

make_image "$TMP/a.img" 256M
make_image "$TMP/b.img" 256M
a=$(attach_loop "$TMP/a.img")
b=$(attach_loop "$TMP/b.img")
# a fresh UUID each run: the kernel keeps scanned devices registered under their fsid
mkfs.btrfs -q -f -d raid1 -m raid1 "$a" "$b" >/dev/null 2>&1 || fail "mkfs.btrfs raid1 failed"
on_exit "btrfs device scan --forget $a $b"
# no udev daemon here: the kernel learns of the second device only from a scan
btrfs device scan "$a" "$b" >/dev/null 2>&1 || fail "btrfs device scan failed"
uuid=$(blkid -p -s UUID -o value "$b") || fail "blkid found no UUID on $b"
mnt=$(mount_tmp "$a")
devs=$(jq -cn --arg a "${a#/dev/}" --arg b "${b#/dev/}" '[$a, $b] | sort')

probe_json "$TMP/b.json" "$b"
j=$TMP/b.json
want "$j" .fs.type '"btrfs"'
want "$j" '.sources["fs.type"]' '"blkid"'
want "$j" .fs.uuid "\"$uuid\""
want "$j" '.fs.uuid_sub | test("^[0-9a-f-]{36}$")' true "member's own UUID_SUB"
want "$j" .fs.member_of.type '"btrfs"'
want "$j" .fs.member_of.uuid "\"$uuid\""
want "$j" .fs.member_of.mount_point "\"$mnt\""
want "$j" .fs.member_of.devices "$devs"
want "$j" .fs.devices "$devs"
want "$j" .fs.device_count 2
want "$j" '.sources["fs.member_of.devices"]' '"sysfs"'
want "$j" '.unavailable["fs.mount_point"].reason | test("member of the btrfs mounted on")' true
# The first device is a member too: a btrfs mount's device number is anonymous (0:NN).
probe_json "$TMP/a.json" "$a"
want "$TMP/a.json" .fs.member_of.mount_point "\"$mnt\""

# Without root the signature cannot be read, but the kernel's member list needs no privilege.
if command -v setpriv >/dev/null && as_nobody test -x "$FSTUNE"; then
	run_status 0 as_nobody "$FSTUNE" probe "$b" --format json
	want "$TMP/out" .fs.member_of.mount_point "\"$mnt\"" "as nobody"
	want "$TMP/out" '[.fs.type, .sources["fs.type"]]' '["btrfs","sysfs"]' "as nobody"
	run_status 0 as_nobody "$FSTUNE" report --no-system-rules \
		--format json "$b"
	want "$TMP/out" '[.recommendations[] | select(.setting // "" | startswith("mkfs."))] | length' 0 \
		"report as nobody: mkfs recommendations on a member"
else
	echo "note: user nobody cannot run $FSTUNE; the unprivileged part is not run" >&2
fi

# The report says so and proposes no mkfs; it does not benchmark by default.
run_status 0 "$FSTUNE" report --no-system-rules "$b"
tr -s ' \n' '  ' <"$TMP/out" | grep -qF "member of the btrfs mounted on $mnt (2 devices)" || fail "report: no member line"
run_status 0 "$FSTUNE" report --no-system-rules --format json "$b"
want "$TMP/out" '[.recommendations[] | select(.setting // "" | startswith("mkfs."))] | length' 0 \
	"report: mkfs recommendations on a member"

# bench: in use, refused, naming the filesystem.
run_status 4 "$FSTUNE" bench "$b"
grep -q "member of the btrfs mounted on $mnt (2 devices)" "$TMP/err" || fail "bench: message $(cat "$TMP/err")"
run_status 4 "$FSTUNE" report --no-system-rules --bench quick "$b"

# Only a subvolume mounted (mountinfo root "/@"), as many distributions mount /: still a member.
btrfs subvolume create "$mnt/@" >/dev/null || fail "btrfs subvolume create failed"
umount "$mnt"
sub=$(mount_tmp "$a" -o subvol=@)
probe_json "$TMP/sub.json" "$b"
want "$TMP/sub.json" .fs.member_of.mount_point "\"$sub\"" "subvolume mount"
umount "$sub"

# Unmounted, the kernel lists the devices no more: a plain unmounted btrfs again.
probe_json "$TMP/off.json" "$b"
want "$TMP/off.json" '.fs.member_of // "absent"' '"absent"'
want "$TMP/off.json" .fs.type '"btrfs"'
echo "ok"
