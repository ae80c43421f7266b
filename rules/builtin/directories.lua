-- Directory indexing on ext2/3/4: dir_index (hashed b-tree directories) and large_dir.
local fstune = fstune

local function has_feature(facts, name)
	return fstune.contains(facts.fs.features, name)
end

local ext = { ext2 = true, ext3 = true, ext4 = true }

-- Entries one directory can hold before the 2-level htree is full, by block size, as e2fsprogs
-- 1.44's release notes give them ("approximately 10M entries ... 4KB blocksize (~100k for 1KB)").
-- No figure is given for 2 KiB blocks, so this rule says nothing there.
local htree_limit = { [1024] = 100000, [4096] = 10000000 }

-- The largest directory the workload knows of and the key that says it, or nil. A layout the admin
-- declared (--files-per-dir) counts like a sampled one; a preset's does not.
local function largest_directory(wl)
	local dir_max = wl and (wl.files_per_dir_max or wl.files_per_dir_p90)
	local dir_key = wl and (wl.files_per_dir_max and "workload.files_per_dir_max" or
		"workload.files_per_dir_p90")
	if wl and fstune.is_integer(wl.files_per_dir) and not fstune.is_assumed("workload.files_per_dir") and
			(dir_max == nil or wl.files_per_dir > dir_max) then
		dir_max, dir_key = wl.files_per_dir, "workload.files_per_dir"
	end
	return dir_max, dir_key
end

