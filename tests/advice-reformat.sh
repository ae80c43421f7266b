#!/bin/bash
# The merged mkfs command run for real on loop devices: it keeps the label and the UUID of the
# filesystem it replaces, so fstab's LABEL=/UUID= entries go on matching (blkid checked after each):
# mke2fs -L -U over an ext4 short of inodes, mkfs.xfs -L -m uuid= over an XFS missing its stripe,
# wipefs then mkfs.btrfs -L -U over a btrfs (a test rule asks for its sector size). Its notes say to
# back up and what keeps naming it. One filesystem per device: a blank disk described as an 18 TB
# video archive on a 512e NVMe namespace gets one mkfs.xfs, the ext4 advice left out with a note
# each, and the nvme format note first.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
private_mount_ns "$@"
require_loop
require_cmd jq blkid mkfs.ext4 mkfs.xfs mkfs.btrfs wipefs

# merged REPORT: the one mkfs command; fails unless there is exactly one
merged() {
	[ "$(jq '.mkfs | length' "$1")" = 1 ] || fail "not one mkfs command: $(jq -c .mkfs "$1")"
	jq -r '.mkfs[0].command' "$1"
}
has_note() { # REPORT PREFIX
	jq -e --arg p "$2" 'any(.mkfs[0].notes[]; startswith($p))' "$1" >/dev/null ||
		fail "no note '$2...': $(jq -c '.mkfs[0].notes' "$1")"
}
run_mkfs() { # COMMAND
	yes | bash -c "$1" >"$TMP/cmd.out" 2>&1 || fail "'$1' failed: $(head -c 800 "$TMP/cmd.out")"
}
identity() { blkid -o value -s LABEL -s UUID "$1" | paste -sd' '; }

# 1. ext4 labelled data01, made with 1024 inodes per GiB, facing 200,000 small files.
img=$TMP/ext.img
make_image "$img" 1G
mkfs.ext4 -q -F -L data01 -i 1048576 "$img" || fail "mkfs.ext4 failed"
dev=$(attach_loop "$img")
before=$(identity "$dev")
mnt=$(mount_tmp "$dev")
run_status 0 "$FSTUNE" report "$mnt" --bench none --workload smallfiles --files 200000 --file-size 500-3000 \
	--no-system-rules --format json
r=$TMP/ext.report
cp "$TMP/out" "$r"
cmd=$(merged "$r")
uuid=$(blkid -o value -s UUID "$dev")
[[ $cmd == mkfs.ext4\ * && $cmd == *" -L data01 -U $uuid "* ]] || fail "the ext4 command does not keep them: $cmd"
has_note "$r" "Back up first: it destroys everything on $dev, the ext4 filesystem mounted on $mnt included"
has_note "$r" "It keeps the label data01 and the UUID $uuid"
umount "$mnt"
run_mkfs "$cmd"
assert_eq "$(identity "$dev")" "$before" "label and UUID after '$cmd'"
[ "$(dumpe2fs -h "$dev" 2>/dev/null | sed -n 's/^Inode count: *//p')" -ge 200000 ] || fail "'$cmd' made too few inodes"

# 2. XFS labelled xfsdata, made without a stripe, described as sitting on an md RAID6.
img=$TMP/xfs.img
make_image "$img" 1G
mkfs.xfs -q -f -L xfsdata -d noalign "$img" || fail "mkfs.xfs failed"
dev=$(attach_loop "$img")
before=$(identity "$dev")
mnt=$(mount_tmp "$dev")
run_status 0 "$FSTUNE" probe "$mnt" --format json
jq '.device += {transport: "md", rotational: true, physical_block_size: 4096, minimum_io_size: 524288,
	optimal_io_size: 3145728, md_level: "raid6", md_chunk_bytes: 524288, md_data_disks: 6, md_raid_disks: 8}' \
	"$TMP/out" >"$TMP/xfs.json"
run_status 0 "$FSTUNE" report --facts "$TMP/xfs.json" --no-system-rules --format json
r=$TMP/xfs.report
cp "$TMP/out" "$r"
cmd=$(merged "$r")
uuid=$(blkid -o value -s UUID "$dev")
[[ $cmd == *"-d su=524288,sw=6"* && $cmd == *"-L xfsdata"* && $cmd == *"-m uuid=$uuid"* ]] ||
	fail "the XFS command does not keep them: $cmd"
umount "$mnt"
run_mkfs "$cmd"
assert_eq "$(identity "$dev")" "$before" "label and UUID after '$cmd'"

# 3. btrfs labelled bdata: a test rule asks for its sector size again.
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

# 4. One filesystem for a blank device: an 18 TB video archive on a 512e NVMe namespace (the facts
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
