-- NVMe namespaces formatted with 512-byte LBAs although the drive reports 4 KiB physical blocks
-- (512e): many drives offer a 4 KiB LBA format, listed with its relative performance by nvme id-ns.
-- Switching is a low-level format that erases the namespace, so this is a note to check, not a change.

local SOURCES = {
	"nvme-id-ns(1): -H prints the LBA formats (LBAF) of the namespace with their data size, metadata "
		.. "size, 'Relative Performance' and which one is '(in use)'",
	"nvme-format(1): --lbaf selects the LBA format; a format erases the user data of the namespace "
		.. "(--ses chooses a secure erase on top)",
	"Documentation/ABI/stable/sysfs-block: queue/logical_block_size is the smallest unit the device "
		.. "addresses, queue/physical_block_size the smallest it writes atomically [L-sysfs-block]",
}

local function check(facts)
	local out = {}
	local d = facts.device
	if d == nil or d.transport ~= "nvme" or fstune.is_freebsd() then
		return out
	end
	local lbs, pbs = fstune.positive(d.logical_block_size), fstune.positive(d.physical_block_size)
	if lbs ~= 512 or not pbs or pbs < 4096 then return out end
	local ns = d.disk or d.name or "nvme0n1"
	out[1] = {name = "lba_format_512e", severity = "info", confidence = 0.6, precedes_mkfs = true,
		title = string.format("%s uses 512-byte LBAs over %s physical blocks: check its 4 KiB LBA format",
			ns, fstune.fmt_bytes(pbs)),
		rationale = string.format("The namespace %s is formatted with 512-byte logical blocks while the drive "
			.. "reports %s physical blocks. Many NVMe drives also offer a 4096-byte LBA format; 'nvme id-ns -H "
			.. "/dev/%s' lists them with their 'Relative Performance' and marks the one in use. With a 4 KiB "
			.. "format the drive never sees a write smaller than its physical block (it has to "
			.. "read-modify-write those) and keeps a smaller mapping table; filesystems with 4 KiB blocks "
			.. "already write in 4 KiB units, so the gain is mostly for software doing 512-byte O_DIRECT I/O "
			.. "and for the drive's internal work. Changing it is 'nvme format /dev/%s --lbaf=N': it erases "
			.. "every byte of the namespace and its partition table, so only with the data backed up, or on "
			.. "a new drive before it is partitioned.", ns, fstune.fmt_bytes(pbs), ns, ns),
		evidence = fstune.present({"device.transport", "device.logical_block_size", "device.physical_block_size"})}
	return out
end

return fstune.rule {
	id = "nvme_lbaf",
	title = "NVMe namespaces formatted 512e over 4 KiB physical blocks: check the LBA formats",
	description = [[
- an NVMe namespace with 512-byte logical and 4096-byte (or larger) physical blocks: info to list
  its LBA formats (nvme id-ns -H) and that nvme format --lbaf erases the namespace. Nothing to
  run: the format is the admin's decision, with a backup. Marked precedes_mkfs: a merged mkfs
  command of the same report names it first, since a format after the mkfs would erase it.]],
	sources = SOURCES,
	settings = {},
	needs = {},
	uses = {"device.transport", "device.logical_block_size", "device.physical_block_size", "device.disk",
		"device.name", "host.target_os"},
	check = check,
	tests = {
		{name = "NVMe 512e over 4 KiB physical: info",
			facts = {device = {name = "nvme0n1p1", disk = "nvme0n1", transport = "nvme", logical_block_size = 512,
				physical_block_size = 4096}},
			expect = {{name = "lba_format_512e", severity = "info", disruption = "advice", precedes_mkfs = true}}},
		{name = "NVMe already 4Kn: nothing",
			facts = {device = {name = "nvme0n1", transport = "nvme", logical_block_size = 4096,
				physical_block_size = 4096}},
			expect = {}},
		{name = "NVMe reporting 512 physical: nothing to go on",
			facts = {device = {name = "nvme0n1", transport = "nvme", logical_block_size = 512,
				physical_block_size = 512}},
			expect = {}},
		{name = "SATA 512e: not an NVMe format",
			facts = {device = {name = "sda", transport = "sata", logical_block_size = 512,
				physical_block_size = 4096}},
			expect = {}},
		{name = "physical size unknown: nothing",
			facts = {device = {name = "nvme0n1", transport = "nvme", logical_block_size = 512}},
			expect = {}},
	},
}
