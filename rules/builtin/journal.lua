-- The ext3/4 journal: data=journal under databases and fsync- or O_DIRECT-heavy work, data=writeback's
-- crash exposure, and filesystems without a journal at all (ext2, or ext3/4 without has_journal).

local SOURCES = {
	"Documentation/admin-guide/ext4.rst: data=ordered is the default; data=journal journals data and "
		.. "metadata, disables delayed allocation and O_DIRECT support, and is 'the slowest except when data "
		.. "needs to be read from and written to disk at the same time'; data=writeback does not order "
		.. "data, so 'stale data can appear in files after a crash and journal recovery' [L-ext4adm]",
	"fs/ext4/super.c: 'Cannot change data mode on remount' (seen on Linux 6.18: mount -o "
		.. "remount,data=ordered fails with EINVAL); for /, rootflags= on the kernel command line "
		.. "(Documentation/admin-guide/kernel-parameters.txt)",
	"tune2fs(8): -j adds an ext3 journal; on a mounted filesystem it is used from the next mount "
		.. "[E2-tune2fs8]; lib/ext2fs/mkjournal.c ext2fs_default_journal_size(): the default size by "
		.. "filesystem blocks",
	"fs/ext2/Kconfig (Linux 6.9 and later): 'Second extended fs support (DEPRECATED)': the driver keeps "
		.. "32-bit timestamps that end in January 2038; ext2 users are advised to use the ext4 driver",
	"e2fsck(8): a filesystem without a journal must be checked in full after an unclean shutdown; a "
		.. "journal is replayed instead [E2-e2fsck8]",
	"measured here on Linux 6.18: a journal-less ext2 mounted as ext4 gets no journal; after tune2fs -j "
		.. "and a mount as ext4, /proc/fs/jbd2/<dev>-8 appears",
	"measured here: fstune bench --tests fsync_4k_overwrite,fsync_4k_append on a 2 GiB ext4 loop image "
		.. "(direct I/O), four rounds: 5067, 3359, 3426, 2044 fsync'd overwrites/s with data=ordered, "
		.. "1607, 489, 435, 695 with data=journal; appends 658-1356/s and 452-1255/s, no clear difference",
}

local MiB, GiB = fstune.MiB, fstune.GiB

local function has_opt(f, o) return fstune.contains(f.mount_options, o) or fstune.contains(f.super_options, o) end

local function data_mode(f)
	for _, m in ipairs({"journal", "writeback", "ordered"}) do
		if has_opt(f, "data=" .. m) then return m end
	end
	return nil
end

-- Work that data=journal hurts most: direct I/O (which it turns off), fsync-heavy writers, databases.
-- Returns a short name for titles and the longer one the rationale uses.
local function sync_work(w)
	if w == nil then return nil end
	if w.io_mode == "direct" then
		return "direct I/O", "direct I/O (O_DIRECT), which data=journal does not honour"
	end
	if w.profile == "database" then return "a database", "a database" end
	if w.sync_heavy == true then return "fsync-heavy writes", "fsync-heavy writes" end
	return nil
end

local function fsync_figure()
	local b = fstune.measured("fsync_4k_overwrite")
	local iops = b and b.iops
	if type(iops) == "number" and iops > 0 then
		return string.format(" The fsync benchmark here measured %.0f fsync'd 4 KiB overwrites per second "
			.. "under data=journal.", iops)
	end
	return ""
end

