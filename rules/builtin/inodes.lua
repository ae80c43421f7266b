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
}

local KiB, MiB, GiB, TiB = fstune.KiB, fstune.MiB, fstune.GiB, fstune.TiB

local fmt, commas = fstune.fmt_bytes, fstune.fmt_count

local is_ext = fstune.is_ext

local function floor_pow2(x)
	local p = 1
	while p * 2 <= x do p = p * 2 end
	return p
end

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

-- A recommendation of ratio (-i) or count (-N) for `need` inodes on `size` bytes.
local function inode_setting(size, need, block)
	local ratio = floor_pow2(size // need)
	if ratio >= block and ratio >= 1024 then
		return "mkfs.inode_ratio", ratio, string.format("-i %d (%s of space per inode: %s inodes)", ratio,
			fmt(ratio), commas(size // ratio))
	end
	-- mke2fs(8): bytes-per-inode "generally shouldn't be smaller than the block-size"; ask for the count.
	return "mkfs.inode_count", math.min(need, 4294967295), string.format("-N %d", math.min(need, 4294967295))
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
	local files, key, is_weak, said = expected_files(facts, size)
	if files == nil or not fstune.positive(size) then return end
	if files <= count * 0.9 then return end
	local need = math.ceil(files * HEADROOM)
	local setting, value, how = inode_setting(size, need, fstune.positive(f.block_size) or 4096)
	local ratio_now = size // count
	local too_many = need > 4294967295
	out[#out + 1] = {name = "exhaustion", setting = setting, recommended = value, fs = f.type,
		severity = is_weak and "info" or "warn", confidence = 0.7,
		title = string.format("%s expected files against %s inodes: inodes run out before space",
			commas(files), commas(count)),
		rationale = string.format("This filesystem has %s inodes (one per %s, fixed when it was made; "
			.. "resize2fs keeps the ratio), and %s. When inodes run out, creating a file fails with "
			.. "ENOSPC although df shows free space. The count cannot be raised in place: make the "
			.. "filesystem again with %s, planning %.1fx the expected files (a heuristic headroom)%s.%s",
			commas(count), fmt(ratio_now), said, how, HEADROOM,
			too_many and "; ext4 cannot have more than 2^32 inodes, so this needs XFS, whose inodes are "
				.. "allocated on demand" or "",
			is_weak and " The file count comes from a workload preset or default, not from you: state "
				.. "--files or sample the data (--sample) to make this firm." or ""),
		evidence = fstune.present({"fs.inode_count", "fs.inodes_free", "fs.size_bytes", key})}
end

local function rec_new_ext(facts, size, out)
	local ratio, usage = ext_default_ratio(size)
	local inodes = size // ratio
	local files, key, is_weak, said = expected_files(facts, size)
	if files == nil then return end
	local w = facts.workload
	local ev = fstune.present({"device.size_bytes", key, "workload.file_size_mean_bytes"})
	if files * HEADROOM > inodes then
		local need = math.ceil(files * HEADROOM)
		local setting, value, how = inode_setting(size, need, 4096)
		out[#out + 1] = {name = "ratio_for_small_files", setting = setting, recommended = value, fs = "ext4",
			severity = is_weak and "info" or "suggest", confidence = 0.6,
			title = string.format("make ext4 with %s: the default gives %s inodes for %s files",
				how:match("^%S+ %S+"), commas(inodes), commas(files)),
			rationale = string.format("mke2fs makes one inode per %s on a %s device (the '%s' type of "
				.. "mke2fs.conf): %s inodes. %s, more than that with %.1fx headroom (a heuristic). "
				.. "Bytes-per-inode cannot be changed after creation. Use %s; -T news (4 KiB per inode) "
				.. "is the stock type for such trees.%s", fmt(ratio), fmt(size), usage, commas(inodes),
				said:gsub("^%l", string.upper), HEADROOM, how,
				is_weak and " The file count is a preset's or default, not yours: confirm it first." or ""),
			evidence = ev}
	elseif files * 100 < inodes and inodes * 256 >= GiB then
		-- Far more inodes than files: inode tables are written at mkfs/first mount and scanned by fsck.
		local want = floor_pow2(size // (files * 10))
		if want > 4194304 then want = 4194304 end -- -T largefile4, the largest stock type
		if want > ratio * 2 then
			local tables = inodes * 256
			local label = want == 1048576 and " (-T largefile)" or want == 4194304 and " (-T largefile4)" or ""
			out[#out + 1] = {name = "largefile_ratio", setting = "mkfs.inode_ratio", recommended = want,
				fs = "ext4", severity = is_weak and "info" or "suggest", confidence = 0.5,
				title = string.format("make ext4 with -i %d%s: %s inodes for %s files", want, label, commas(inodes),
					commas(files)),
				rationale = string.format("The default ratio (one inode per %s) gives %s inodes, and at 256 "
					.. "bytes each their tables take %s of the disk, while %s. One inode per %s still leaves "
					.. "%s inodes, at least ten times the files (a heuristic margin); mke2fs, e2fsck and the first "
					.. "mount have %s less to initialise and check.%s", fmt(ratio), commas(inodes), fmt(tables),
					said, fmt(want), commas(size // want), fmt(tables - (size // want) * 256),
					is_weak and " The file count is a preset's or default: confirm it first." or ""),
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
	if files == nil or files * HEADROOM <= inodes then return end
	local need = math.ceil(files * HEADROOM)
	local want = floor_pow2(size // need)
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

local function check_inner(facts)
	local out = {}
	local host = facts.host or {}
	local f = facts.fs
	local d = facts.device
	local new_size = d and fstune.positive(d.size_bytes) or nil
	if host.target_os == "freebsd" then
		if fstune.is_blank() and new_size then rec_freebsd(facts, new_size, out) end
		return out
	end
	if f and is_ext(f.type) then
		rec_existing_ext(facts, out)
	elseif fstune.is_blank() and new_size and new_size >= 512 * MiB then
		rec_new_ext(facts, new_size, out)
	end
	return out
end

local TB4 = 4000787030016
local GB480 = 480103981056

-- Each recommendation cites the sources it rests on (indices into SOURCES), not the whole list.
local REC_SOURCES = {
	exhaustion = {1, 2},
	inode_size_128 = {1, 2},
	ratio_for_small_files = {1, 2, 7},
	largefile_ratio = {1, 2},
	inline_data = {3, 4},
	freebsd_bytes_per_inode = {5, 6},
}

local function check(facts) return fstune.attach_sources(check_inner(facts), SOURCES, REC_SOURCES) end

return {
	id = "inodes",
	title = "Inode budget: expected files against the inodes a ratio gives; inode size; inline_data",
	description = [[
ext2/3/4 and UFS fix the number of inodes when the filesystem is made (mke2fs -i bytes-per-inode or
-N count, -T usage type; newfs -i). This rule compares the files the workload expects
(workload.files_total, or the device filled with files of workload.file_size_mean_bytes) with the
inodes the ratio gives, planning 1.5x headroom (a heuristic):

- an existing ext filesystem with fewer inodes than 0.9 x the expected files: warn (info when the
  count is only a preset's or default), with the -i/-N to use when it is made again;
- a filesystem not yet made: -i (or -N below the block size) for small-file trees; for a few large
  files on a big disk, a larger ratio (-T largefile/largefile4) when the default would make 100x
  more inodes than files and their tables take 1 GiB or more;
- 128-byte inodes (no timestamps past 2038-01-19): -I 256 next time;
- inline_data when 30% or more of a sampled tree is 60 bytes or less (info, with caveats);
- FreeBSD targets: newfs -i against the default of one inode per 2 x fragment size.
XFS allocates inodes on demand (up to -i maxpct) and is not judged here.]],
	sources = SOURCES,
	settings = {"mkfs.inode_ratio", "mkfs.inode_count", "mkfs.inode_size", "mkfs.features",
		"freebsd.newfs.bytes_per_inode"},
	needs = {},
	uses = {"fs.type", "fs.inode_count", "fs.inodes_free", "fs.size_bytes", "fs.block_size",
		"fs.inode_size", "device.size_bytes", "workload.files_total", "workload.file_size_mean_bytes",
		"workload.inline_candidates", "workload.share_under_1k", "host.target_os",
		"freebsd.newfs_fragment_size"},
	check = check,
	tests = {
		{name = "mail spool: 40 M planned files on 29 M inodes",
			facts = {fs = {type = "ext4", block_size = 4096, inode_size = 256, inode_count = 29302784,
				inodes_free = 3100000, size_bytes = GB480}, workload = {files_total = 40000000}},
			expect = {{name = "exhaustion", severity = "warn", setting = "mkfs.inode_ratio",
				recommended = 4096}}},
		{name = "the same from a preset: info only",
			facts = {fs = {type = "ext4", block_size = 4096, inode_size = 256, inode_count = 29302784,
				size_bytes = GB480}, workload = {files_total = 40000000},
				sources = {["workload.files_total"] = "preset"}},
			expect = {{name = "exhaustion", severity = "info"}}},
		{name = "enough inodes: nothing",
			facts = {fs = {type = "ext4", block_size = 4096, inode_size = 256, inode_count = 61022208,
				inodes_free = 60512000, size_bytes = 983349067776}, workload = {files_total = 1000000}},
			expect = {}},
		{name = "128-byte inodes",
			facts = {fs = {type = "ext3", block_size = 4096, inode_size = 128, inode_count = 1000000,
				size_bytes = 16 * GiB}},
			expect = {{name = "inode_size_128", severity = "suggest", recommended = 256}}},
		{name = "new 480 GB disk for 40 M small files: -i",
			facts = {device = {size_bytes = GB480}, workload = {files_total = 40000000,
				file_size_mean_bytes = 6000}},
			expect = {{name = "ratio_for_small_files", severity = "suggest", setting = "mkfs.inode_ratio",
				recommended = 4096}}},
		{name = "member of a mounted bcachefs: no mkfs",
			facts = {device = {size_bytes = GB480}, fs = {member_of = {type = "bcachefs", mount_point = "/mnt",
				devices = {"sdc1", "sdc2"}}}, workload = {files_total = 40000000, file_size_mean_bytes = 6000}},
			expect = {}},
		{name = "new disk, files from the mean size only",
			facts = {device = {size_bytes = TB4}, workload = {file_size_mean_bytes = 2048}},
			expect = {{name = "ratio_for_small_files", setting = "mkfs.inode_count"}}},
		{name = "new 18 TB disk for 20,000 video files: larger ratio",
			facts = {device = {size_bytes = 18000207937536}, workload = {files_total = 20000,
				file_size_mean_bytes = 900 * MiB}},
			expect = {{name = "largefile_ratio", severity = "suggest", recommended = 4194304}}},
		{name = "new 1 TB disk, general default preset: nothing",
			facts = {device = {size_bytes = 1000204886016}, workload = {files_total = 1000000,
				file_size_mean_bytes = 16384},
				sources = {["workload.files_total"] = "default", ["workload.file_size_mean_bytes"] = "default"}},
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
