-- btrfs copy-on-write under random in-place rewrites (VM images, databases): every rewrite of a block
-- is written somewhere new, so such files fragment into many thousands of extents. No_COW on a fresh
-- directory (chattr +C) for the files made in it, with what it costs.

local SOURCES = {
	"chattr(1), attribute C: for btrfs it 'should be set on new or empty files'; on a file that already "
		.. "has data blocks 'it is undefined when the blocks ... will be fully stable'; set on a directory, "
		.. "'new files created in that directory will have the No_COW attribute set'",
	"btrfs(5) mount options: nodatacow implies nodatasum and disables compression; in-place updates "
		.. "risk partial writes on a crash; btrfs documentation on snapshots: a No_COW file's blocks are "
		.. "copied once more on their first write after a snapshot [BTRFS-mnt]",
	"btrfs(5) mount options: autodefrag queues files with small random writes for background "
		.. "defragmentation and 'may not be well suited for large database workloads' [BTRFS-mnt]",
}

local MiB = fstune.MiB

local function has_opt(f, o) return fstune.contains(f.mount_options, o) or fstune.contains(f.super_options, o) end

-- Large files rewritten in place at random: VM images, database files.
local function random_rewrites(w)
	if w == nil or w.access ~= "random" then return nil end
	if w.profile == "database" then return "a database" end
	if w.profile == "vm" or w.profile == "vm-images" then return "virtual machine images" end
	local big = (fstune.is_integer(w.file_size_p50_bytes) and w.file_size_p50_bytes >= 64 * MiB)
		or (type(w.file_size_mean_bytes) == "number" and w.file_size_mean_bytes >= 64 * MiB)
	if big then return "large files written at random" end
	return nil
end

local function check(facts)
	local out = {}
	local f = facts.fs
	local w = facts.workload
	if f.type ~= "btrfs" or has_opt(f, "nodatacow") then return out end
	local what = random_rewrites(w)
	if not what then return out end
	local assumed = fstune.is_assumed("workload.access") or (fstune.is_assumed("workload.profile")
		and fstune.is_assumed("workload.file_size_p50_bytes") and fstune.is_assumed("workload.file_size_mean_bytes"))
	local mp = f.mount_point
	local dir = mp and ((mp == "/" and "" or mp) .. "/nocow") or nil
	local extra = ""
	if has_opt(f, "autodefrag") then
		extra = extra .. " autodefrag is on: it rewrites randomly written files in the background, adding "
			.. "writes of its own; remount with noautodefrag (and drop it from fstab) once they live "
			.. "in the No_COW directory, where it has nothing to do."
	end
	-- btrfs lists compress= among the filesystem's options (mountinfo's superblock field)
	local compress
	for _, list in ipairs({f.mount_options or {}, f.super_options or {}}) do
		for _, o in ipairs(list) do
			if compress == nil and type(o) == "string" and o:match("^compress") then compress = o end
		end
	end
	if compress then
		extra = extra .. " The mount compresses (" .. compress .. "): No_COW files are stored uncompressed."
	end
	local rec = {name = "nocow_dir", severity = assumed and "info" or "suggest", confidence = 0.6,
		title = "btrfs copy-on-write under " .. what .. ": keep such files in a No_COW directory",
		rationale = string.format("This btrfs holds %s. Copy-on-write puts every rewritten block somewhere "
			.. "new, so a file rewritten at random breaks into thousands of extents: reads that were "
			.. "sequential become seeks, and each small write also rewrites checksum and extent metadata. "
			.. "chattr +C on an empty directory makes the files created in it afterwards No_COW (rewritten "
			.. "in place). Existing files keep copy-on-write: copy them in anew (cp --reflink=never, then "
			.. "rename), since +C on a file that already holds data has no defined effect. The cost: No_COW "
			.. "files have no data checksums (btrfs cannot detect or, on RAID1, repair their corruption), "
			.. "are never compressed, a crash in the middle of a write can leave a block half rewritten, as on any "
			.. "in-place filesystem, and a snapshot still makes each block copy-on-write once more on its "
			.. "first write after it. The mount option nodatacow does the same for the whole filesystem's "
			.. "new files.%s%s", what, extra,
			dir and string.format(" The directory %s is a suggestion: use the one the images or database "
				.. "files will live in.", dir) or ""),
		evidence = fstune.present({"fs.type", "workload.access", "workload.profile", "workload.file_size_p50_bytes",
			"workload.file_size_mean_bytes", "fs.mount_options", "fs.super_options"})}
	if dir then
		rec.setting = "file.nocow"
		rec.recommended = dir
	end
	out[1] = rec
	return out