local function rec_data_journal(f, w, out)
	local why, why_long = sync_work(w)
	local root = f.mount_point == "/"
	local how = root and "For / the mode cannot change while it is mounted: the advice is rootflags=data=ordered "
		.. "on the kernel command line with the fstab entry changed too, then a reboot."
		or "The kernel refuses data= on remount, so the change is offline: unmount, mount with "
		.. "data=ordered, and the fstab entry to keep it."
	local measured = not (fstune.is_assumed("workload.io_mode") and fstune.is_assumed("workload.profile")
		and fstune.is_assumed("workload.sync_heavy"))
	out[#out + 1] = {name = "data_journal", setting = "mount.option.data", recommended = "ordered",
		current = "journal", severity = (why and measured) and "suggest" or "info",
		confidence = why and 0.7 or 0.5,
		title = why and ("data=journal under " .. why .. ": data=ordered writes data once")
			or "data=journal writes every block twice; data=ordered is the default",
		rationale = string.format("%s is mounted data=journal: every data block goes through the journal and "
			.. "is written twice, delayed allocation is off (the kernel lists nodelalloc) and O_DIRECT is not "
			.. "honoured (such I/O goes through the page cache). %s "
			.. "The default, data=ordered, writes data in place before the metadata that "
			.. "points to it commits, which keeps files consistent after a crash. fstune's own fsync "
			.. "benchmark, on an ext4 loop device of its build machine (Linux 6.18), measured 3 to 8 times "
			.. "fewer fsync'd 4 KiB overwrites per second under data=journal than under data=ordered "
			.. "(appends about the same; one shared machine: measure yours).%s The ext4 documentation names "
			.. "one case where data=journal is the "
			.. "faster mode: data read from and written to disk at the same time. %s",
			f.mount_point or "The filesystem",
			why and ("The workload is " .. why_long .. ": the double writes sit on its critical path.")
				or "No workload described here needs it.",
			fsync_figure(), how),
		evidence = fstune.present({"fs.mount_options", "fs.super_options", "workload.io_mode",
			"workload.profile", "workload.sync_heavy", "bench.fsync_4k_overwrite.iops"})}
end

local function rec_data_writeback(f, out)
	out[#out + 1] = {name = "data_writeback", setting = "mount.option.data", recommended = "ordered",
		current = "writeback", severity = "info", confidence = 0.6,
		title = "data=writeback: after a crash, recently written files can hold stale data",
		rationale = string.format("%s is mounted data=writeback. Metadata is journalled but data is not "
			.. "ordered before it: after a crash and journal recovery, a file written just before can show "
			.. "blocks that belonged to a deleted file (another user's data: a security exposure), not "
			.. "only lose its newest writes. It is often the fastest mode; keep it only for data that is "
			.. "rebuilt after a crash. data=ordered is the default. Changing the mode needs an unmount "
			.. "(the kernel refuses data= on remount)%s.", f.mount_point or "The filesystem",
			f.mount_point == "/" and "; for / it is rootflags=data=ordered on the kernel command line and "
				.. "a reboot" or ""),
		evidence = fstune.present({"fs.mount_options", "fs.super_options"})}
end

-- Mount points that hold only what a reinstall or the next boot brings back.
local function is_disposable(mp)
	return mp == "/boot" or mp == "/boot/efi" or mp == "/tmp" or (mp and mp:match("^/boot/") ~= nil)
end