local function dir_index_off(fs, dir_max, dir_key)
	local sev, conf = "warn", 0.9
	local why = "dir_index is off, so a lookup, create or unlink in a directory scans it " ..
		"linearly once it outgrows its first block. A 2003 report on ext3 (one million files) " ..
		"measured 1000 directories beating 100 by 3.8x on create with htree; measured here in " ..
		"2026, creating 10,000 files per directory is 12x slower without dir_index, 100,000 in one " ..
		"directory 113x. tune2fs -O dir_index turns the feature on and e2fsck -fDp indexes the " ..
		"directories that already exist (-D rebuilds directories; -p, preen, runs without a " ..
		"terminal, fixes only what is safe and stops with status 4 when a question needs an " ..
		"answer: then run e2fsck -f by hand; -y would answer yes to everything). Do both with the " ..
		"filesystem unmounted (run on a mounted ext4 here, with e2fsprogs 1.47.0, the tune2fs " ..
		"change did not survive the unmount); the commands mount it back with the options it had."
	local evidence = { "fs.type", "fs.features" }
	if dir_max then
		evidence[#evidence + 1] = dir_key
		-- 10,000 per directory is where the 12x slowdown above was measured; my threshold.
		if dir_max >= 10000 then
			sev = "critical"
			why = why .. string.format(" This workload has directories of %d files (threshold " ..
				"10,000, this rule's own heuristic from the measurement above).", dir_max)
		-- A directory of under 100 short names fits one 4 KiB block, where an index changes
		-- nothing (heuristic: ~40 bytes per entry).
		elseif dir_max < 100 then
			sev, conf = "suggest", 0.6
			why = why .. string.format(" This workload's directories are small (%d files at most, " ..
				"below this rule's heuristic of 100), so the gain is small today.", dir_max)
		end
	end
	if fs.type == "ext2" then
		why = why .. " On ext2 the index is used only when the ext4 driver mounts the " ..
			"filesystem; the old ext2 driver ignores it."
		if sev ~= "critical" then sev = "suggest" end
	end
	return {
		name = "dir_index_off",
		setting = "fs.feature.dir_index",
		current = false,
		recommended = true,
		severity = sev,
		confidence = conf,
		title = "Turn on dir_index (hashed directories)",
		rationale = why,
		evidence = evidence,
	}
end

local function large_dir_needed(fs, wl, limit)
	return {
		name = "large_dir_needed",
		setting = "fs.feature.large_dir",
		current = false,
		recommended = true,
		severity = wl.files_per_dir_max >= limit and "critical" or "warn",
		confidence = 0.7,
		title = "Turn on large_dir, or spread files over more directories",
		rationale = string.format("A directory of this workload holds %d files; without large_dir " ..
			"the 2-level htree of a %d-byte-block filesystem stops near %d entries (e2fsprogs 1.44 " ..
			"release notes). Warning at half that limit is this rule's own heuristic. large_dir " ..
			"needs kernel support and e2fsprogs 1.44 or later, and is one-way (tune2fs 1.47.0: " ..
			"\"Clearing filesystem feature 'large_dir' not supported\"); sharding into " ..
			"subdirectories avoids the limit without a format change.",
			wl.files_per_dir_max, fs.block_size, limit),
		evidence = { "workload.files_per_dir_max", "fs.block_size", "fs.features" },
	}
end

local function check(facts)
	local recs = {}
	local fs = facts.fs
	if not ext[fs.type] then
		return recs
	end
	local wl = facts.workload
	if not has_feature(facts, "dir_index") then
		recs[#recs + 1] = dir_index_off(fs, largest_directory(wl))
	end
	local limit = htree_limit[fs.block_size or 0]
	if fs.type == "ext4" and limit and wl and wl.files_per_dir_max and
			not has_feature(facts, "large_dir") and has_feature(facts, "dir_index") and
			wl.files_per_dir_max >= limit // 2 then
		recs[#recs + 1] = large_dir_needed(fs, wl, limit)
	end
	return recs
end

local ext4_default = { "has_journal", "ext_attr", "resize_inode", "dir_index", "filetype",
	"extent", "64bit", "flex_bg", "sparse_super", "large_file", "huge_file", "dir_nlink",
	"extra_isize", "metadata_csum" }
local ext4_no_index = { "has_journal", "ext_attr", "resize_inode", "filetype", "extent",
	"flex_bg", "sparse_super", "large_file" }

return fstune.rule {
	id = "directories",
	title = "Directory indexing on ext2/3/4 (dir_index, large_dir)",
	description = "Large directories need an index: with dir_index an ext2/3/4 directory becomes " ..
		"a hashed b-tree (htree) when its first block fills, and lookups stop scanning it. The rule " ..
		"flags an ext filesystem without dir_index (offline fix: tune2fs -O dir_index, then " ..
		"e2fsck -fDp), raised to critical when the sampled or declared (--files-per-dir) workload " ..
		"has directories of 10,000 files or more, and flags ext4 directories approaching the 2-level " ..
		"htree limit without large_dir. " ..
		"XFS and btrfs index directories always and get nothing.",
	sources = {
		"ext4(5), dir_index and large_dir (e2fsprogs misc/ext4.5.in)",
		"tune2fs(8) -O dir_index; e2fsck(8) -D (e2fsprogs)",
		"e2fsprogs 1.44.0 release notes: ~10M entries per directory at 4 KiB blocks, ~100k at 1 KiB",
		"Linux fs/ext4/namei.c ext4_add_entry(): a directory is indexed when its first block fills",
		"seed thread, ext3 2003: 1M files in 100 vs 1000 directories, with and without htree",
		"e2fsprogs misc/tune2fs.c: clearing dir_index on a metadata_csum filesystem demands a freshly " ..
			"checked filesystem (check_fsck_needed); e2fsck(8) -p, -D",
	},
	settings = { "fs.feature.dir_index", "fs.feature.large_dir" },
	needs = { "fs.type", "fs.features" },
	uses = { "fs.block_size", "workload.files_per_dir_max", "workload.files_per_dir_p90",
		"workload.files_per_dir",
		"fs.mount_point" },
	check = check,
	tests = {
		{ name = "ext4 without dir_index",
			facts = { device = { path = "/dev/sdb1" },
				fs = { type = "ext4", block_size = 4096, features = ext4_no_index, mount_point = "/srv" } },
			expect = { { name = "dir_index_off", severity = "warn", setting = "fs.feature.dir_index",
				recommended = true, disruption = "offline" } } },
		{ name = "ext3 without dir_index, 50,000 files per directory",
			facts = { fs = { type = "ext3", block_size = 4096, features = { "has_journal", "filetype" } },
				workload = { files_per_dir_max = 50000 } },
			expect = { { name = "dir_index_off", severity = "critical" } } },
		{ name = "ext3 without dir_index, 20,000 files per directory declared (--files-per-dir)",
			facts = { fs = { type = "ext3", block_size = 4096, features = { "has_journal", "filetype" } },
				workload = { files_per_dir = 20000 }, sources = { ["workload.files_per_dir"] = "user" } },
			expect = { { name = "dir_index_off", severity = "critical" } } },
		{ name = "ext3 without dir_index, 20,000 per directory from a preset: not critical",
			facts = { fs = { type = "ext3", block_size = 4096, features = { "has_journal", "filetype" } },
				workload = { files_per_dir = 20000 }, sources = { ["workload.files_per_dir"] = "preset" } },
			expect = { { name = "dir_index_off", severity = "warn" } } },
		{ name = "ext2 without dir_index, small directories",
			facts = { fs = { type = "ext2", block_size = 4096, features = { "filetype" } },
				workload = { files_per_dir_max = 20 } },
			expect = { { name = "dir_index_off", severity = "suggest" } } },
		{ name = "ext4 defaults: nothing to say",
			facts = { fs = { type = "ext4", block_size = 4096, features = ext4_default } },
			expect = {} },
		{ name = "xfs indexes directories itself",
			facts = { fs = { type = "xfs", block_size = 4096, features = { "crc", "finobt" } } },
			expect = {} },
		{ name = "ext4, 6M files in one directory, no large_dir",
			facts = { fs = { type = "ext4", block_size = 4096, features = ext4_default },
				workload = { files_per_dir_max = 6000000 } },
			expect = { { name = "large_dir_needed", severity = "warn",
				setting = "fs.feature.large_dir" } } },
		{ name = "ext4 with 1 KiB blocks and 200,000 files per directory",
			facts = { fs = { type = "ext4", block_size = 1024, features = ext4_default },
				workload = { files_per_dir_max = 200000 } },
			expect = { { name = "large_dir_needed", severity = "critical" } } },
		{ name = "no features known: not evaluated",
			facts = { fs = { type = "ext4" } },
			expect = "not_evaluated" },
	},
}
