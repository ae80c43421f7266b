-- Inode budget: the files the workload expects against the inodes a bytes-per-inode ratio gives
-- (ext2/3/4 and FreeBSD UFS, where the count is fixed at creation), the inode size, and inline_data
-- for tiny files.

local SOURCES = {
	"mke2fs(8): -i, -N, -T, -I; bytes-per-inode cannot be changed after creation; 128-byte inodes "
		.. "cannot store dates past 2038 [E2-mke2fs8]",
	"e2fsprogs misc/mke2fs.conf.in: inode_ratio 16384 default, 4096 small/news, 32768 big, "
		.. "65536 huge, 1048576 largefile, 4194304 largefile4; inode_size 256 [E2-conf]",
	"Documentation/filesystems/ext4/inlinedata.rst: files under 60 bytes in i_block, ~160 bytes "
		.. "with 256-byte inodes [L-ext4-inline]",
	"ext4(5): inline_data [E2-ext4.5]",
	"newfs(8): -i default one inode per 2 x frag size, 'effectively specifies the average file "
		.. "size' [FB-newfs8]",
	"FreeBSD 9 newfs defaults halved inode counts; a ports tree at 94% of inodes [FB-9]",
	"seed: 2003-ext3-htree-million-files (one million small files)",
	"e2fsprogs misc/mke2fs.c: -i from 1024 to 64 MiB, at most 2^32 - 1 inodes, and 'inode_size * "
		.. "inodes_count too big' when the inode tables would fill the filesystem",
}

local MiB, GiB, TiB = fstune.MiB, fstune.GiB, fstune.TiB

local fmt, commas = fstune.fmt_bytes, fstune.fmt_count

local is_ext = fstune.is_ext
local pow2_floor = fstune.pow2_floor

-- mke2fs's ratio for a filesystem of `size` bytes when nothing is said (mke2fs.conf: small < 512 MiB
-- 4096, default 16384, big >= 4 TiB 32768, huge >= 16 TiB 65536) [E2-conf], [E2-mke2fs8].
local function ext_default_ratio(size)
	if size < 512 * MiB then return 4096, "small" end
	if size >= 16 * TiB then return 65536, "huge" end
	if size >= 4 * TiB then return 32768, "big" end
	return 16384, "default"
end

-- HEADROOM: inodes planned for 1.5x the expected files (a heuristic: growth, directories, and the
-- fact that running out of inodes is ENOSPC with free space left).
local HEADROOM = 1.5

-- mke2fs accepts -i from 1024 and refuses inode tables as large as the disk; one inode per KiB (with
-- 256-byte inodes a quarter of the disk in inode tables) is the most this rule ever asks for.
local MIN_RATIO = 1024
local MAX_INODES = 4294967295

-- The files the workload expects and how sure we are; nil when nothing says.
local function expected_files(facts, size)
	local w = facts.workload
	if w == nil then return nil end
	if fstune.is_integer(w.files_total) and w.files_total > 0 then
		return w.files_total, "workload.files_total", fstune.is_assumed("workload.files_total"),
			string.format("the workload expects %s files", commas(w.files_total))
	end
	local mean = w.file_size_mean_bytes -- a number: a sample's mean need not be whole
	if size and type(mean) == "number" and mean >= 1 then
		local files = math.tointeger(math.floor(size / mean))
		return files, "workload.file_size_mean_bytes", fstune.is_assumed("workload.file_size_mean_bytes"),
			string.format("filled with files of the mean size %s, %s would hold %s files", fmt(mean),
				fmt(size), commas(files))
	end
	return nil
end

