-- Zoned and shingled (SMR) disks: a host-managed or host-aware disk wants a filesystem that writes
-- zones sequentially (btrfs zoned, f2fs, XFS zoned on recent kernels) or dm-zoned under one that
-- cannot; ext4 is not one. Drive-managed SMR hides its zones and stalls for long under sustained
-- random writes, which is what a RAID rebuild is.

local SOURCES = {
	"Documentation/ABI/stable/sysfs-block: queue/zoned is 'none', 'host-aware' (sequential writes "
		.. "preferred) or 'host-managed' (sequential writes required) [L-sysfs-block]",
	"btrfs documentation, zoned mode: supported since Linux 5.12; mkfs.btrfs detects a zoned device "
		.. "and sets the zoned feature",
	"Documentation/filesystems/f2fs.rst: f2fs supports zoned block devices (Linux 4.10 and later); its "
		.. "metadata needs conventional zones or a second, regular device (mkfs.f2fs -m)",
	"XFS zoned (realtime device on zoned storage): Linux 6.15 and later, with an xfsprogs that makes it",
	"Documentation/admin-guide/device-mapper/dm-zoned.rst: dm-zoned exposes a zoned disk as a regular "
		.. "block device for filesystems that write at random, such as ext4",
	"Western Digital, April 2020: WD Red 2-6 TB drives whose model ends in EFAX use drive-managed SMR; "
		.. "their long stalls under sustained random writes failed RAID and ZFS rebuilds",
	"zonedstorage.io, Linux file systems: ext4 does not support host-managed zoned block devices; "
		.. "Linux 6.8 (commit 7437bb73f087, 'block: remove support for the host aware zone model') uses "
		.. "host-aware disks as regular ones",
}

-- Model numbers the vendor itself listed as drive-managed SMR; a model this list does not name proves
-- nothing (the admin can state device.zoned = "drive-managed").
local function dm_smr_model(model)
	return type(model) == "string" and model:match("WD[2-6]0EFAX") ~= nil
end

local function under_raid(d)
	if d.transport == "md" or d.md_level ~= nil then return "an md array" end
	if d.holders and #d.holders > 0 then return "a holder device (" .. tostring(d.holders[1]) .. ")" end
	return nil
end

local function zoned_fs_ok(f)
	if f == nil or f.type == nil then return false end
	if f.type == "f2fs" then return true end
	return (f.type == "btrfs" or f.type == "xfs") and fstune.contains(f.features, "zoned")
end

local WHAT = "btrfs in zoned mode (Linux 5.12 and later: mkfs.btrfs sets it on a zoned disk), f2fs "
	.. "(metadata on conventional zones or a second device), XFS zoned (Linux 6.15 and later), or, for a "
	.. "filesystem that must write at random, dm-zoned under it"

-- Why fstune gives no ext4 or ext2 mkfs, reserve, bigalloc or inode advice for this disk.
local function why_no_ext(z)
	if z == "host-managed" then
		return "fstune gives no ext4 or ext2 mkfs, reserve, bigalloc or inode advice for it: ext4 has no "
			.. "zoned support, and the disk refuses its writes in place to sequential zones (sequential write "
			.. "required)."
	end
	return "fstune gives no ext4 or ext2 mkfs, reserve, bigalloc or inode advice for it either: ext4 would "
		.. "run (a host-aware disk takes random writes and rewrites its zones behind them), but those "
		.. "rewrites stall for longer as it fills, and a better-tuned ext4 does not change that. (From Linux "
		.. "6.8 the kernel no longer reports host-aware disks as zoned: it uses them as regular disks.)"
end

local function host_zoned(facts, d, z, out)
	local f = facts.fs
	if zoned_fs_ok(f) then return end
	local name = d.name or d.disk or "the disk"
	if fstune.is_blank() then
		out[#out + 1] = {name = "zoned_disk_choice", severity = "suggest", confidence = 0.8,
			title = string.format("a %s zoned disk: make a zone-aware filesystem, not ext4", z),
			rationale = string.format("%s reports zoned = %s: its zones must (host-managed) or should "
				.. "(host-aware) be written sequentially, and ext4 writes in place at random. What fits: %s. %s",
				name, z, WHAT, why_no_ext(z)),
			evidence = fstune.present({"device.zoned"})}
	elseif f ~= nil and (fstune.is_ext(f.type) or f.type == "xfs" or f.type == "btrfs") then
		out[#out + 1] = {name = "zoned_disk_wrong_fs", severity = "warn", confidence = 0.8,
			title = string.format("%s on a %s zoned disk: it does not write the zones sequentially",
				f.type, z),
			rationale = string.format("%s reports zoned = %s: its zones must (host-managed) or should "
				.. "(host-aware) be written sequentially. %s writes in place at random, which a host-managed "
				.. "disk refuses and a host-aware one absorbs with internal rewrites whose stalls grow as it "
				.. "fills. What fits: %s. Moving to one means copying the data off and making the new "
				.. "filesystem.%s", name, z, f.type, WHAT, fstune.is_ext(f.type) and (" " .. why_no_ext(z)) or ""),
			evidence = fstune.present({"device.zoned", "fs.type", "fs.features"})}
	end
end

