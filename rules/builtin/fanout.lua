-- Directory fan-out for millions of files: bounded directories in two-level hashed trees (maildir,
-- squid, git objects), well below the htree limits that the directories rules guard, and
-- inode-ordered traversal for backups of such trees on rotating disks.

local commas = fstune.fmt_count

local is_ext = fstune.is_ext

-- The largest directory the workload describes and the key it came from.
local function dir_size(w)
	for _, k in ipairs({"files_per_dir_max", "files_per_dir_p90", "files_per_dir"}) do
		if fstune.is_integer(w[k]) then return w[k], "workload." .. k end
	end
	return nil
end

-- A spinning disk by transport first: bare-metal SATA/SAS/SCSI/USB, or md/dm over disks.
local function spinning(facts, d)
	if d == nil or d.rotational ~= true then return false end
	local t, virt = d.transport, (facts.host or {}).virtualization
	if t == "md" or t == "dm" or t == "usb" then return true end
	return (t == "sata" or t == "sas" or t == "scsi") and virt == "none"
end

local DISK_WORDS = {md = "an md array of disks", dm = "a device-mapper volume on disks",
	usb = "a USB disk", sata = "a SATA disk", sas = "a SAS disk", scsi = "a SCSI disk"}

-- BIG_DIR: directories of 100,000 entries and more (a heuristic, well below the ~10 M htree limit
-- but where readdir, backups and single-directory locking already hurt). MANY: a million files.
local BIG_DIR, MANY = 100000, 1000000

local SEED = "A 2003 report on ext3 (Linux 2.5 with htree) created one million files in 100 "
	.. "directories (10,000 each) and in 1000 (1000 each); with dir_index, create took 1078 s vs 284 s "
	.. "and remove 1310 s vs 141 s, 3.8x "
	.. "and 9.3x in favour of 1000 directories (a reply signed Stephen said htree should make even one "
	.. "directory fast and doubted dir_index was on, so read it as a measurement of that kernel, not a law)."

