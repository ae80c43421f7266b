#!/bin/bash
# The merged mkfs command run for real on loop devices: over a btrfs (a test rule asks for its
# sector size), wipefs then mkfs.btrfs -L -U keeps the label and the UUID, so fstab's LABEL= and
# UUID= entries go on matching (blkid checked; tests/advice-commands.sh does the same for mke2fs and
# mkfs.xfs). One filesystem per device: a blank disk described as an 18 TB video archive on a 512e
# NVMe namespace gets one mkfs.xfs (run), the ext4 advice left out with a note each, and the nvme
# format note first.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
private_mount_ns "$@"
require_loop
require_cmd jq blkid mkfs.xfs mkfs.btrfs wipefs

# merged REPORT: the one mkfs command; fails unless there is exactly one
merged() {
	[ "$(jq '.mkfs | length' "$1")" = 1 ] || fail "not one mkfs command: $(jq -c .mkfs "$1")"
	jq -r '.mkfs[0].command' "$1"
}
run_mkfs() { # COMMAND
	yes | bash -c "$1" >"$TMP/cmd.out" 2>&1 || fail "'$1' failed: $(head -c 800 "$TMP/cmd.out")"
}
identity() { blkid -o value -s LABEL -s UUID "$1" | paste -sd' '; }

# 1. btrfs labelled bdata: a test rule asks for its sector size again.
mkdir -m 755 "$TMP/rules"
cat >"$TMP/rules/sector.lua" <<'RULE'
return {
	id = "sector",
	title = "a btrfs reformat (advice-reformat.sh)",
	description = "mkfs.block_size 4096 for the btrfs the facts describe.",
	sources = {"tests/advice-reformat.sh"},
	settings = {"mkfs.block_size"},
	needs = {"fs.type"},
	check = function(facts)
		if facts.fs.type ~= "btrfs" then return {} end
		return {{name = "again", setting = "mkfs.block_size", recommended = 4096, fs = "btrfs", severity = "info",
			confidence = 0.5, title = "btrfs made again", rationale = "A test.", evidence = {"fs.type"}}}
	end,
	tests = {{name = "btrfs", facts = {fs = {type = "btrfs"}}, expect = {"again"}},
		{name = "ext4", facts = {fs = {type = "ext4"}}, expect = {}}},
}
RULE
img=$TMP/btrfs.img
make_image "$img" 1G
mkfs.btrfs -q -f -L bdata "$img" >/dev/null || fail "mkfs.btrfs failed"
dev=$(attach_loop "$img")
before=$(identity "$dev")
mnt=$(mount_tmp "$dev")
run_status 0 "$FSTUNE" report "$mnt" --bench none --no-system-rules --rules-dir "$TMP/rules" --format json
r=$TMP/btrfs.report
cp "$TMP/out" "$r"
cmd=$(merged "$r")
uuid=$(blkid -o value -s UUID "$dev")
assert_eq "$cmd" "wipefs -a $dev && mkfs.btrfs --sectorsize 4096 -L bdata -U $uuid -f $dev" "the btrfs command"
umount "$mnt"
run_mkfs "$cmd"
assert_eq "$(identity "$dev")" "$before" "label and UUID after '$cmd'"

# 2. One filesystem for a blank device: an 18 TB video archive on a 512e NVMe namespace (the facts
#    of a blank loop device, described so); the command runs on the loop device it names.
img=$TMP/blank.img
make_image "$img" 1G
dev=$(attach_loop "$img")
run_status 0 "$FSTUNE" probe "$dev" --format json
jq '.device += {size_bytes: 18000207937536, transport: "nvme", rotational: false, logical_block_size: 512,
	physical_block_size: 4096} |
	.workload = {access: "sequential", io_mode: "buffered", file_size_p50_bytes: 943718400,
		file_size_mean_bytes: 943718400, files_total: 19000, io_size_bytes: 1048576}' \
	"$TMP/out" >"$TMP/blank.json"
run_status 0 "$FSTUNE" report --facts "$TMP/blank.json" --no-system-rules --format json
r=$TMP/blank.report
cp "$TMP/out" "$r"
cmd=$(merged "$r")
assert_eq "$cmd" "mkfs.xfs $dev" "the one command"
assert_eq "$(jq -r '.mkfs[0].notes[0]' "$r" | cut -c1-48)" "First, if you take it, nvme_lbaf.lba_format_512e" "the first note"
for left in inodes.largefile_ratio reserve.mkfs_reserve; do
	jq -e --arg p "Leaves out $left (for ext4: " \
		'any(.mkfs[0].notes[]; startswith($p) and contains("fschoice.xfs_for_large_files chose xfs"))' "$r" \
		>/dev/null || fail "no note leaving out $left: $(jq -c '.mkfs[0].notes' "$r")"
	jq -e --arg id "$left" 'all(.recommendations[]; .id != $id)' "$r" >/dev/null || fail "$left is still advised"
done
run_mkfs "$cmd"
assert_eq "$(blkid -o value -s TYPE "$dev")" xfs "what '$cmd' made"
echo ok