end

local function btrfs(opts)
	return {type = "btrfs", mount_point = "/var/lib/libvirt", mount_options = opts or {"rw", "relatime", "ssd"}}
end

return fstune.rule {
	id = "cow",
	title = "btrfs copy-on-write under random rewrites (VM images, databases): No_COW directories",
	description = [[
- btrfs holding a database, VM images or large files (median or mean of 64 MiB or more, a
  heuristic) written at random, without nodatacow: chattr +C on an empty directory for the files
  made in it (setting file.nocow: mkdir -p, chattr +C; revert chattr -C), with the cost stated (no
  data checksums, no compression, snapshots copy again). autodefrag and compression on the mount
  are named. Suggest when the workload was stated, sampled or observed; info on a preset.]],
	sources = SOURCES,
	settings = {"file.nocow"},
	needs = {"fs.type"},
	uses = {"fs.mount_point", "fs.mount_options", "fs.super_options", "workload.access", "workload.profile",
		"workload.file_size_p50_bytes", "workload.file_size_mean_bytes"},
	check = check,
	tests = {
		{name = "VM images written at random (stated): No_COW directory",
			facts = {fs = btrfs(), workload = {access = "random", file_size_p50_bytes = 40 * 1024 * MiB}},
			expect = {{name = "nocow_dir", severity = "suggest", setting = "file.nocow",
				recommended = "/var/lib/libvirt/nocow", disruption = "runtime"}}},
		{name = "database with autodefrag and compression",
			facts = {fs = btrfs({"rw", "autodefrag", "compress=zstd:3"}), workload = {access = "random",
				profile = "database"}},
			expect = {{name = "nocow_dir", severity = "suggest"}}},
		{name = "compression in the filesystem's options, where btrfs lists it: those options are evidence",
			facts = {fs = fstune.merge(btrfs({"rw", "relatime"}), {super_options = {"rw", "ssd", "compress=zstd:3",
				"space_cache=v2"}}), workload = {access = "random", profile = "database"}},
			expect = {{name = "nocow_dir", evidence = {"fs.type", "workload.access", "workload.profile",
				"fs.mount_options", "fs.super_options"}}}},
		{name = "database preset only: info",
			facts = {fs = btrfs(), workload = {access = "random", profile = "database",
				file_size_p50_bytes = 64 * MiB},
				sources = {["workload.access"] = "preset", ["workload.profile"] = "preset",
					["workload.file_size_p50_bytes"] = "preset"}},
			expect = {{name = "nocow_dir", severity = "info"}}},
		{name = "not mounted: advice without a directory",
			facts = {fs = {type = "btrfs"}, workload = {access = "random", profile = "database"}},
			expect = {{name = "nocow_dir", disruption = "advice"}}},
		{name = "already nodatacow: nothing",
			facts = {fs = btrfs({"rw", "nodatacow"}), workload = {access = "random", profile = "database"}},
			expect = {}},
		{name = "sequential large files: nothing",
			facts = {fs = btrfs(), workload = {access = "sequential", file_size_p50_bytes = 1024 * MiB}},
			expect = {}},
		{name = "random small files: nothing",
			facts = {fs = btrfs(), workload = {access = "random", file_size_p50_bytes = 8192}},
			expect = {}},
		{name = "ext4: not copy-on-write",
			facts = {fs = {type = "ext4", mount_point = "/srv"}, workload = {access = "random", profile = "database"}},
			expect = {}},
		{name = "no filesystem type", facts = {device = {name = "sda"}}, expect = "not_evaluated"},
	},
}