-- What the workload asks of `size` bytes in `bs`-byte blocks: the files, their mean size, and how
-- many files of that mean size fit when each takes whole blocks (ext has no fragments: a 5 KiB
-- file takes two 4 KiB blocks). nil when nothing says, or when only fstune's default workload
-- speaks: a default is no basis for a reformat.
local function workload_plan(facts, size, bs)
	local files, key, is_weak, said = expected_files(facts, size)
	if files == nil then return nil end
	if fstune.source(key) == "default" then return nil end
	local p = {files = files, key = key, is_weak = is_weak, said = said, bs = bs,
		derived = key ~= "workload.files_total"}
	local mean = facts.workload.file_size_mean_bytes
	if type(mean) == "number" and mean >= 1 then
		p.mean = mean
		p.alloc = math.tointeger(math.ceil(mean / bs) * bs)
		p.cap = size // p.alloc
		p.mean_key = "workload.file_size_mean_bytes"
	end
	-- The files that can be stored at all: no more than fit.
	p.stored = p.cap and math.min(files, p.cap) or files
	return p
end

-- The -N or -i to make for plan `p` on `size` bytes of `bs`-byte blocks and `isz`-byte inodes:
-- setting, value, the words for the title, and a sentence with the headroom and its cost.
local function inode_setting(p, size, bs, isz)
	local want = math.ceil(p.files * HEADROOM)
	local limit_said
	if p.cap and want > p.cap then
		want = p.cap
		limit_said = string.format("as many as files of the mean size %s fit (%s each in %d-byte blocks: "
			.. "%s); more inodes than that can never be used by this workload", fmt(p.mean), fmt(p.alloc),
			bs, commas(p.cap))
	end
	local most = math.min(size // MIN_RATIO, MAX_INODES)
	if want > most then
		want = most
		limit_said = string.format("the most mke2fs should be given, one inode per KiB (%s); more would "
			.. "fill the disk with inode tables", commas(most))
	end
	local setting, value, how, inodes
	local ratio = pow2_floor(size // want)
	if ratio >= bs and ratio >= MIN_RATIO and (limit_said == nil or size // ratio <= want) then
		setting, value, inodes = "mkfs.inode_ratio", ratio, size // ratio
		how = string.format("-i %d", ratio)
	else
		setting, value, inodes = "mkfs.inode_count", want, want
		how = string.format("-N %d", want)
	end
	local tables = inodes * isz
	local headroom
	if limit_said then
		headroom = string.format("%s inodes: %s", commas(inodes), limit_said)
	else
		headroom = string.format("%s inodes, %.1fx the expected files (the %.1fx headroom is a heuristic)",
			commas(inodes), inodes / p.files, HEADROOM)
	end
	return setting, value, how, string.format("%s gives %s. Their tables take %s (%.0f%% of the disk) at "
		.. "%d bytes per inode.", how, headroom, fmt(tables), 100 * tables / size, isz), inodes
end

-- Files that cannot fit whatever the inode count: said first, since no inode setting helps.
local function rec_cannot_fit(p, size, size_key, out)
	if p.derived or p.mean == nil or p.files * p.mean <= size then return end
	p.first = string.format("First: %s files of %s do not fit in %s whatever the inode count (see "
		.. "capacity_exceeded); what follows is sized for the %s such files that fit. ", commas(p.files),
		fmt(p.mean), fmt(size), commas(p.cap))
	out[#out + 1] = {name = "capacity_exceeded", severity = p.is_weak and "info" or "warn", confidence = 0.7,
		title = string.format("%s files of %s do not fit in %s, whatever the inode count",
			commas(p.files), fmt(p.mean), fmt(size)),
		rationale = string.format("%s files of the mean size %s need %s of data; the filesystem has %s. No "
			.. "inode setting helps: plan a larger device or fewer files. In whole %s blocks about %s such "
			.. "files fit; any inode advice here is sized for those.%s", commas(p.files), fmt(p.mean),
			fmt(math.tointeger(math.floor(p.files * p.mean)) or p.files * p.mean), fmt(size),
			fmt(p.bs), commas(p.cap),
			p.is_weak and " The file count and size are a preset's, not yours: state --files and "
				.. "--file-size, or sample the data (--sample)." or ""),
		evidence = fstune.present({p.key, p.mean_key, size_key})}
end

-- How bad running short is: out before the planned files are stored is warn; only the headroom
-- short is suggest; a preset's numbers (not the admin's) say info.
local function shortage(p, inodes)
	if p.is_weak then return "info" end
	return p.stored > inodes and "warn" or "suggest"
end

local function rec_existing_ext(facts, out)
	local f = facts.fs
	local count, size = f.inode_count, f.size_bytes
	if not fstune.is_integer(count) or count <= 0 then return end
	if f.inode_size == 128 then
		out[#out + 1] = {name = "inode_size_128", setting = "mkfs.inode_size", recommended = 256,
			current = 128, fs = f.type, severity = "suggest", confidence = 0.8,
			title = "128-byte inodes cannot hold timestamps past 2038-01-19",
			rationale = "This filesystem was made with 128-byte inodes (old mke2fs.conf small/floppy "
				.. "types and very old defaults). They have no room for the extra timestamp bits, so "
				.. "times after 2038-01-19 cannot be stored, nor for nanosecond timestamps or in-inode "
				.. "extended attributes. The inode size is fixed at creation: the next time this "
				.. "filesystem is made, use -I 256 (today's default).",
			evidence = fstune.present({"fs.inode_size", "fs.type"})}
	end
	if not fstune.positive(size) then return end
	local bs = fstune.positive(f.block_size) or 4096
	local p = workload_plan(facts, size, bs)
	if p == nil then return end
	rec_cannot_fit(p, size, "fs.size_bytes", out)
	if p.stored <= count * 0.9 then return end
	local isz = fstune.positive(f.inode_size) or 256
	local setting, value, _, cost, inodes = inode_setting(p, size, bs, isz)
	if inodes <= count then return end
	local ratio_now = size // count
	local too_many = p.files * HEADROOM > MAX_INODES
	out[#out + 1] = {name = "exhaustion", setting = setting, recommended = value, fs = f.type,
		severity = shortage(p, count), confidence = 0.7,
		title = string.format("%s expected files against %s inodes: %s", commas(p.files), commas(count),
			p.stored > count and "inodes run out before the files are stored" or "little room to spare"),
		rationale = (p.first or "") .. string.format("This filesystem has %s inodes (one per %s, fixed when it was made; "
			.. "resize2fs keeps the ratio), and %s. When inodes run out, creating a file fails with "
			.. "ENOSPC although df shows free space. The count cannot be raised in place: make the "
			.. "filesystem again. %s%s%s", commas(count), fmt(ratio_now), p.said, cost,
			too_many and " ext4 cannot have more than 2^32 inodes, so this needs XFS, whose inodes are "
				.. "allocated on demand." or "",
			p.is_weak and " The file count comes from a workload preset, not from you: state --files "
				.. "or sample the data (--sample) to make this firm." or ""),
		evidence = fstune.present({"fs.inode_count", "fs.inodes_free", "fs.size_bytes", p.key, p.mean_key})}
end

local function rec_new_ext(facts, size, out)
	local ratio, usage = ext_default_ratio(size)
	local inodes = size // ratio
	local bs = 4096
	local p = workload_plan(facts, size, bs)
	if p == nil then return end
	local w = facts.workload
	local ev = fstune.present({"device.size_bytes", p.key, "workload.file_size_mean_bytes"})
	rec_cannot_fit(p, size, "device.size_bytes", out)
	local setting, value, how, cost, planned = inode_setting(p, size, bs, 256)
	if p.files * HEADROOM > inodes and planned > inodes then
		out[#out + 1] = {name = "ratio_for_small_files", setting = setting, recommended = value, fs = "ext4",
			severity = shortage(p, inodes), confidence = 0.6,
			title = string.format("make ext4 with %s: the default gives %s inodes for %s files", how,
				commas(inodes), commas(p.files)),
			rationale = (p.first or "") .. string.format("mke2fs makes one inode per %s on a %s device (the '%s' type of "
				.. "mke2fs.conf): %s inodes. %s%s. Bytes-per-inode cannot be changed after creation. %s "
				.. "-T news (4 KiB per inode) is the stock type for such trees.%s", fmt(ratio), fmt(size), usage,
				commas(inodes), p.said:gsub("^%l", string.upper),
				p.stored > inodes and ": inodes would run out before the files are stored"
					or string.format(", too close to that for %.1fx headroom (a heuristic)", HEADROOM),
				cost, p.is_weak and " The file count is a preset's, not yours: confirm it first." or ""),
			evidence = ev}
	elseif p.mean and not p.derived and p.files * 100 < inodes and inodes * 256 >= GiB then
		-- Far more inodes than files: inode tables are written at mkfs/first mount and scanned by fsck.
		-- The ratio follows the file size too: never fewer inodes than twice the files of the mean
		-- size that fit (a heuristic margin), so a small-file tree on a big disk keeps its inodes.
		local want = pow2_floor(math.min(size // (p.files * 10), p.alloc // 2))
		if want > 4194304 then want = 4194304 end -- -T largefile4, the largest stock type
		if want > ratio * 2 then
			local tables = inodes * 256
			local label = want == 1048576 and " (-T largefile)" or want == 4194304 and " (-T largefile4)" or ""
			out[#out + 1] = {name = "largefile_ratio", setting = "mkfs.inode_ratio", recommended = want,
				fs = "ext4", severity = p.is_weak and "info" or "suggest", confidence = 0.5,
				title = string.format("make ext4 with -i %d%s: %s inodes for %s files", want, label, commas(inodes),
					commas(p.files)),
				rationale = string.format("The default ratio (one inode per %s) gives %s inodes, and at 256 "
					.. "bytes each their tables take %s of the disk, while %s with a mean size of %s. One "
					.. "inode per %s still leaves %s inodes, at least ten times the files and twice the files "
					.. "of the mean size that fit (heuristic margins); mke2fs, e2fsck and the first mount have "
					.. "%s less to initialise and check.%s", fmt(ratio), commas(inodes), fmt(tables), p.said,
					fmt(p.mean), fmt(want), commas(size // want), fmt(tables - (size // want) * 256),
					p.is_weak and " The file count is a preset's: confirm it first." or ""),
				evidence = ev}
		end
	end
	if w and fstune.is_integer(w.inline_candidates) and fstune.is_integer(w.files_total) and w.files_total > 0
		and w.inline_candidates / w.files_total >= 0.3 and not fstune.is_assumed("workload.inline_candidates") then
		out[#out + 1] = {name = "inline_data", setting = "mkfs.features", recommended = {"inline_data"},
			fs = "ext4", severity = "info", confidence = 0.4,
			title = string.format("%d%% of the files are 60 bytes or less: inline_data could keep them in "
				.. "the inode", math.floor(100 * w.inline_candidates / w.files_total)),
			rationale = string.format("%s of %s files are 60 bytes or less. With -O inline_data ext4 stores "
				.. "such files (and small directories) inside the inode instead of a 4 KiB block, up to "
				.. "about 160 bytes with 256-byte inodes. Caveats: it is not in mke2fs's default feature "
				.. "set and sees less testing; it cannot be turned off later; it does not combine with DAX; "
				.. "the share is a heuristic threshold (30%%) and the saving is space and one read per "
				.. "file, not throughput. Consider it only if the sample is representative.",
				commas(w.inline_candidates), commas(w.files_total)),
			evidence = fstune.present({"workload.inline_candidates", "workload.files_total",
				"workload.share_under_1k"})}
	end
end

local function rec_freebsd(facts, size, out)
	local fb = facts.freebsd or {}
	local frag = fstune.positive(fb.newfs_fragment_size) or 4096
	local ratio = 2 * frag
	local inodes = size // ratio
	local files, key, is_weak, said = expected_files(facts, size)
	if files == nil or files * HEADROOM <= inodes or fstune.source(key) == "default" then return end
	local need = math.ceil(files * HEADROOM)
	local want = pow2_floor(size // need)
	if want < 1024 then want = 1024 end
	out[#out + 1] = {name = "freebsd_bytes_per_inode", setting = "freebsd.newfs.bytes_per_inode",
		recommended = want, severity = is_weak and "info" or "suggest", confidence = 0.6,
		title = string.format("newfs -i %d: the default gives %s inodes for %s files", want, commas(inodes),
			commas(files)),
		rationale = string.format("newfs makes one inode per 2 x fragment size (%s with %s fragments): %s "
			.. "inodes on %s. %s, more than that with %.1fx headroom (a heuristic). -i 'effectively "
			.. "specifies the average file size'; %d gives %s inodes. FreeBSD 9's move to 32K/4K halved "
			.. "inode counts and filled a ports tree's inodes to 94%%.%s", fmt(ratio), fmt(frag), commas(inodes),
			fmt(size), said:gsub("^%l", string.upper), HEADROOM, want, commas(size // want),
			is_weak and " The file count is a preset's or default: confirm it first." or ""),
		evidence = fstune.present({"device.size_bytes", key, "freebsd.newfs_fragment_size", "host.target_os"})}
end

local function check(facts)
	local out = {}
	local f = facts.fs
	local d = facts.device
	local new_size = d and fstune.positive(d.size_bytes) or nil
	if fstune.is_freebsd() then
		if fstune.is_blank() and new_size then rec_freebsd(facts, new_size, out) end
		return out
	end
	-- an ext inode plan for a disk ext does not fit is no plan: the zoned rule says what does
	if fstune.zoned() then return out end
	if f and is_ext(f.type) then
		rec_existing_ext(facts, out)
	elseif fstune.is_blank() and new_size and new_size >= 512 * MiB then
		rec_new_ext(facts, new_size, out)
	end
	return out
end

-- The sources of a workload's file count and mean size that nobody measured or stated.
local function assumed(source)
	return {["workload.files_total"] = source, ["workload.file_size_mean_bytes"] = source}
end

local TB4 = 4000787030016
local GB480 = 480103981056

-- A blank disk of `size` bytes for `files` files of `mean` bytes, with the sources of a vector
-- whose workload is assumed.
local function blank_disk(size, files, mean, sources)
	return {device = {size_bytes = size}, workload = {files_total = files, file_size_mean_bytes = mean},
		sources = sources}
end

-- The ext4 of the vectors: 4 KiB blocks and 256-byte inodes, its inode count and size, and what
-- a case changes.
local function ext4(inode_count, size, extra)
	return fstune.merge({type = "ext4", block_size = 4096, inode_size = 256, inode_count = inode_count,
		size_bytes = size}, extra)
end

return fstune.rule {
	id = "inodes",
	title = "Inode budget: expected files against the inodes a ratio gives; inode size; inline_data",
	description = [[
ext2/3/4 and UFS fix the number of inodes when the filesystem is made (mke2fs -i bytes-per-inode or
-N count, -T usage type; newfs -i). This rule compares the files the workload expects
(workload.files_total, or the device filled with files of workload.file_size_mean_bytes) with the
inodes the ratio gives, planning 1.5x headroom (a heuristic), but never more inodes than files of
the mean size fit (each taking whole blocks) nor more than one inode per KiB (mke2fs's smallest
-i; with 256-byte inodes a quarter of the disk in inode tables):

- files that cannot fit at all (files x mean size above the capacity): said first, warn, since no
  inode setting helps;
- an existing ext filesystem whose inodes run out before the files are stored: warn; with less
  than 0.9 x headroom only: suggest; with the -i/-N to use when it is made again;
- a filesystem not yet made: -i (or -N) for small-file trees, warn or suggest alike; for a few
  large files on a big disk, a larger ratio (-T largefile/largefile4) when the default would make
  100x more inodes than files and their tables take 1 GiB or more, and never fewer inodes than
  twice the files of the mean size that fit;
- 128-byte inodes (no timestamps past 2038-01-19): -I 256 next time;
- inline_data when 30% or more of a sampled tree is 60 bytes or less (info, with caveats);
- FreeBSD targets: newfs -i against the default of one inode per 2 x fragment size.
A file count from a preset makes each of these info; fstune's default workload (nobody said)
makes none: a reformat never rests on it. XFS allocates inodes on demand (up to -i maxpct) and is
not judged here. Nothing on a zoned disk (host-managed or host-aware): ext4 does not fit it, and
the zoned rule says what does.]],
	sources = SOURCES,
	-- Each recommendation cites the sources it rests on (indices into SOURCES), not the whole list.
	rec_sources = {
		exhaustion = {1, 2, 8},
		capacity_exceeded = {1, 8},
		inode_size_128 = {1, 2},
		ratio_for_small_files = {1, 2, 7, 8},
		largefile_ratio = {1, 2},
		inline_data = {3, 4},
		freebsd_bytes_per_inode = {5, 6},
	},
	settings = {"mkfs.inode_ratio", "mkfs.inode_count", "mkfs.inode_size", "mkfs.features",
		"freebsd.newfs.bytes_per_inode"},
	needs = {},
	uses = {"fs.type", "fs.inode_count", "fs.inodes_free", "fs.size_bytes", "fs.block_size",
		"fs.inode_size", "device.size_bytes", "workload.files_total", "workload.file_size_mean_bytes",
		"workload.inline_candidates", "workload.share_under_1k", "host.target_os",
		"freebsd.newfs_fragment_size", "device.zoned"},
	check = check,
	tests = {
		{name = "mail spool: 40 M planned files on 29 M inodes",
			facts = {fs = ext4(29302784, GB480, {inodes_free = 3100000}), workload = {files_total = 40000000}},
			expect = {{name = "exhaustion", severity = "warn", setting = "mkfs.inode_ratio",
				recommended = 4096}}},
		{name = "the same from a preset: info only",
			facts = {fs = ext4(29302784, GB480), workload = {files_total = 40000000},
				sources = {["workload.files_total"] = "preset"}},
			expect = {{name = "exhaustion", severity = "info"}}},
		{name = "enough inodes: nothing",
			facts = {fs = ext4(61022208, 983349067776, {inodes_free = 60512000}), workload = {files_total = 1000000}},
			expect = {}},
		{name = "128-byte inodes",
			facts = {fs = {type = "ext3", block_size = 4096, inode_size = 128, inode_count = 1000000,
				size_bytes = 16 * GiB}},
			expect = {{name = "inode_size_128", severity = "suggest", recommended = 256}}},
		{name = "new 480 GB disk for 40 M small files: -i",
			facts = blank_disk(GB480, 40000000, 6000),
			expect = {{name = "ratio_for_small_files", severity = "warn", setting = "mkfs.inode_ratio",
				recommended = 8192}}},
		{name = "blank host-managed disk for 40 M small files: no mke2fs -i (ext4 cannot be made there)",
			facts = {device = {size_bytes = GB480, zoned = "host-managed"},
				workload = {files_total = 40000000, file_size_mean_bytes = 6000}},
			expect = {}},
		{name = "ext4 on a host-aware disk running out of inodes: no reformat as ext4 (the zoned rule warns)",
			facts = {device = {zoned = "host-aware"}, fs = ext4(29302784, GB480), workload = {files_total = 40000000}},
			expect = {}},
		{name = "member of a mounted bcachefs: no mkfs",
			facts = {device = {size_bytes = GB480}, fs = {member_of = {type = "bcachefs", mount_point = "/mnt",
				devices = {"sdc1", "sdc2"}}}, workload = {files_total = 40000000, file_size_mean_bytes = 6000}},
			expect = {}},
		{name = "new disk, files from the mean size only: one inode per block, every 2 KiB file takes one",
			facts = {device = {size_bytes = TB4}, workload = {file_size_mean_bytes = 2048}},
			expect = {{name = "ratio_for_small_files", setting = "mkfs.inode_ratio", recommended = 4096}}},
		{name = "smallfiles preset on a blank 18 TB disk: no -T largefile for 5 KB files",
			facts = blank_disk(18000207937536, 1000000, 5250, assumed("preset")),
			expect = {}},
		{name = "blank 4 GiB, smallfiles preset: does not fit (info), inodes for the 524,288 that fit, not 1.5 M",
			facts = blank_disk(4 * GiB, 1000000, 5250, assumed("preset")),
			expect = {{name = "capacity_exceeded", severity = "info"},
				{name = "ratio_for_small_files", severity = "info", setting = "mkfs.inode_ratio", recommended = 8192}}},
		{name = "1 GiB ext4 facing 7.5 M stated files of 100 bytes: an -i mke2fs accepts (not -N 7500000), warn",
			facts = {fs = ext4(65536, GiB), workload = {files_total = 7500000, file_size_mean_bytes = 100}},
			expect = {{name = "exhaustion", severity = "warn", setting = "mkfs.inode_ratio", recommended = 4096}}},
		{name = "1 GiB ext4 with 1 KiB blocks facing 7.5 M stated files, no size: one inode per KiB at most",
			facts = {fs = ext4(65536, GiB, {block_size = 1024}), workload = {files_total = 7500000}},
			expect = {{name = "exhaustion", severity = "warn", setting = "mkfs.inode_ratio", recommended = 1024}}},
		{name = "1 GiB ext4 facing 7.5 M stated files of 5 KB: cannot fit, said first at warn",
			facts = {fs = ext4(65536, GiB), workload = {files_total = 7500000, file_size_mean_bytes = 5250}},
			expect = {{name = "capacity_exceeded", severity = "warn"},
				{name = "exhaustion", severity = "warn", setting = "mkfs.inode_ratio", recommended = 8192}}},
		{name = "headroom short but every stated file has an inode: suggest, not warn",
			facts = {fs = ext4(29302784, GB480), workload = {files_total = 28000000, file_size_mean_bytes = 4000}},
			expect = {{name = "exhaustion", severity = "suggest"}}},
		{name = "small ext4 with fstune's default workload: no reformat, nothing",
			facts = {fs = ext4(65536, GiB), workload = {files_total = 1000000, file_size_mean_bytes = 16384},
				sources = assumed("default")},
			expect = {}},
		{name = "new 18 TB disk for 19,000 video files: larger ratio",
			facts = blank_disk(18000207937536, 19000, 900 * MiB),
			expect = {{name = "largefile_ratio", severity = "suggest", recommended = 4194304}}},
		{name = "new 1 TB disk, general default preset: nothing",
			facts = blank_disk(1000204886016, 1000000, 16384, assumed("default")),
			expect = {}},
		{name = "sampled tree of lock files: inline_data",
			facts = {device = {size_bytes = 256 * GiB}, workload = {files_total = 2000000,
				inline_candidates = 1500000, file_size_mean_bytes = 90},
				sources = {["workload.files_total"] = "sample", ["workload.inline_candidates"] = "sample",
					["workload.file_size_mean_bytes"] = "sample"}},
			expect = {"inline_data"}},
		{name = "FreeBSD target, 12 M small files on 64 GiB with 4K frags",
			facts = {host = {target_os = "freebsd"}, device = {size_bytes = 64 * GiB},
				workload = {files_total = 12000000}},
			expect = {{name = "freebsd_bytes_per_inode", recommended = 2048}}},
		{name = "FreeBSD target with few files: nothing",
			facts = {host = {target_os = "freebsd"}, device = {size_bytes = 2 * TB4 // 2},
				workload = {files_total = 100000}},
			expect = {}},
		{name = "XFS: not judged",
			facts = {fs = {type = "xfs", size_bytes = GB480}, workload = {files_total = 400000000}},
			expect = {}},
	},
}