local function rec_no_journal(f, out)
	local size = f.size_bytes
	local mp = f.mount_point
	local sz = fstune.is_integer(size) and size > 0 and (" of " .. fstune.fmt_bytes(size)) or ""
	local ext2 = f.type == "ext2"
	-- /boot and /tmp hold little that cannot be restored; an unmounted filesystem (an image) may hold
	-- anything, and says nothing about the service it serves
	local minor = is_disposable(mp) or mp == nil
	out[#out + 1] = {name = "no_journal", setting = "fs.feature.has_journal", recommended = true, current = false,
		severity = minor and "info" or "suggest", confidence = 0.7,
		title = string.format("%s%s has no journal: a crash means a full fsck before it mounts",
			mp or "the filesystem", ext2 and " (ext2)" or ""),
		rationale = string.format("This %s%s has no journal (has_journal is not among its features). After a "
			.. "power cut or a crash it must be checked in full by e2fsck before it can be trusted, which takes "
			.. "time in proportion to its size and number of inodes (minutes to hours on large ones), and "
			.. "metadata updates in flight can be lost or half-written; a journal is replayed in seconds. "
			.. "tune2fs -j adds one, sized by the filesystem (with 4 KiB blocks: 16 MiB under 1 GiB, 64 MiB "
			.. "from 2 to 16 GiB, 1 GiB from 128 GiB); it works on a mounted "
			.. "filesystem too, but the journal is used only from the next mount through the ext4 driver, so "
			.. "the change is offline: unmount, tune2fs -j, mount as ext4%s. Mounting an ext2 as ext4 without "
			.. "tune2fs -j does not add a journal.%s%s", f.type, sz,
			ext2 and ", and the fstab type ext4" or "",
			ext2 and " The ext2 driver itself is deprecated since Linux 6.9: it keeps 32-bit timestamps "
				.. "that end in January 2038, and the kernel advises the ext4 driver, which reads ext2 as is." or "",
			mp == nil and " It is not mounted, so what it holds is unknown: a note."
				or minor and (" " .. mp .. " holds little that cannot be restored, so this is a note.")
				or (mp == "/" and " / cannot be unmounted: tune2fs -j on the mounted filesystem, the fstab "
					.. "type ext4, and a reboot." or "")),
		evidence = fstune.present({"fs.type", "fs.features", "fs.mount_point", "fs.size_bytes"})}
end

local function check(facts)
	local out = {}
	local f = facts.fs
	if not fstune.is_ext(f.type) or fstune.is_freebsd() then return out end
	if not fstune.contains(f.features, "has_journal") then
		rec_no_journal(f, out)
		return out
	end
	local mode = data_mode(f)
	if mode == "journal" then
		rec_data_journal(f, facts.workload, out)
	elseif mode == "writeback" then
		rec_data_writeback(f, out)
	end
	return out
end

local JFEAT = {"has_journal", "ext_attr", "resize_inode", "dir_index", "filetype", "extent", "flex_bg"}
local function ext4(opts, super, extra)
	return fstune.merge({type = "ext4", mount_point = "/srv/db", features = JFEAT, mount_options = opts,
		super_options = super, size_bytes = 500 * GiB}, extra)
end

