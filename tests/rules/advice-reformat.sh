#!/bin/bash
# The merged mkfs command run for real on loop devices: over a btrfs (a test rule asks for its
# sector size), wipefs then mkfs.btrfs -L -U keeps the label and the UUID, so fstab's LABEL= and
# UUID= entries go on matching (blkid checked; tests/rules/advice-commands.sh does the same for mke2fs and
# mkfs.xfs). One filesystem per device: a blank disk described as an 18 TB video archive on a 512e
# NVMe namespace gets one mkfs.xfs -b size=4096 (run), the ext4 advice left out with a note each
# (bigalloc's too), and the nvme format note first. A blank device for a database gets a command
# that states its block size (run on 256 MiB, where mke2fs alone would make 1 KiB blocks).
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
private_mount_ns "$@"
require_loop
require_cmd jq blkid mkfs.xfs mkfs.btrfs wipefs xfs_db mkfs.ext4 dumpe2fs

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
test_rule sector sector "a btrfs reformat (advice-reformat.sh)" \
	"mkfs.block_size 4096 for the btrfs the facts describe." '{"mkfs.block_size"}' '{"fs.type"}' <<'RULE'
	check = function(facts)
		if facts.fs.type ~= "btrfs" then return {} end
		return {{name = "again", setting = "mkfs.block_size", recommended = 4096, fs = "btrfs", severity = "info",
			confidence = 0.5, title = "btrfs made again", rationale = "A test.", evidence = {"fs.type"}}}
	end,
	tests = {{name = "btrfs", facts = {fs = {type = "btrfs"}}, expect = {"again"}},
		{name = "ext4", facts = {fs = {type = "ext4"}}, expect = {}}},
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
assert_eq "$cmd" "mkfs.xfs -b size=4096 $dev" "the one command"
assert_eq "$(jq -r '.mkfs[0].notes[0]' "$r" | cut -c1-48)" "First, if you take it, nvme_lbaf.lba_format_512e" "the first note"
for left in inodes.largefile_ratio reserve.mkfs_reserve; do
	jq -e --arg p "Leaves out $left (for ext4: " \
		'any(.mkfs[0].notes[]; startswith($p) and contains("fschoice.xfs_for_large_files chose xfs"))' "$r" \
		>/dev/null || fail "no note leaving out $left: $(jq -c '.mkfs[0].notes' "$r")"
	jq -e --arg id "$left" 'all(.recommendations[]; .id != $id)' "$r" >/dev/null || fail "$left is still advised"
done
# ext4's bigalloc note is advice with nothing to run: left out for XFS too, said so
jq -e 'any(.mkfs[0].notes[]; startswith("Leaves out blocksize.bigalloc_large_files (advice for ext4): fschoice"))' \
	"$r" >/dev/null || fail "no note leaving out the bigalloc advice: $(jq -c '.mkfs[0].notes' "$r")"
jq -e 'all(.recommendations[]; .id != "blocksize.bigalloc_large_files")' "$r" >/dev/null ||
	fail "bigalloc is still advised with XFS chosen"
run_mkfs "$cmd"
assert_eq "$(blkid -o value -s TYPE "$dev")" xfs "what '$cmd' made"
assert_eq "$(xfs_db -r -c 'sb 0' -c 'p blocksize' "$dev")" "blocksize = 4096" "the block size '$cmd' made"

# 3. A blank 256 MiB device for a database with 8 KiB pages: the command states -b 4096, where
#    mke2fs.conf's "small" type would have made 1024-byte blocks; run, then read back.
img=$TMP/db.img
make_image "$img" 256M
dev=$(attach_loop "$img")
run_status 0 "$FSTUNE" probe "$dev" --format json
jq '.workload = {profile: "database", access: "random", io_size_bytes: 8192, sync_heavy: true}' \
	"$TMP/out" >"$TMP/db.json"
run_status 0 "$FSTUNE" report --facts "$TMP/db.json" --no-system-rules --format json
r=$TMP/db.report
cp "$TMP/out" "$r"
jq -e '.recommendations[] | select(.id == "blocksize.new_block_size") |
	.recommended == 4096 and (.rationale | contains("8 KiB pages"))' "$r" >/dev/null ||
	fail "no stated block size for the database: $(jq -c '[.recommendations[] | {id, recommended}]' "$r")"
cmd=$(merged "$r")
[[ $cmd == "mkfs.ext4 "*"-b 4096"*" $dev" ]] || fail "the command does not state -b 4096: $cmd"
run_mkfs "$cmd"
assert_eq "$(dumpe2fs -h "$dev" 2>/dev/null | sed -n 's/^Block size: *//p')" 4096 "the block size '$cmd' made"
echo ok
