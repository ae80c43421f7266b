-- Write barriers (cache flushes at journal commits and fsync): nobarrier over a volatile write cache
-- loses data on power loss unless the cache is protected; XFS removed the options in 4.19, so an fstab
-- that still carries them stops the filesystem from mounting.

local SOURCES = {
	"Documentation/admin-guide/ext4.rst: barrier=1 is the default, 'making volatile disk write caches "
		.. "safe to use, at some performance penalty. If your disks are battery-backed in one way or "
		.. "another, disabling barriers may safely improve performance'; nobarrier = barrier=0 [L-ext4adm]",
	"Documentation/block/writeback_cache_control.rst: REQ_PREFLUSH and REQ_FUA force data to "
		.. "non-volatile media on fsync and journal commits; drivers without a volatile cache ignore "
		.. "them [L-wbc]",
	"Documentation/admin-guide/xfs.rst: the barrier and nobarrier mount options were removed in "
		.. "v4.19 (a mount that names them fails) [L-xfs]",
	"btrfs(5) mount options: barrier default on; nobarrier 'will most certainly lead to a corrupted "
		.. "filesystem in case of a crash or power loss', unless the write-back cache is battery-backed "
		.. "[BTRFS-mnt]",
	"Documentation/ABI/stable/sysfs-block: queue/write_cache 'write back' (volatile cache, flushes "
		.. "sent) or 'write through' [L-sysfs-block]",
	"measured here on Linux 6.18: ext4 mounted with -o barrier=0 is listed as nobarrier in "
		.. "/proc/mounts, and mount -o remount,barrier turns it back on",
}

local function has(list, name) return fstune.contains(list, name) end

local function is_nobarrier(f)
	for _, o in ipairs({"nobarrier", "barrier=0"}) do
		if has(f.mount_options, o) or has(f.super_options, o) then return true end
	end
	return false
end

local EVIDENCE = {"fs.mount_options", "fs.super_options", "fs.type", "device.write_cache",
	"device.write_cache_protected"}

local function xfs(f, out)
	out[#out + 1] = {name = "xfs_barrier_option", severity = "warn", confidence = 0.8,
		title = "XFS mount with barrier/nobarrier: the options are gone since Linux 4.19, the mount fails there",
		rationale = string.format("This XFS is mounted with %s. XFS removed the barrier and nobarrier "
			.. "options in Linux 4.19: a kernel from then on refuses a mount that names them, so an fstab "
			.. "entry that still carries the option leaves %s unmounted after the next kernel upgrade (for "
			.. "/, the remount at boot fails and / can stay read-only). "
			.. "Remove the option from /etc/fstab (and from rootflags= on the kernel "
			.. "command line, if there) now; XFS always issues cache flushes since, and a protected cache "
			.. "makes them cheap.", has(f.mount_options, "barrier") and "barrier" or "nobarrier",
			f.mount_point or "the filesystem"),
		evidence = fstune.present({"fs.type", "fs.mount_options", "fs.super_options", "host.kernel"})}
end

local function check(facts)
	local out = {}
	local f = facts.fs
	if fstune.is_freebsd() or f.mount_options == nil then return out end
	if f.type == "xfs" then
		if is_nobarrier(f) or has(f.mount_options, "barrier") or has(f.super_options, "barrier") then
			xfs(f, out)
		end
		return out
	end
	if not (f.type == "ext3" or f.type == "ext4" or f.type == "btrfs") or not is_nobarrier(f) then
		return out
	end
	local d = facts.device or {}
	local wc = d.write_cache
	local where = f.mount_point or "this filesystem"
	if wc == "write through" then return out end -- no volatile cache: nothing to flush, nothing lost
	if d.write_cache_protected == true then
		out[#out + 1] = {name = "nobarrier_protected", severity = "info", confidence = 0.7,
			title = "nobarrier over a write cache stated to be power-loss protected",
			rationale = string.format("%s is mounted with nobarrier (barrier=0) over a write-back cache, "
				.. "and the facts state that the cache is protected against power loss "
				.. "(device.write_cache_protected, from %s). That is the one case ext4's documentation "
				.. "names as safe. fstune cannot check the statement: if the battery or capacitors fail, "
				.. "or the disk is moved behind another controller, a power cut can corrupt the journal. "
				.. "Mount with barrier (the default) when in doubt; a protected cache makes flushes cheap.",
				where, fstune.source("device.write_cache_protected") or "user"),
			evidence = fstune.present(EVIDENCE)}
		return out
	end
	if wc == "write back" then
		out[#out + 1] = {name = "nobarrier_volatile_cache", setting = "mount.option.barrier",
			recommended = true, severity = "warn", confidence = 0.8,
			title = "nobarrier over a volatile write cache: a power cut can lose fsync'd data and corrupt the journal",
			rationale = string.format("%s is mounted with nobarrier (the kernel shows barrier=0 the same "
				.. "way) and the disk reports a volatile write cache ('write back'). Without barriers the "
				.. "filesystem sends no cache flush at journal commits or fsync, so data the application "
				.. "was told is durable, and the journal's ordering, live only in the drive's cache: a "
				.. "power cut or a hard reset can lose them and leave the filesystem inconsistent. The cost "
				.. "of barriers is a flush per commit and per fsync; cheap on drives with power-loss "
				.. "protection, up to milliseconds on disks. If the cache is battery- or capacitor-backed, "
				.. "state it (device.write_cache_protected = true in a facts file) and this becomes a note.",
				where),
			evidence = fstune.present(EVIDENCE)}
		return out
	end
	out[#out + 1] = {name = "nobarrier_cache_unknown", setting = "mount.option.barrier", recommended = true,
		severity = "suggest", confidence = 0.5,
		title = "nobarrier, and whether the disk's write cache is volatile is unknown",
		rationale = string.format("%s is mounted with nobarrier (barrier=0), so no cache flush is sent at "
			.. "journal commits or fsync. Whether the disk has a volatile write cache could not be read "
			.. "(queue/write_cache): if it has one, a power cut can lose data applications fsync'd and "
			.. "corrupt the journal. Check with 'cat /sys/block/DISK/queue/write_cache' (or hdparm -W); "
			.. "keep nobarrier only for 'write through' or a cache stated protected "
			.. "(device.write_cache_protected).", where),
		evidence = fstune.present(EVIDENCE)}
	return out