local function check(facts)
	local out = {}
	local d = facts.device
	if d == nil or fstune.is_freebsd() then return out end
	local z = d.zoned
	if z == "host-managed" or z == "host-aware" then
		host_zoned(facts, d, z, out)
		return out
	end
	local stated = z == "drive-managed"
	if not stated and not dm_smr_model(d.model) then return out end
	local how = stated and "the facts state the disk is drive-managed SMR"
		or string.format("its model (%s) is one Western Digital listed as drive-managed SMR", d.model)
	local raid = under_raid(d)
	if raid then
		out[#out + 1] = {name = "dm_smr_in_raid", severity = "warn", confidence = stated and 0.7 or 0.6,
			title = "drive-managed SMR under RAID: rebuilds can stall for long enough to drop disks",
			rationale = string.format("This disk sits under %s, and %s. Such a disk stages random writes "
				.. "in a small conventional area and rewrites whole shingled bands behind it; under sustained "
				.. "random writes, which is what a rebuild or a scrub with repairs produces, it stalls for "
				.. "seconds at a time. RAID layers then time it out or rebuilds take days, during which a "
				.. "second failure loses the array (in 2020 this failed RAID and ZFS rebuilds on WD Red EFAX "
				.. "drives). Replace it with a CMR drive before the next rebuild; host-managed SMR with a "
				.. "zone-aware filesystem is the other way.", raid, how),
			evidence = fstune.present({"device.zoned", "device.model", "device.transport", "device.md_level",
				"device.holders"})}
	else
		out[#out + 1] = {name = "dm_smr", severity = "info", confidence = stated and 0.7 or 0.6,
			title = "drive-managed SMR: sustained random writes stall it",
			rationale = string.format("%s. Such a disk hides its zones (the kernel reports zoned = none) and "
				.. "stages random writes in a small conventional area; once that fills, writes wait for whole "
				.. "shingled bands to be rewritten. Fine for archives written sequentially; a poor fit for "
				.. "databases or VM images, and never a RAID member.", how:gsub("^%l", string.upper)),
			evidence = fstune.present({"device.zoned", "device.model"})}
	end
	return out
end

return fstune.rule {
	id = "zoned",
	title = "Zoned and SMR disks: zone-aware filesystems; drive-managed SMR under RAID",
	description = [[
- device.zoned host-managed or host-aware: a filesystem that is not zone-aware on it (ext4, XFS or
  btrfs without the zoned feature) is a warning; a blank disk gets what to make: btrfs zoned,
  f2fs, XFS zoned (6.15+), or dm-zoned under a filesystem that writes at random. Never ext4: the
  rules that propose mkfs, a reserve, bigalloc or an inode ratio stay silent on such a disk
  (fstune.zoned()), and this rule says why: a host-managed disk refuses ext4's writes in place, a
  host-aware one absorbs them with stalls no tuning removes.
- drive-managed SMR (stated as device.zoned = "drive-managed", or a WD Red EFAX model the vendor
  listed): warn under md or another holder (rebuilds stall and drop disks), info otherwise.]],
	sources = SOURCES,
	-- Each recommendation cites the sources it rests on (indices into SOURCES), not the whole list.
	rec_sources = {
		zoned_disk_wrong_fs = {1, 2, 3, 4, 5, 7},
		zoned_disk_choice = {1, 2, 3, 4, 5, 7},
		dm_smr_in_raid = {6},
		dm_smr = {6},
	},
	settings = {},
	needs = {},
	uses = {"device.zoned", "device.model", "device.name", "device.transport", "device.md_level",
		"device.holders", "fs.type", "fs.features", "host.target_os"},
	check = check,
	tests = {
		{name = "ext4 on a host-aware disk: warn",
			facts = {device = {name = "sdb", zoned = "host-aware"}, fs = {type = "ext4", features = {"has_journal"}}},
			expect = {{name = "zoned_disk_wrong_fs", severity = "warn", disruption = "advice"}}},
		{name = "blank host-managed disk: what to make",
			facts = {device = {name = "sdc", zoned = "host-managed"}},
			expect = {{name = "zoned_disk_choice", severity = "suggest"}}},
		{name = "btrfs zoned on a host-managed disk: nothing",
			facts = {device = {name = "sdc", zoned = "host-managed"}, fs = {type = "btrfs", features = {"zoned"}}},
			expect = {}},
		{name = "btrfs without the zoned feature on a host-aware disk: warn",
			facts = {device = {name = "sdc", zoned = "host-aware"}, fs = {type = "btrfs", features = {"no_holes"}}},
			expect = {{name = "zoned_disk_wrong_fs", severity = "warn"}}},
		{name = "f2fs on a host-managed disk: nothing",
			facts = {device = {name = "sdc", zoned = "host-managed"}, fs = {type = "f2fs"}},
			expect = {}},
		{name = "conventional disk: nothing",
			facts = {device = {name = "sda", zoned = "none", model = "ST4000NM000A"}, fs = {type = "ext4"}},
			expect = {}},
		{name = "WD Red EFAX as an md member: warn",
			facts = {device = {name = "sdb", zoned = "none", model = "WDC WD40EFAX-68JH4N0", holders = {"md0"}}},
			expect = {{name = "dm_smr_in_raid", severity = "warn"}}},
		{name = "drive-managed stated, md array: warn",
			facts = {device = {name = "md0", transport = "md", md_level = "raid5", zoned = "drive-managed"}},
			expect = {{name = "dm_smr_in_raid", severity = "warn"}}},
		{name = "WD Red EFAX alone: info",
			facts = {device = {name = "sdb", zoned = "none", model = "WDC WD60EFAX-68SHWN0"}},
			expect = {{name = "dm_smr", severity = "info"}}},
		{name = "WD Red Plus EFZX (CMR): nothing",
			facts = {device = {name = "sdb", zoned = "none", model = "WDC WD40EFZX-68AWUN0", holders = {"md0"}}},
			expect = {}},
		{name = "no device branch (an image): nothing", facts = {fs = {type = "ext4"}}, expect = {}},
		{name = "member of a mounted filesystem: in use, no mkfs advice",
			facts = {device = {name = "sdc", zoned = "host-managed"},
				fs = {member_of = {type = "btrfs", mount_point = "/srv"}}},
			expect = {}},
	},
}