return fstune.rule {
	id = "journal",
	title = "ext3/4 journalling: data=journal and data=writeback, filesystems without a journal",
	description = [[
- data=journal (writes data twice, no delayed allocation, no O_DIRECT) under a database, O_DIRECT
  or fsync-heavy workload: suggest data=ordered (info when only a preset or default describes the
  workload, or none needs it). The kernel refuses data= on remount: unmount and mount (offline);
  for / rootflags=data=ordered on the kernel command line and the fstab entry (reboot).
- data=writeback: info on its crash exposure (stale data in recently written files), with
  data=ordered as the setting.
- ext2, or ext3/4 without has_journal: tune2fs -j, then mounted as ext4 (an ext2 mounted as ext4
  without it has no journal); suggest, info for /boot, /tmp and an unmounted filesystem. Names
  the full fsck after a crash and the ext2 driver's deprecation (Linux 6.9, timestamps end in
  2038).]],
	sources = SOURCES,
	-- Each recommendation cites the sources it rests on (indices into SOURCES), not the whole list.
	rec_sources = {
		data_journal = {1, 2, 7},
		data_writeback = {1, 2},
		no_journal = {3, 5, 4, 6},
	},
	settings = {"mount.option.data", "fs.feature.has_journal"},
	needs = {"fs.type", "fs.features"},
	uses = {"fs.mount_options", "fs.super_options", "fs.mount_point", "fs.size_bytes", "workload.io_mode",
		"workload.profile", "workload.sync_heavy", "bench.fsync_4k_overwrite.iops", "host.target_os"},
	check = check,
	tests = {
		{name = "data=journal under PostgreSQL (stated): suggest data=ordered, offline",
			facts = {fs = ext4({"rw", "relatime"}, {"rw", "nodioread_nolock", "nodelalloc", "data=journal"}),
				workload = {profile = "database", sync_heavy = true}},
			expect = {{name = "data_journal", severity = "suggest", setting = "mount.option.data",
				recommended = "ordered", current = "journal", disruption = "offline"}}},
		{name = "data=journal with O_DIRECT observed",
			facts = {fs = ext4({"rw", "relatime", "data=journal"}), workload = {io_mode = "direct"},
				sources = {["workload.io_mode"] = "observe"}},
			expect = {{name = "data_journal", severity = "suggest"}}},
		{name = "data=journal on /: rootflags on the kernel command line, a reboot",
			facts = {fs = ext4({"rw", "relatime"}, {"rw", "data=journal"}, {mount_point = "/"}),
				workload = {sync_heavy = true}},
			expect = {{name = "data_journal", severity = "suggest", disruption = "reboot"}}},
		{name = "data=journal, database only from a preset: info",
			facts = {fs = ext4({"rw", "relatime"}, {"rw", "data=journal"}),
				workload = {profile = "database", sync_heavy = true, io_mode = "buffered"},
				sources = {["workload.profile"] = "preset", ["workload.sync_heavy"] = "preset",
					["workload.io_mode"] = "preset"}},
			expect = {{name = "data_journal", severity = "info"}}},
		{name = "data=journal, no workload described: info",
			facts = {fs = ext4({"rw", "relatime"}, {"rw", "data=journal"})},
			expect = {{name = "data_journal", severity = "info"}}},
		{name = "data=writeback: info with the crash exposure",
			facts = {fs = ext4({"rw", "relatime"}, {"rw", "data=writeback"})},
			expect = {{name = "data_writeback", severity = "info", recommended = "ordered"}}},
		{name = "default data=ordered with a database: nothing",
			facts = {fs = ext4({"rw", "relatime"}, {"rw", "errors=remount-ro"}),
				workload = {profile = "database", sync_heavy = true}},
			expect = {}},
		{name = "data=ordered stated: nothing",
			facts = {fs = ext4({"rw", "relatime"}, {"rw", "data=ordered"})},
			expect = {}},
		{name = "ext2 holding /srv: tune2fs -j, offline",
			facts = {fs = {type = "ext2", mount_point = "/srv", mount_options = {"rw", "relatime"},
				features = {"ext_attr", "resize_inode", "dir_index", "filetype", "sparse_super"},
				size_bytes = 2 * fstune.TiB}},
			expect = {{name = "no_journal", severity = "suggest", setting = "fs.feature.has_journal",
				recommended = true, disruption = "offline"}}},
		{name = "ext4 made without a journal (-O ^has_journal)",
			facts = {fs = {type = "ext4", mount_point = "/var", mount_options = {"rw"},
				features = {"extent", "flex_bg", "dir_index"}}},
			expect = {{name = "no_journal", severity = "suggest"}}},
		{name = "ext2 /boot: a note",
			facts = {fs = {type = "ext2", mount_point = "/boot", mount_options = {"rw"}, features = {"dir_index"},
				size_bytes = 512 * MiB}},
			expect = {{name = "no_journal", severity = "info"}}},
		{name = "ext2 image, not mounted: a note",
			facts = {fs = {type = "ext2", features = {"dir_index"}, size_bytes = 256 * MiB}},
			expect = {{name = "no_journal", severity = "info", disruption = "offline"}}},
		{name = "ext2 as /: tune2fs -j mounted, then a reboot",
			facts = {fs = {type = "ext2", mount_point = "/", mount_options = {"rw"}, features = {"dir_index"}}},
			expect = {{name = "no_journal", severity = "suggest", disruption = "reboot"}}},
		{name = "ext3 with its journal: nothing",
			facts = {fs = {type = "ext3", mount_point = "/srv", mount_options = {"rw"},
				features = {"has_journal", "dir_index"}}},
			expect = {}},
		{name = "XFS: not this rule's", facts = {fs = {type = "xfs", features = {"crc"}}}, expect = {}},
		{name = "features unknown", facts = {fs = {type = "ext2"}}, expect = "not_evaluated"},
	},
}
