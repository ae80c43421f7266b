-- FreeBSD UFS on flash: soft updates with journaling (newfs -U -j) and the TRIM flag (newfs -t), at
-- creation, or turned on later with tunefs on the unmounted filesystem.

local SOURCES = {
	"newfs(8): -U enables soft updates, -j soft updates journaling, -t the TRIM flag ('if the underlying "
		.. "device supports the BIO_DELETE command, the file system will send a delete request to the "
		.. "underlying device for each freed block') [FB-newfs8]",
	"tuning(7): soft updates are recommended on most filesystems: metadata creates and deletes are much "
		.. "faster, at the cost of blocks being freed some seconds late [FB-tuning]",
	"tunefs(8): -n enable (soft updates), -j enable (soft updates journaling), -t enable (TRIM) on an "
		.. "unmounted or read-only filesystem; -p prints the current flags",
}

-- Flash as the facts say it: not rotational, or an NVMe or eMMC device.
local function is_flash(d)
	return d.rotational == false or d.transport == "nvme" or d.transport == "mmc"
end

local function check(facts)
	local out = {}
	local d, f = facts.device, facts.fs
	if not fstune.is_freebsd() or d == nil or not is_flash(d) then return out end
	local dev = d.path or (d.name and ("/dev/" .. d.name)) or "/dev/ada0p2"
	if fstune.is_blank() then
		out[1] = {name = "newfs_flash_flags", severity = "suggest", confidence = 0.7,
			title = "UFS on flash: newfs -U -j -t (soft updates with journaling, TRIM)",
			rationale = string.format("The filesystem to make sits on flash (%s). Make it with soft updates and "
				.. "their journal (-U -j): metadata updates are ordered in memory instead of written "
				.. "synchronously, and after a crash the journal is replayed in seconds instead of a background "
				.. "fsck of the whole filesystem. Add -t so every freed block is trimmed (BIO_DELETE), which "
				.. "keeps the drive's garbage collection informed; on drives whose TRIM is slow, leave -t out "
				.. "and trim now and then with 'fsck_ffs -E' on the unmounted filesystem. With the block and "
				.. "fragment sizes the other advice gives: newfs -U -j -t [-b ... -f ...] %s.",
				d.transport == "nvme" and "an NVMe device" or "a non-rotational device", dev),
			evidence = fstune.present({"host.target_os", "device.rotational", "device.transport"})}
	elseif f and f.type == "ufs" then
		out[1] = {name = "tunefs_flash_flags", severity = "info", confidence = 0.5,
			title = "UFS on flash: check soft updates journaling and TRIM with tunefs -p",
			rationale = string.format("This UFS sits on flash; whether it has soft updates, their journal and "
				.. "the TRIM flag is not in the facts. 'tunefs -p %s' prints them. Any that are off can be "
				.. "turned on without a new filesystem, on the unmounted (or read-only) filesystem: "
				.. "'tunefs -n enable -j enable -t enable %s'. Soft updates order metadata writes in memory and "
				.. "their journal makes the check after a crash a replay of seconds; TRIM tells the drive which "
				.. "blocks are free.", dev, dev),
			evidence = fstune.present({"host.target_os", "device.rotational", "device.transport", "fs.type"})}
	end
	return out
end

return fstune.rule {
	id = "freebsd_flash",
	title = "FreeBSD UFS on flash: soft updates journaling and TRIM (newfs -U -j -t, tunefs)",
	description = [[
- a FreeBSD target on flash (rotational false, NVMe or MMC) with no filesystem yet: suggest newfs
  -U -j -t (soft updates with journaling, TRIM on every freed block).
- an existing UFS there: info to read the flags with tunefs -p and turn the missing ones on with
  tunefs -n enable -j enable -t enable on the unmounted filesystem. Advice only: fstune runs on
  Linux and prints no FreeBSD command to apply.]],
	sources = SOURCES,
	-- Each recommendation cites the sources it rests on (indices into SOURCES), not the whole list.
	rec_sources = {newfs_flash_flags = {1, 2}, tunefs_flash_flags = {3, 2, 1}},
	settings = {},
	needs = {"host.target_os"},
	uses = {"device.rotational", "device.transport", "device.path", "device.name", "fs.type"},
	check = check,
	tests = {
		{name = "new UFS on an NVMe SSD: newfs -U -j -t",
			facts = {host = {target_os = "freebsd"}, device = {name = "nda0p2", transport = "nvme",
				rotational = false}},
			expect = {{name = "newfs_flash_flags", severity = "suggest", disruption = "advice"}}},
		{name = "existing UFS on a SATA SSD: tunefs -p",
			facts = {host = {target_os = "freebsd"}, device = {name = "ada0p2", transport = "sata", rotational = false},
				fs = {type = "ufs", mount_point = "/var"}},
			expect = {{name = "tunefs_flash_flags", severity = "info"}}},
		{name = "UFS on a rotating disk: nothing",
			facts = {host = {target_os = "freebsd"}, device = {name = "ada1", transport = "sata", rotational = true}},
			expect = {}},
		{name = "Linux target on NVMe: not this rule's",
			facts = {host = {target_os = "linux"}, device = {name = "nvme0n1", transport = "nvme", rotational = false}},
			expect = {}},
		{name = "ZFS on the SSD: not UFS, nothing",
			facts = {host = {target_os = "freebsd"}, device = {name = "ada0p3", rotational = false},
				fs = {type = "zfs_member"}},
			expect = {}},
		{name = "no target OS", facts = {device = {rotational = false}}, expect = "not_evaluated"},
	},
}