local function check(facts)
	local out = {}
	local w = facts.workload
	if w == nil then return out end
	local f = facts.fs or {}
	if f.type ~= nil and not is_ext(f.type) and f.type ~= "xfs" and f.type ~= "btrfs" then return out end
	local files = w.files_total
	local dmax, dkey = dir_size(w)
	if not fstune.is_integer(files) or files < MANY or dmax == nil then return out end
	local is_weak = fstune.is_assumed(dkey) or fstune.is_assumed("workload.files_total")

	if dmax >= BIG_DIR then
		local per = math.max(1000, (files + 65535) // 65536)
		out[#out + 1] = {name = "bounded_directories", setting = "layout.files_per_dir", recommended = per,
			current = dmax, severity = is_weak and "info" or "suggest", confidence = 0.5,
			title = string.format("%s files with directories of up to %s entries: spread them, about %s a "
				.. "directory", commas(files), commas(dmax), commas(per)),
			rationale = string.format("Directories of %s entries work with an htree index, but every readdir "
				.. "returns them in hash order (a backup or find then visits inodes at random), the "
				.. "directory never shrinks after deletions, and all creates in it serialise on one lock. "
				.. "Hashed subdirectories keep each small: name them by the first bytes of a hash of the "
				.. "file name (git does this for objects with one level of 256, squid with 16 x 256; two "
				.. "levels of 256 give 65,536 directories) and aim for about %s files per directory for "
				.. "%s files. %s The 100,000-entry threshold is a heuristic.", commas(dmax), commas(per),
				commas(files), SEED),
			evidence = fstune.present({dkey, "workload.files_total", "fs.type", "fs.features"})}
	end

	local d = facts.device
	local linux = not fstune.is_freebsd() -- UFS readdir is in directory order
	if linux and (f.type == nil or is_ext(f.type)) and dmax >= 1000 and spinning(facts, d) then
		out[#out + 1] = {name = "inode_order_backup", severity = "info", confidence = 0.5,
			title = "back up this tree in inode order: hash-order readdir makes a rotating disk seek",
			rationale = string.format("ext4 returns the entries of an indexed directory in hash order, which "
				.. "is unrelated to where the inodes and data lie, and Ted Ts'o has said this cannot change "
				.. "without a format change. With %s files in directories of up to %s on %s, a "
				.. "backup that reads in readdir order seeks for nearly every file. Sort by inode: GNU tar "
				.. "--sort=inode ('reduces the number of disk seeks'), or a FIEMAP-sorted file list "
				.. "(diskorder); fastar's author measured plain tar at 2.4 MiB/s against 4.11 MiB/s fed a "
				.. "physical-order list, on an HDD with 6.68 M files.", commas(files), commas(dmax),
				DISK_WORDS[d.transport] or "a rotating disk"),
			evidence = fstune.present({"workload.files_total", dkey, "device.rotational", "device.transport",
				"host.virtualization"})}
	end
	return out
end

-- A vector's facts with the 2003 layout: a million files, 1000 to a directory.
local function layout_2003(facts)
	return fstune.merge(facts, {workload = {files_total = 1000000, files_per_dir = 1000}})
end

return fstune.rule {
	id = "fanout",
	title = "Directory fan-out for millions of files; inode-ordered backups on rotating disks",
	description = [[
For a workload of a million files or more (workload.files_total) with known directory sizes:

- directories of 100,000 entries or more (files_per_dir_max, else _p90, else the median; a
  heuristic threshold): spread the files over two levels of hashed subdirectories, about
  max(1000, files / 65536) per directory (layout.files_per_dir; advice for the application).
  Suggest when the sizes are the admin's or a sample's, info from a preset or default.
  The htree limits themselves (dir_index, large_dir) are the directories rules' subject.
- on ext2/3/4 (or a filesystem not yet made) on a rotating disk (bare-metal SATA/SAS/SCSI, USB,
  md/dm over disks) with directories of 1000 or more: back up in inode order (tar --sort=inode,
  FIEMAP-sorted lists), as info: htree readdir is hash-ordered.

A 2003 report on ext3: one million files in 100 vs 1000 directories, with dir_index create 1078 s
vs 284 s and remove 1310 s vs 141 s (3.8x and 9.3x for 1000 directories).]],
	sources = {
		"seed: 2003-ext3-htree-million-files (Create 1764/N/A/1078 and Remove 611/N/A/1310 for 100 "
			.. "directories; Create 409/305/284 and Remove 138/96/141 for 1000; kernels 2.4.20, 2.4.21, "
			.. "2.4.21 + dir_index)",
		"Documentation/filesystems/ext4/directory.rst: htree depth and leaf blocks [L-ext4-dir]",
		"fs/ext4/dir.c is_dx_dir(): hash-order readdir for indexed directories [L-ext4-dirc]",
		"T. Ts'o on linux-ext4, 2012 and 2013: readdir cannot return inode order without a format "
			.. "change [TSO-2012], [TSO-2013]",
		"GNU tar(1) --sort=inode [TAR]; nh2/diskorder [DISKORDER]; fastar README (2.4 vs 4.11 MiB/s, "
			.. "6.68 M files on HDD) [FASTAR]",
	},
	settings = {"layout.files_per_dir"},
	needs = {"workload.files_total"},
	uses = {"workload.files_per_dir", "workload.files_per_dir_p90", "workload.files_per_dir_max",
		"fs.type", "fs.features", "device.rotational", "device.transport", "host.virtualization",
		"host.target_os"},
	check = check,
	tests = {
		{name = "mail spool: 40 M files, directories of 400,000 on md RAID1 of disks",
			facts = {fs = {type = "ext4"}, device = {transport = "md", rotational = true},
				workload = {files_total = 40000000, files_per_dir = 40000, files_per_dir_max = 400000}},
			expect = {{name = "bounded_directories", severity = "suggest", recommended = 1000},
				{name = "inode_order_backup", severity = "info"}}},
		{name = "a billion files: more per directory",
			facts = {fs = {type = "xfs"}, device = {transport = "nvme", rotational = false},
				workload = {files_total = 1000000000, files_per_dir_max = 2000000}},
			expect = {{name = "bounded_directories", recommended = 15259}}},
		{name = "the 2003 layout (1000 per directory) on NVMe: nothing",
			facts = layout_2003 {fs = {type = "ext4"}, device = {transport = "nvme", rotational = false}},
			expect = {}},
		{name = "1000 per directory on a bare-metal SATA disk: backup order only",
			facts = layout_2003 {host = {virtualization = "none"}, fs = {type = "ext4"},
				device = {transport = "sata", rotational = true}},
			expect = {"inode_order_backup"}},
		{name = "FreeBSD target on a SATA disk: UFS readdir is not hash-ordered",
			facts = layout_2003 {host = {virtualization = "none", target_os = "freebsd"},
				device = {transport = "sata", rotational = true}},
			expect = {}},
		{name = "virtio disk claiming rotational: no backup advice",
			facts = layout_2003 {host = {virtualization = "kvm"}, fs = {type = "ext4"},
				device = {transport = "virtio", rotational = true}},
			expect = {}},
		{name = "default preset sizes: info at most",
			facts = {fs = {type = "ext4"}, device = {transport = "nvme", rotational = false},
				workload = {files_total = 5000000, files_per_dir_max = 500000},
				sources = {["workload.files_total"] = "preset", ["workload.files_per_dir_max"] = "preset"}},
			expect = {{name = "bounded_directories", severity = "info"}}},
		{name = "few files: nothing",
			facts = {workload = {files_total = 20000, files_per_dir_max = 20000}},
			expect = {}},
		{name = "no file count", facts = {workload = {files_per_dir = 10}}, expect = "not_evaluated"},
	},
}
