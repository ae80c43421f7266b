-- Filesystem choice for a device without a filesystem yet: ext4 or XFS for the workload, with modest
-- confidence and the trade-offs said; firm only where a hard limit decides.

local MiB, TiB = fstune.MiB, fstune.TiB

local fmt, commas = fstune.fmt_bytes, fstune.fmt_count

local TRADEOFFS = "Trade-offs either way: ext4 can be shrunk (offline) and fixes its inode count at mkfs "
	.. "(-i), keeps a 5% root reserve by default, and its fsck time grows with the inode tables; XFS "
	.. "cannot be shrunk at all, allocates inodes as needed, spreads allocation over allocation groups "
	.. "that parallel writers use at once, has reflink copies by default, and refuses filesystems under "
	.. "300 MB. Both are mature, journaled, default in major distributions; on most servers either is "
	.. "fine, and fstune trial measures the two on your own workload."

local function check(facts)
	local out = {}
	if fstune.is_freebsd() then return out end
	if not fstune.is_blank() then return out end
	local d = facts.device
	-- neither fits a zoned disk: the zoned rule names what does
	if fstune.zoned() then return out end
	local size = d.size_bytes
	if not fstune.is_integer(size) or size <= 0 then return out end
	local w = facts.workload or {}

	if size < 300 * 1000 * 1000 then
		out[#out + 1] = {name = "ext4_small_device", setting = "mkfs.fs_type", recommended = "ext4",
			severity = "suggest", confidence = 0.8,
			title = string.format("a %s device is too small for XFS: use ext4", fmt(size)),
			rationale = string.format("Current mkfs.xfs refuses filesystems under 300 MB ('stop allowing tiny "
				.. "filesystems': the log must be at least 64 MiB and there must be two allocation groups). "
				.. "This device has %s. ext4 handles small filesystems well (mke2fs picks its 'small' type "
				.. "below 512 MiB).", fmt(size)),
			evidence = fstune.present({"device.size_bytes"})}
		return out
	end

	local files = w.files_total
	if fstune.is_integer(files) and files > 4294967295 and not fstune.is_assumed("workload.files_total") then
		out[#out + 1] = {name = "xfs_for_inode_count", setting = "mkfs.fs_type", recommended = "xfs",
			severity = "suggest", confidence = 0.7,
			title = string.format("%s files exceed ext4's 2^32 inodes: use XFS", commas(files)),
			rationale = string.format("ext4 cannot have more than 2^32 inodes whatever -i or -N says; you "
				.. "expect %s files. XFS allocates inodes on demand (up to -i maxpct of the space). %s",
				commas(files), TRADEOFFS),
			evidence = fstune.present({"workload.files_total", "device.size_bytes"})}
		return out
	end

	local access, mode = w.access, w.io_mode
	local big = (fstune.is_integer(w.file_size_p50_bytes) and w.file_size_p50_bytes >= 64 * MiB)
		or (type(w.file_size_mean_bytes) == "number" and w.file_size_mean_bytes >= 64 * MiB)
	local small = (fstune.is_integer(w.file_size_p50_bytes) and w.file_size_p50_bytes <= 16 * 1024)
	local said = not fstune.is_assumed("workload.access") or not fstune.is_assumed("workload.file_size_p50_bytes")
		or not fstune.is_assumed("workload.io_mode")
	if not said then return out end -- a preset or default workload is no basis for choosing

	if (big and access == "sequential") or mode == "direct" or size >= 64 * TiB then
		local why = {}
		if big and access == "sequential" then why[#why + 1] = "large files streamed sequentially" end
		if mode == "direct" then why[#why + 1] = "O_DIRECT I/O (databases), where XFS's allocation groups "
			.. "serve parallel writers" end
		if size >= 64 * TiB then why[#why + 1] = string.format("a %s filesystem", fmt(size)) end
		out[#out + 1] = {name = "xfs_for_large_files", setting = "mkfs.fs_type", recommended = "xfs",
			severity = "info", confidence = 0.4,
			title = "XFS fits this workload slightly better than ext4",
			rationale = string.format("The workload is %s. XFS is built around extents and allocation "
				.. "groups for large files and parallel I/O, and there is no inode ratio to get wrong. The "
				.. "difference is modest and this is a judgement, not a measurement. %s",
				table.concat(why, "; "), TRADEOFFS),
			evidence = fstune.present({"workload.access", "workload.io_mode", "workload.file_size_p50_bytes",
				"workload.file_size_mean_bytes", "device.size_bytes"})}
	elseif small then
		out[#out + 1] = {name = "ext4_for_small_files", setting = "mkfs.fs_type", recommended = "ext4",
			severity = "info", confidence = 0.4,
			title = "ext4 fits a tree of small files slightly better than XFS",
			rationale = string.format("Half the files are %s or smaller. ext4 can keep tiny files and "
				.. "directories inside the inode (inline_data), uses 256-byte inodes against XFS's 512, "
				.. "and small metadata-heavy trees are its long-tested case; plan the inode count with "
				.. "-i (see the inodes rules), since XFS's advantage here is that it never runs out. A "
				.. "judgement, not a measurement. %s", fmt(w.file_size_p50_bytes), TRADEOFFS),
			evidence = fstune.present({"workload.file_size_p50_bytes", "workload.files_total", "device.size_bytes"})}
	end
	return out
end

local TB18 = 18000207937536

return fstune.rule {
	id = "fschoice",
	title = "ext4 or XFS for a filesystem not yet made",
	description = [[
For a device with no filesystem on a Linux target:

- under 300 MB: ext4 (suggest: current mkfs.xfs refuses tiny filesystems);
- more than 2^32 expected files (said by the admin or a sample): XFS (suggest: ext4's inode limit);
- large files streamed sequentially (median or mean of 64 MiB or more), O_DIRECT I/O, or 64 TiB and
  more: XFS, as info with confidence 0.4;
- a tree of small files (median 16 KiB or less): ext4, as info with confidence 0.4.
A workload known only from a preset or default chooses nothing. Every rationale states the
trade-offs (shrinking, inode count, reserve, allocation groups, reflink, minimum size); the
thresholds are heuristics, and fstune trial measures the candidates on the real workload.]],
	sources = {
		"mkfs.xfs(8): inode allocation up to -i maxpct, allocation groups, reflink default [XFS-mkfs]",
		"xfsprogs \"mkfs: stop allowing tiny filesystems\" (300 MB, 64 MiB log, 2 AGs) [XFS-tiny], [XFS-log]",
		"xfsprogs libfrog/topology.c calc_default_ag_geometry [XFS-topo]",
		"mke2fs(8), mke2fs.conf: -i fixed at creation, small type below 512 MiB, 5% reserve [E2-mke2fs8], [E2-conf]",
		"Documentation/filesystems/ext4/blocks.rst: 2^32 inodes, 16 TiB without 64bit [L-ext4-blocks]",
		"Documentation/filesystems/ext4/inlinedata.rst [L-ext4-inline]",
		"seed: 1999-freebsd-fs-ffs-vs-ext2-block-sizes (filesystems compared by measuring the same "
			.. "job on each; fstune trial automates that experiment)",
	},
	settings = {"mkfs.fs_type"},
	needs = {"device.size_bytes"},
	uses = {"fs.type", "device.zoned", "host.target_os", "workload.access", "workload.io_mode", "workload.files_total",
		"workload.file_size_p50_bytes", "workload.file_size_mean_bytes"},
	check = check,
	tests = {
		{name = "200 MB host-managed zoned device: not ext4 nor XFS (the zoned rule speaks)",
			facts = {device = {size_bytes = 200 * 1000 * 1000, zoned = "host-managed"}},
			expect = {}},
		{name = "200 MB device",
			facts = {device = {size_bytes = 200 * 1000 * 1000}},
			expect = {{name = "ext4_small_device", severity = "suggest", recommended = "ext4"}}},
		{name = "18 TB archive of large video files",
			facts = {device = {size_bytes = TB18}, workload = {access = "sequential", io_mode = "buffered",
				file_size_p50_bytes = 900 * MiB}},
			expect = {{name = "xfs_for_large_files", severity = "info", recommended = "xfs"}}},
		{name = "O_DIRECT database",
			facts = {device = {size_bytes = 3840755982336}, workload = {access = "random", io_mode = "direct",
				file_size_p50_bytes = 1024 * MiB}},
			expect = {"xfs_for_large_files"}},
		{name = "sampled small-file tree",
			facts = {device = {size_bytes = 960197124096}, workload = {file_size_p50_bytes = 3000,
				files_total = 30000000}, sources = {["workload.file_size_p50_bytes"] = "sample"}},
			expect = {{name = "ext4_for_small_files", severity = "info"}}},
		{name = "five billion files",
			facts = {device = {size_bytes = 100 * TiB}, workload = {files_total = 5000000000}},
			expect = {{name = "xfs_for_inode_count", severity = "suggest"}}},
		{name = "default workload: no choice",
			facts = {device = {size_bytes = TB18}, workload = {access = "mixed", file_size_p50_bytes = 4096},
				sources = {["workload.access"] = "default", ["workload.file_size_p50_bytes"] = "default"}},
			expect = {}},
		{name = "member of a mounted btrfs, signature unread: nothing",
			facts = {device = {size_bytes = TB18}, fs = {member_of = {type = "btrfs", mount_point = "/srv",
				devices = {"sdb", "sdc"}}}, workload = {access = "sequential", file_size_p50_bytes = 900 * MiB}},
			expect = {}},
		{name = "existing filesystem: nothing",
			facts = {device = {size_bytes = TB18}, fs = {type = "ext4"},
				workload = {access = "sequential", file_size_p50_bytes = 900 * MiB}},
			expect = {}},
		{name = "image file, no device", facts = {fs = {type = "ext4"}}, expect = "not_evaluated"},
	},
}
