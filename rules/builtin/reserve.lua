-- Reserved blocks and fullness: the 5% ext reserve on a large data filesystem (mke2fs -m at
-- creation, tune2fs -m or -r later), and a filesystem nearly out of space or inodes, the commonest
-- reason an old server "feels slow".

local SOURCES = {
	"mke2fs(8): -m reserved-blocks-percentage, default 5%; -r fs-revision-level [E2-mke2fs8]",
	"tune2fs(8): -m reserved-blocks-percentage, -r reserved-blocks-count [E2-tune2fs8]",
	"statfs(2) f_bavail as fs.free_bytes (DESIGN.md facts)",
	"newfs(8): -m free-space 8% on UFS [FB-newfs8]",
	"xfs_growfs(8): -m maxpct, the maximum percentage of space in the filesystem that can be allocated "
		.. "as inodes, changed on the mounted filesystem; mkfs.xfs(8) -i maxpct= (25% below 1 TB, 5% below "
		.. "50 TB, 1% above)",
	"Linux fs/xfs/xfs_super.c xfs_fs_statfs(): f_files is the inodes allocated plus those free space "
		.. "could hold, capped at the imaxpct limit (m_maxicount)",
}

local GiB, TiB = fstune.GiB, fstune.TiB

local fmt, commas = fstune.fmt_bytes, fstune.fmt_count

local is_ext = fstune.is_ext

-- Mount points where root's reserve is what it was made for: system daemons and logs keep writing
-- after users filled the disk.
local SYSTEM = {["/"] = true, ["/var"] = true, ["/var/log"] = true, ["/tmp"] = true, ["/boot"] = true,
	["/usr"] = true}

-- LARGE: from 1 TiB up, 5% is tens of GiB or more (a heuristic threshold).
local LARGE = TiB

-- What the reserve does, said once for both recommendations.
local PROTECTS = "The reserve is not wasted space: mke2fs(8) says it 'avoids fragmentation, and allows "
	.. "root-owned daemons, such as syslogd(8), to continue to function correctly after non-privileged "
	.. "processes are prevented from writing'; the allocator needs free space to keep files contiguous. "
	.. "On a large data filesystem 1%% still leaves %s for that."

local function reserved_bytes(f)
	if fstune.is_integer(f.reserved_bytes) and f.reserved_bytes >= 0 then return f.reserved_bytes end
	if fstune.is_integer(f.reserved_blocks) and f.reserved_blocks >= 0
		and fstune.is_integer(f.block_size) and f.block_size > 0 then
		return f.reserved_blocks * f.block_size
	end
	return nil
end

