#!/bin/bash
# Read-ahead advice on btrfs, run for real on a loop device: btrfs reads through a bdi of its own
# (btrfs-N), so the advice names it (bdi.read_ahead_kb), never the member disk's queue. The printed
# apply and revert run in order, the bdi's value and the member's queue checked after each; apply.sh's
# read form reads back what the probe found; the bdi is named anew at the next mount, with btrfs's
# own size again, which is why the persistent form is a unit run at each mount (checked by
# systemd-analyze where it can verify units).
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
private_mount_ns "$@"
require_loop
require_cmd jq mkfs.btrfs findmnt systemd-analyze

img=$TMP/btrfs.img
make_image "$img" 1G
mkfs.btrfs -q -f "$img" >/dev/null || fail "mkfs.btrfs failed"
dev=$(attach_loop "$img")
mnt=$(mount_tmp "$dev")
uuid=$(findmnt -rno UUID --mountpoint "$mnt")
bdi=/sys/fs/btrfs/$uuid/bdi
queue=/sys/block/${dev#/dev/}/queue/read_ahead_kb
[ -e "$bdi/read_ahead_kb" ] || skip "this kernel has no $bdi"
own=$(cat "$bdi/read_ahead_kb")
member=$(cat "$queue")
name=$(basename "$(readlink "$bdi")")

run_status 0 "$FSTUNE" probe "$mnt" --format json
assert_eq "$(jq -c '.vm.bdi | [.name, .read_ahead_kb]' "$TMP/out")" "[\"$name\",$own]" "vm.bdi of the btrfs"

mkdir "$TMP/s"
run_status 0 "$FSTUNE" report "$mnt" --bench none --no-system-rules --access random --io-mode mmap --io-size 8k \
	--format json --scripts "$TMP/s"
r=$TMP/report.json
cp "$TMP/out" "$r"
id=readahead.lower_for_random
assert_eq "$(jq -c --arg id $id '.recommendations[] | select(.id == $id) | [.setting, .current, .recommended]' "$r")" \
	"[\"bdi.read_ahead_kb\",$own,128]" "$id ($(jq -c '[.recommendations[].id]' "$r"))"
jq -e 'all(.recommendations[]; .setting != "queue.read_ahead_kb")' "$r" >/dev/null ||
	fail "read-ahead advice on the member's queue: $(jq -c '[.recommendations[] | select(.setting == "queue.read_ahead_kb") | .id]' "$r")"

# apply.sh's check of it reads back what the probe found
check() {
	[ "$2" = "$3" ] || fail "$1: the read form printed '$3', the probe found '$2'"
	echo "$1" >>"$TMP/checked"
}
eval "$(sed -n 's/^\tcheck \(.*bdi.read_ahead_kb\)/check \1/p' "$TMP/s/apply.sh")"
grep -qx bdi.read_ahead_kb "$TMP/checked" || fail "apply.sh has no check of bdi.read_ahead_kb"

run_cmds() {
	local cmd
	while IFS= read -r cmd; do
		bash -c "$cmd" >"$TMP/cmd.out" 2>&1 </dev/null || fail "'$cmd' failed: $(head -c 800 "$TMP/cmd.out")"
	done < <(jq -r --arg id "$id" ".recommendations[] | select(.id == \$id) | .$1[]" "$r")
}
run_cmds apply
assert_eq "$(cat "$bdi/read_ahead_kb")" 128 "the btrfs bdi's read-ahead after the apply"
assert_eq "$(cat "$queue")" "$member" "the member's queue after the apply"
run_cmds revert
assert_eq "$(cat "$bdi/read_ahead_kb")" "$own" "the btrfs bdi's read-ahead after the revert"

# What the persistent form says: a new mount makes a new bdi, sized by btrfs again.
run_cmds apply
umount "$mnt"
mount "$dev" "$mnt" || fail "mount again failed"
[ "$(basename "$(readlink "$bdi")")" != "$name" ] || fail "the bdi kept its name $name across a mount"
assert_eq "$(cat "$bdi/read_ahead_kb")" "$own" "the read-ahead of the new mount's bdi"
unit=$(jq -r --arg id $id '.recommendations[] | select(.id == $id) | .persistent' "$r")
assert_eq "$(jq -r .kind <<<"$unit")" systemd.service "the persistent form's kind"
mkdir "$TMP/units"
jq -r .line <<<"$unit" >"$TMP/units/$(basename "$(jq -r .path <<<"$unit")")"
grep -qx "ExecStart=/bin/sh -c 'echo 128 > $bdi/read_ahead_kb'" "$TMP/units"/*.service ||
	fail "the unit does not set the bdi: $(cat "$TMP/units"/*.service)"
# systemd checks the unit and, through the mount unit it binds to (named from Where=, which verify
# checks against the name), fstune's escaping of the mount point.
service=$(echo "$TMP/units"/*.service)
mount_unit=$(sed -n 's/^BindsTo=//p' "$service")
printf '[Mount]\nWhat=%s\nWhere=%s\n' "$dev" "$mnt" >"$TMP/units/$mount_unit"
systemd-analyze verify --man=no "$service" "$TMP/units/$mount_unit" >"$TMP/verify" 2>&1 ||
	fail "systemd-analyze verify: $(cat "$TMP/verify")"
[ ! -s "$TMP/verify" ] || fail "systemd-analyze verify: $(cat "$TMP/verify")"
echo "systemd-analyze verify accepts the unit and $mount_unit"
echo ok