end

local function fs(t, opts, super)
	return {type = t, mount_point = "/srv", mount_options = opts, super_options = super}
end

return fstune.rule {
	id = "barriers",
	title = "Write barriers: nobarrier over a volatile write cache; XFS's removed barrier options",
	description = [[
- ext3/ext4/btrfs mounted nobarrier (or barrier=0, which the kernel shows as nobarrier) over a
  disk whose write cache is 'write back': warn, mount with barrier (remount; fstab to keep it).
  With the cache's state unknown: suggest. 'write through': nothing (no volatile cache). A cache
  the admin states is power-loss protected (device.write_cache_protected = true): info only.
- XFS with barrier or nobarrier among its options (only an old kernel mounts that): warn that
  Linux 4.19 removed both and a mount naming them fails, so the fstab entry must lose the option.]],
	sources = SOURCES,
	-- Each recommendation cites the sources it rests on (indices into SOURCES), not the whole list.
	rec_sources = {
		nobarrier_volatile_cache = {1, 2, 4, 5, 6},
		nobarrier_cache_unknown = {1, 2, 5},
		nobarrier_protected = {1, 4},
		xfs_barrier_option = {3},
	},
	settings = {"mount.option.barrier"},
	needs = {"fs.type", "fs.mount_options"},
	uses = {"fs.super_options", "fs.mount_point", "device.write_cache", "device.write_cache_protected",
		"host.kernel", "host.target_os"},
	check = check,
	tests = {
		{name = "ext4 nobarrier over a volatile cache: warn, remount with barrier",
			facts = {fs = fs("ext4", {"rw", "relatime"}, {"rw", "nobarrier"}), device = {write_cache = "write back"}},
			expect = {{name = "nobarrier_volatile_cache", severity = "warn", setting = "mount.option.barrier",
				recommended = true, current = false, disruption = "remount"}}},
		{name = "barrier=0 as hand-written: the same option",
			facts = {fs = fs("ext4", {"rw", "barrier=0"}), device = {write_cache = "write back"}},
			expect = {{name = "nobarrier_volatile_cache", severity = "warn"}}},
		{name = "btrfs nobarrier over a volatile cache",
			facts = {fs = fs("btrfs", {"rw", "relatime", "nobarrier"}), device = {write_cache = "write back"}},
			expect = {{name = "nobarrier_volatile_cache", severity = "warn"}}},
		{name = "default barriers over a volatile cache: nothing",
			facts = {fs = fs("ext4", {"rw", "relatime"}, {"rw", "errors=remount-ro"}),
				device = {write_cache = "write back"}},
			expect = {}},
		{name = "nobarrier on a write-through device: nothing to flush",
			facts = {fs = fs("ext4", {"rw", "nobarrier"}), device = {write_cache = "write through"}},
			expect = {}},
		{name = "nobarrier over a cache the admin states is protected: info",
			facts = {fs = fs("ext4", {"rw", "nobarrier"}), device = {write_cache = "write back",
				write_cache_protected = true}},
			expect = {{name = "nobarrier_protected", severity = "info"}}},
		{name = "protected stated false: still the warning",
			facts = {fs = fs("ext4", {"rw", "nobarrier"}), device = {write_cache = "write back",
				write_cache_protected = false}},
			expect = {{name = "nobarrier_volatile_cache", severity = "warn"}}},
		{name = "cache state unknown: suggest",
			facts = {fs = fs("ext4", {"rw", "nobarrier"})},
			expect = {{name = "nobarrier_cache_unknown", severity = "suggest", setting = "mount.option.barrier"}}},
		{name = "XFS on an old kernel with nobarrier: the fstab entry breaks on 4.19+",
			facts = {host = {kernel = "4.14.0"}, fs = fs("xfs", {"rw", "relatime", "nobarrier"}),
				device = {write_cache = "write back"}},
			expect = {{name = "xfs_barrier_option", severity = "warn", disruption = "advice"}}},
		{name = "XFS without the options: nothing",
			facts = {fs = fs("xfs", {"rw", "relatime"}), device = {write_cache = "write back"}},
			expect = {}},
		{name = "ext2 has no barrier option: nothing",
			facts = {fs = fs("ext2", {"rw", "relatime"}), device = {write_cache = "write back"}},
			expect = {}},
		{name = "not mounted", facts = {fs = {type = "ext4"}}, expect = "not_evaluated"},
	},
}