local function rec_existing_reserve(f, out)
	local size, res = f.size_bytes, reserved_bytes(f)
	if not fstune.is_integer(size) or size < LARGE or res == nil then return end
	local share = res / size
	if share < 0.04 then return end
	local mp = f.mount_point
	if mp and SYSTEM[mp] then return end
	out[#out + 1] = {name = "large_fs_reserve", setting = "fs.reserved_percent", recommended = 1,
		current = math.floor(share * 1000 + 0.5) / 10,
		severity = mp and "suggest" or "info", confidence = 0.6,
		title = string.format("%s reserved for root on a %s data filesystem: lower the reserve to 1%%",
			fmt(res), fmt(size)),
		rationale = string.format("%.1f%% of this filesystem (%s) is reserved for root, mke2fs's default "
			.. "of 5%% made for system disks. %s (%s; 1 TiB and up counts as large, a heuristic). "
			.. "tune2fs -m 1 changes it on the mounted filesystem (tune2fs -r sets a block count instead; "
			.. "note that mke2fs -r is the revision level, not the reserve). " .. PROTECTS,
			share * 100, fmt(res),
			mp and ("It is mounted on " .. mp .. ", a data filesystem") or "The mount point is unknown: this "
				.. "applies if it holds data rather than the system", fmt(size), fmt(size // 100)),
		evidence = fstune.present({"fs.size_bytes", "fs.reserved_bytes", "fs.reserved_blocks", "fs.mount_point",
			"fs.type"})}
end

local function rec_new_reserve(d, out)
	local size = d.size_bytes
	if not fstune.is_integer(size) or size < LARGE then return end
	out[#out + 1] = {name = "mkfs_reserve", setting = "mkfs.reserved_percent", recommended = 1, fs = "ext4",
		severity = "info", confidence = 0.5,
		title = string.format("a %s ext4 data filesystem needs less than the default 5%% reserve: -m 1",
			fmt(size)),
		rationale = string.format("mke2fs reserves 5%% for root by default: %s on this device. If this is "
			.. "a data filesystem (not /, /var), make it with -m 1. " .. PROTECTS .. " For / or /var keep "
			.. "the default. (XFS has no such reserve.)", fmt(size // 20), fmt(size // 100)),
		evidence = fstune.present({"device.size_bytes"})}
end

-- fstune's own scratch directories of killed benchmark runs (fs.fstune_leftover_bytes) are counted
-- out of the fullness and named: a report must not blame the admin's data for space fstune took.
local function rec_leftovers(f, out, share, share_without, usable)
	local left = f.fstune_leftover_bytes
	local causes_full = share >= fstune.FULL_SHARE and share_without < fstune.FULL_SHARE
	out[#out + 1] = {name = "fstune_leftovers", severity = causes_full and "suggest" or "info", confidence = 0.8,
		title = string.format("%s is held by fstune's own scratch directories of killed benchmark runs", fmt(left)),
		rationale = string.format("A benchmark run that was killed (SIGKILL, a crash, a power cut) cannot remove "
			.. "its .fstune-bench.PID directory; %s of this filesystem's %s usable is held by such leftovers, "
			.. "whose process is gone. With them the filesystem is %.0f%% full, without them %.0f%%%s. "
			.. "Nothing else uses them: fstune bench --clean %s removes them.",
			fmt(left), fmt(usable), share * 100, share_without * 100,
			causes_full and string.format(" (the %.0f%% threshold of the fullness warning lies between)",
				fstune.FULL_SHARE * 100) or "",
			f.mount_point or "MOUNTPOINT"),
		evidence = fstune.present({"fs.fstune_leftover_bytes", "fs.free_bytes", "fs.size_bytes", "fs.mount_point"})}
end

-- XFS makes inodes as needed, up to imaxpct of the space (xfs_growfs(8) -m; mkfs.xfs -i maxpct=:
-- 25% below 1 TiB, 5% below 50 TiB, 1% above). statfs counts what is left: the inodes that free
-- space could still hold, or that cap, whichever is lower (xfs_fs_statfs). At the cap, more are one
-- online command away. The cap in inodes, as the kernel rounds it: whole inode chunks of 64.
local function xfs_inode_cap(f, pct)
	return (f.size_bytes * pct // 100 // f.inode_size) // 64 * 64
end

-- The imaxpct that leaves twice the inodes in use (a heuristic margin), and at least double the
-- current one: a raise worth a command. At most 100.
local function xfs_imaxpct_for(f, used, pct)
	local need = (2 * used * f.inode_size * 100 + f.size_bytes - 1) // f.size_bytes
	return math.min(100, math.max(2 * pct, need))
end

-- Recommends raising imaxpct when the inode count is its cap (within one chunk per allocation group
-- of the kernel's rounding); true when it did.
local function rec_xfs_imaxpct(f, used, ishare, out)
	local pct = f.inode_max_pct
	if f.type ~= "xfs" or not fstune.is_integer(pct) or pct <= 0 or pct >= 100
		or not fstune.positive(f.size_bytes) or not fstune.positive(f.inode_size) then
		return false
	end
	local cap = xfs_inode_cap(f, pct)
	if f.inode_count < cap - 64 * (fstune.positive(f.ag_count) or 4) or f.inode_count > cap + 64 then
		return false
	end
	local want = xfs_imaxpct_for(f, used, pct)
	local inode32 = fstune.contains(f.super_options, "inode32") and f.size_bytes > fstune.TiB
	out[#out + 1] = {name = "xfs_imaxpct", setting = "fs.xfs.imaxpct", recommended = want, current = pct,
		severity = "warn", confidence = 0.8,
		title = string.format("%.0f%% of the inodes are in use: XFS caps them at imaxpct %d%%; raise it to %d%% "
			.. "online", ishare * 100, pct, want),
		rationale = string.format("%s of %s inodes are used (a 90%% threshold, a heuristic). XFS makes inodes "
			.. "as files need them, up to imaxpct, the share of the space inode blocks may take: %d%% of %s is "
			.. "%s inodes of %d bytes, the count statfs reports here, so the cap and not the space is what "
			.. "runs out. When it does, creating a file fails with ENOSPC although df shows free space. "
			.. "xfs_growfs -m raises the cap on the mounted filesystem, at once and kept on disk; %d%% "
			.. "leaves room for twice the inodes in use (a heuristic margin). It reserves nothing: inodes "
			.. "still take space only as files are made.%s",
			commas(used), commas(f.inode_count), pct, fmt(f.size_bytes), commas(cap), f.inode_size, want,
			inode32 and " This filesystem is mounted inode32, which keeps inodes in the first TiB: the cap may "
				.. "not be the only limit there (mount it inode64, the default since Linux 3.7)." or ""),
		evidence = fstune.present({"fs.inode_count", "fs.inodes_free", "fs.inode_max_pct", "fs.size_bytes",
			"fs.inode_size", "fs.super_options"})}
	return true
end

local function rec_full(f, out)
	local size, free = f.size_bytes, f.free_bytes
	if fstune.is_integer(size) and size > 0 and fstune.is_integer(free) and free >= 0 then
		local res = reserved_bytes(f) or 0
		local usable = size - res
		local used = usable - free
		local left = fstune.is_integer(f.fstune_leftover_bytes) and f.fstune_leftover_bytes > 0
			and f.fstune_leftover_bytes <= used and f.fstune_leftover_bytes or 0
		if usable > 0 and used >= 0 then
			local share = used / usable
			local share_without = (used - left) / usable
			if left > 0 then rec_leftovers(f, out, share, share_without, usable) end
			if share_without >= fstune.FULL_SHARE then
				out[#out + 1] = {name = "nearly_full", severity = "warn", confidence = 0.8,
					title = string.format("the filesystem is %.0f%% full (%s free)", share_without * 100,
						fmt(free + left)),
					rationale = string.format("%s of %s usable is in use, %.0f%% (a %.0f%% threshold, a "
						.. "heuristic)%s. Allocators need free space to place files contiguously; near full, "
						.. "new files and appends are split into many small extents, reads of them seek, and "
						.. "metadata work grows, the commonest reason an old server 'feels slow'. Nothing to "
						.. "run: remove or move data (du -xh --max-depth=2 %s | sort -h), or grow the volume. "
						.. "Defragmenting a full filesystem does not help until space is freed.",
						fmt(used - left), fmt(usable), share_without * 100, fstune.FULL_SHARE * 100,
						left > 0 and string.format(", not counting %s of fstune's own leftovers", fmt(left)) or "",
						f.mount_point or "MOUNTPOINT"),
					evidence = fstune.present({"fs.size_bytes", "fs.free_bytes", "fs.reserved_bytes",
						"fs.mount_point", "fs.fstune_leftover_bytes"})}
			end
		end
	end
	local count, ifree = f.inode_count, f.inodes_free
	if f.type ~= "btrfs" and fstune.is_integer(count) and count > 0 and fstune.is_integer(ifree) and ifree >= 0
		and ifree <= count then
		local ishare = (count - ifree) / count
		if ishare >= 0.90 and not rec_xfs_imaxpct(f, count - ifree, ishare, out) then
			out[#out + 1] = {name = "inodes_nearly_full", severity = "warn", confidence = 0.8,
				title = string.format("%.0f%% of the inodes are in use (%s left)", ishare * 100, commas(ifree)),
				rationale = string.format("%s of %s inodes are used (a 90%% threshold, a heuristic). When they "
					.. "run out, creating a file fails with ENOSPC although df shows free space%s. Nothing "
					.. "to run: find the directories holding the most files (find %s -xdev -printf '%%h\\n' "
					.. "| sort | uniq -c | sort -rn | head), remove stale ones (caches, sessions, spool "
					.. "leftovers)%s.",
					commas(count - ifree), commas(count),
					is_ext(f.type) and "; on ext2/3/4 the inode count is fixed when the filesystem is made "
						.. "(mke2fs(8))" or f.type == "xfs" and "; XFS makes inodes from free space, so here "
						.. "space is what runs out" or "",
					f.mount_point or "MOUNTPOINT",
					is_ext(f.type) and ", and see the inodes rules for the ratio to use next time" or ""),
				evidence = fstune.present({"fs.inode_count", "fs.inodes_free", "fs.type", "fs.mount_point"})}
		end
	end
end

local function check(facts)
	local out = {}
	local f = facts.fs
	if f and f.type then
		if is_ext(f.type) then rec_existing_reserve(f, out) end
		rec_full(f, out)
	elseif facts.device and not fstune.is_freebsd() and fstune.is_blank() and not fstune.zoned() then
		rec_new_reserve(facts.device, out) -- an ext4 reserve is no advice for a disk ext4 does not fit
	end
	return out
end

local TB8 = 7999999000576

return fstune.rule {
	id = "reserve",
	title = "Reserved blocks on large data filesystems; nearly full filesystems and inode tables",
	description = [[
- An existing ext2/3/4 filesystem of 1 TiB or more (a heuristic) with the default 5% reserve,
  mounted somewhere other than /, /var, /var/log, /tmp, /boot or /usr: lower it to 1% with
  tune2fs -m 1 (online; tune2fs -r sets a block count; mke2fs -r is the revision level, not the
  reserve). Info when the mount point is unknown.
- A device of 1 TiB or more without a filesystem: mke2fs -m 1 if it will hold data (info); not
  on a zoned (host-managed or host-aware) disk, which ext4 does not fit.
- Space used above 90% of what is usable (fstune.FULL_SHARE, the line the benchmarks never cross),
  or inodes above 90% (heuristic thresholds): warn, with advice only (nothing to run): a nearly
  full filesystem fragments new files, the commonest reason an old server feels slow; inodes
  running out make creation fail with free space left. On XFS at its imaxpct cap (the inode count
  statfs reports equals imaxpct of the space, in inode chunks) the fix is online instead: raise
  fs.xfs.imaxpct (xfs_growfs -m) to leave twice the inodes in use, at least double the cap. fstune's own leftovers of killed benchmark
  runs (fs.fstune_leftover_bytes) are counted out and named, with the command that removes them.
The rationale says what the reserve protects: root's daemons on a full disk, and free space that
keeps the allocator from fragmenting.]],
	sources = SOURCES,
	-- Each recommendation cites the sources it rests on (indices into SOURCES), not the whole list.
	rec_sources = {
		large_fs_reserve = {2, 1},
		mkfs_reserve = {1},
		nearly_full = {3},
		inodes_nearly_full = {3},
		xfs_imaxpct = {5, 6, 3},
		fstune_leftovers = {3},
	},
	settings = {"fs.reserved_percent", "mkfs.reserved_percent", "fs.xfs.imaxpct"},
	needs = {},
	uses = {"fs.type", "fs.size_bytes", "fs.free_bytes", "fs.reserved_bytes", "fs.reserved_blocks",
		"fs.block_size", "fs.mount_point", "fs.inode_count", "fs.inodes_free", "device.size_bytes",
		"host.target_os", "fs.fstune_leftover_bytes", "fs.inode_max_pct", "fs.inode_size", "fs.ag_count",
		"fs.super_options", "device.zoned"},
	check = check,
	tests = {
		{name = "8 TB data filesystem with 5%",
			facts = {fs = {type = "ext4", size_bytes = TB8, reserved_bytes = TB8 // 20, free_bytes = TB8 // 2,
				mount_point = "/srv/data", block_size = 4096}},
			expect = {{name = "large_fs_reserve", severity = "suggest", recommended = 1}}},
		{name = "reserve from blocks, mount point unknown: info",
			facts = {fs = {type = "ext4", size_bytes = TB8, reserved_blocks = (TB8 // 20) // 4096,
				block_size = 4096}},
			expect = {{name = "large_fs_reserve", severity = "info"}}},
		{name = "8 TB root filesystem keeps its reserve",
			facts = {fs = {type = "ext4", size_bytes = TB8, reserved_bytes = TB8 // 20, free_bytes = TB8 // 2,
				mount_point = "/"}},
			expect = {}},
		{name = "already 1%: nothing",
			facts = {fs = {type = "ext4", size_bytes = TB8, reserved_bytes = TB8 // 100, free_bytes = TB8 // 2,
				mount_point = "/srv"}},
			expect = {}},
		{name = "small filesystem: nothing",
			facts = {fs = {type = "ext4", size_bytes = 983349067776, reserved_bytes = 983349067776 // 20,
				free_bytes = 708011328798, inode_count = 61022208, inodes_free = 60512000, mount_point = "/"}},
			expect = {}},
		{name = "XFS has no reserve",
			facts = {fs = {type = "xfs", size_bytes = TB8, free_bytes = TB8 // 2, mount_point = "/srv"}},
			expect = {}},
		{name = "new 18 TB device",
			facts = {device = {size_bytes = 18000207937536}},
			expect = {{name = "mkfs_reserve", setting = "mkfs.reserved_percent", recommended = 1}}},
		{name = "blank 18 TB host-managed SMR disk: no mkfs.ext4 -m (the zoned rule says what fits)",
			facts = {device = {size_bytes = 18000207937536, zoned = "host-managed"}},
			expect = {}},
		{name = "18 TB md member under a mounted filesystem: no mkfs",
			facts = {device = {size_bytes = 18000207937536},
				fs = {member_of = {type = "ext4", mount_point = "/srv", devices = {"sdb", "sdc"}}}},
			expect = {}},
		{name = "95% full",
			facts = {fs = {type = "xfs", size_bytes = 1000 * GiB, free_bytes = 50 * GiB, mount_point = "/srv"}},
			expect = {{name = "nearly_full", severity = "warn"}}},
		{name = "89% full with the reserve counted out: nothing",
			facts = {fs = {type = "ext4", size_bytes = 1000 * GiB, reserved_bytes = 50 * GiB,
				free_bytes = 105 * GiB, mount_point = "/"}},
			expect = {}},
		{name = "93% full, 5% of it fstune's own leftovers: no warning, the leftovers named",
			facts = {fs = {type = "xfs", size_bytes = 1000 * GiB, free_bytes = 70 * GiB, fstune_leftover_bytes = 50 * GiB,
				mount_point = "/srv"}},
			expect = {{name = "fstune_leftovers", severity = "suggest"}}},
		{name = "95% full with 1 GiB of leftovers: still full, leftovers named as info",
			facts = {fs = {type = "xfs", size_bytes = 1000 * GiB, free_bytes = 50 * GiB, fstune_leftover_bytes = GiB,
				mount_point = "/srv"}},
			expect = {{name = "nearly_full", severity = "warn"}, {name = "fstune_leftovers", severity = "info"}}},
		{name = "no leftovers (0): nothing about them",
			facts = {fs = {type = "xfs", size_bytes = 1000 * GiB, free_bytes = 500 * GiB, fstune_leftover_bytes = 0,
				mount_point = "/srv"}},
			expect = {}},
		{name = "XFS at its imaxpct cap: raise it online, with its revert",
			facts = {fs = {type = "xfs", size_bytes = GiB, inode_size = 512, inode_max_pct = 1, ag_count = 4,
				inode_count = 20928, inodes_free = 1000, free_bytes = 900 * 1024 * 1024, mount_point = "/srv"}},
			expect = {{name = "xfs_imaxpct", setting = "fs.xfs.imaxpct", severity = "warn", current = 1,
				recommended = 2, disruption = "online", apply = {"xfs_growfs -m 2 /srv"},
				revert = {"xfs_growfs -m 1 /srv"}}}},
		{name = "XFS out of inodes because out of space: no imaxpct, the space is what to free",
			facts = {fs = {type = "xfs", size_bytes = GiB, inode_size = 512, inode_max_pct = 25, ag_count = 4,
				inode_count = 110000, inodes_free = 2000, free_bytes = 0, mount_point = "/srv"}},
			expect = {{name = "nearly_full", severity = "warn"}, {name = "inodes_nearly_full", severity = "warn"}}},
		{name = "inodes 96% used",
			facts = {fs = {type = "ext4", size_bytes = 480103981056, free_bytes = 200 * GiB,
				reserved_bytes = 24005197824, inode_count = 29302784, inodes_free = 1100000, mount_point = "/var/spool"}},
			expect = {{name = "inodes_nearly_full", severity = "warn"}}},
	},
}
