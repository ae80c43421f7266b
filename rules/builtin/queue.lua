-- The block-layer I/O scheduler, only against a clear mismatch with the kind of device.
local fstune = fstune

-- Transports whose "rotational" flag says nothing about the medium: virtual, stacked or
-- bridged devices (Linux guests assume rotational storage unless the hypervisor says otherwise;
-- loop and ram devices have reported 1).
local opaque = { virtio = true, xen = true, loop = true, zram = true, md = true, dm = true,
	usb = true, mmc = true, unknown = true }

-- The disk as the facts name it; hand-written facts of a planned server may name none.
local function disk_name(d)
	return d.disk or d.name or "this disk"
end

-- Both NVMe findings ask for the same change; they differ in how sure they are and why.
local function nvme_to_none(name, severity, confidence, rationale, evidence)
	return { name = name, setting = "queue.scheduler", recommended = "none", severity = severity,
		confidence = confidence, title = "Use no I/O scheduler (none) on this NVMe drive",
		rationale = rationale, evidence = evidence }
end

local function nvme(facts)
	local d = facts.device
	local hwq = d.nr_hw_queues
	if d.scheduler == "bfq" then
		return nvme_to_none("bfq_on_nvme", "warn", 0.8,
			"BFQ runs on " .. disk_name(d) .. ", an NVMe drive. BFQ favours latency for " ..
				"interactive desktops; its documentation gives about 1.9 us of CPU per request and a " ..
				"ceiling of roughly 80-400 KIOPS depending on the CPU, below what many NVMe drives " ..
				"sustain. " ..
				"The kernel's own default for a multi-queue device is none, which is also tuned's " ..
				"choice for nvme*.",
			{ "device.transport", "device.scheduler" })
	end
	-- mq-deadline is the kernel's default for a single hardware queue, so only a multi-queue
	-- NVMe drive running it is a mismatch.
	if d.scheduler == "mq-deadline" and hwq and hwq > 1 then
		return nvme_to_none("mq_deadline_on_nvme", "suggest", 0.6,
			string.format("%s is an NVMe drive with %d hardware queues running " ..
				"mq-deadline. For a multi-queue device the kernel's default is none (block/elevator.c), " ..
				"and mq-deadline adds a shared lock and per-request work that such a drive does not " ..
				"need. Keep mq-deadline only if you chose it for its read/write deadlines.", disk_name(d), hwq),
			{ "device.transport", "device.scheduler", "device.nr_hw_queues" })
	end
end

local function hdd(facts)
	local d = facts.device
	if d.scheduler ~= "none" then
		return nil
	end
	return {
		name = "none_on_hdd",
		setting = "queue.scheduler",
		recommended = "mq-deadline",
		severity = "suggest",
		confidence = 0.7,
		title = "Use mq-deadline on this rotating disk",
		rationale = disk_name(d) .. " is a rotating " .. string.upper(d.transport) .. " disk on bare " ..
			"metal with no I/O scheduler. For a single-queue device the kernel's default is " ..
			"mq-deadline, which sorts and merges requests and keeps writes from starving reads, " ..
			"which matters at a disk's few hundred IOPS. bfq is the alternative for mixed " ..
			"interactive loads.",
		evidence = { "device.transport", "device.rotational", "host.virtualization",
			"device.scheduler" },
	}
end

-- The kernel release as major * 100 + minor (6.9 -> 609), nil when the facts do not say.
local function kernel_release(host)
	if type(host and host.kernel) ~= "string" then return nil end
	local major, minor = host.kernel:match("^(%d+)%.(%d+)")
	if not major then return nil end
	return tonumber(major) * 100 + tonumber(minor)
end

-- A zoned disk takes the writes to each zone in order only. From 4.16 to 6.9 the block layer left
-- that to mq-deadline's zone write locking (the kernel's default for such disks); 6.10's zone write
-- plugging orders them for every scheduler, none included. Before 6.10 (or when the facts do not
-- say the kernel): mq-deadline, and nothing of the advice for unzoned devices.
local function zoned_before_6_10(facts)
	local z = fstune.zoned()
	local release = kernel_release(facts.host)
	if not z or (release and release >= 610) then return nil end
	local d = facts.device
	if d.scheduler ~= "none" then return {} end
	local managed = z == "host-managed"
	return { {
		name = "none_on_zoned", setting = "queue.scheduler", recommended = "mq-deadline",
		severity = (managed and release) and "warn" or "suggest", confidence = 0.8,
		title = string.format("Use mq-deadline on this %s zoned disk: %s", z,
			release and "before Linux 6.10 it keeps zone writes in order" or "kernels before 6.10 need it"),
		rationale = string.format("%s is a %s zoned disk with no I/O scheduler, on %s. Its zones take " ..
			"writes only in order, at the zone's write pointer. From Linux 4.16 to 6.9 the block layer " ..
			"left that order to mq-deadline's zone write locking, which is why the kernel picks it for " ..
			"zoned disks; with none, writes to one zone issued together can reach the disk out of order, " ..
			"which a host-managed disk fails (an I/O error the filesystem sees) and a host-aware one " ..
			"absorbs with internal rewrites. Linux 6.10's zone write plugging orders them for every " ..
			"scheduler, so from there on none is fine.", disk_name(d), z,
			release and ("Linux " .. facts.host.kernel) or "a kernel the facts do not name (older than 6.10?)"),
		evidence = { "device.zoned", "device.scheduler", "host.kernel" },
	} }
end

local function check(facts)
	local d = facts.device
	local t = d.transport
	local zoned = zoned_before_6_10(facts)
	if zoned then
		return zoned
	end
	if t == "nvme" then
		return { nvme(facts) }
	end
	-- Classify by transport and virtualization before trusting rotational.
	if opaque[t] then
		return {}
	end
	local virt = facts.host and facts.host.virtualization
	if (t == "sata" or t == "sas") and virt == "none" and d.rotational == true then
		return { hdd(facts) }
	end
	return {}
end

local function dev(transport, rotational, scheduler, extra)
	return fstune.merge({ disk = transport == "nvme" and "nvme0n1" or "sda", name = "sda",
		transport = transport, rotational = rotational, scheduler = scheduler }, extra)
end

return fstune.rule {
	id = "queue",
	title = "I/O scheduler against the kind of device",
	description = "Recommends a scheduler only where the current one clearly does not fit the " ..
		"device: bfq (or mq-deadline on a multi-queue drive) on NVMe, and none on a rotating " ..
		"SATA/SAS disk on bare metal. The device is classified by its transport and by whether " ..
		"the host is virtual before its rotational flag is believed, since virtual, stacked and " ..
		"USB devices report it unreliably. Kernel defaults (none for multi-queue, mq-deadline for " ..
		"single-queue devices) get nothing. A zoned (host-managed or host-aware) disk before Linux 6.10 " ..
		"needs mq-deadline to keep its zone writes in order: none there is a warning (host-managed; " ..
		"suggest for host-aware or an unknown kernel) with that reason, and no other scheduler advice.",
	sources = {
		"Linux block/elevator.c elevator_get_default(): mq-deadline for single-queue devices, none otherwise",
		"Linux Documentation/block/bfq-iosched.rst: per-request overhead and throughput ceiling",
		"tuned profiles (spectrumscale-ece: elevator none on nvme*)",
		"libvirt, via SUSE/sesdev issue 37: Linux guests assume rotational storage",
		"Linux 4.16 block/mq-deadline.c zone write locking (the default elevator of zoned disks through " ..
			"6.9); Linux 6.10 block/blk-zoned.c zone write plugging, for every scheduler",
	},
	-- Each recommendation cites the sources it rests on (indices into sources), not the whole list.
	rec_sources = {
		bfq_on_nvme = { 1, 2, 3, 4 },
		mq_deadline_on_nvme = { 1, 2, 3, 4 },
		none_on_hdd = { 1, 2, 3, 4 },
		none_on_zoned = { 5, 1 },
	},
	settings = { "queue.scheduler" },
	needs = { "device.transport", "device.scheduler" },
	uses = { "device.disk", "device.name", "device.rotational", "device.nr_hw_queues",
		"host.virtualization", "device.zoned", "host.kernel" },
	check = check,
	tests = {
		{ name = "bfq on NVMe",
			facts = { host = { virtualization = "none" },
				device = dev("nvme", false, "bfq", { nr_hw_queues = 8, serial = "S4EWNX0R123456" }) },
			expect = { { name = "bfq_on_nvme", recommended = "none", severity = "warn" } } },
		{ name = "mq-deadline on 16-queue NVMe",
			facts = { device = dev("nvme", false, "mq-deadline", { nr_hw_queues = 16 }) },
			expect = { { name = "mq_deadline_on_nvme", severity = "suggest" } } },
		{ name = "mq-deadline on single-queue NVMe is the kernel default",
			facts = { device = dev("nvme", false, "mq-deadline", { nr_hw_queues = 1 }) },
			expect = {} },
		{ name = "none on NVMe: healthy default",
			facts = { device = dev("nvme", false, "none", { nr_hw_queues = 8 }) },
			expect = {} },
		{ name = "none on a bare-metal SATA HDD",
			facts = { host = { virtualization = "none" }, device = dev("sata", true, "none") },
			expect = { { name = "none_on_hdd", recommended = "mq-deadline", current = "none" } } },
		{ name = "mq-deadline on a SATA HDD: healthy default",
			facts = { host = { virtualization = "none" }, device = dev("sata", true, "mq-deadline") },
			expect = {} },
		{ name = "virtio disk claiming rotational, none",
			facts = { host = { virtualization = "kvm" }, device = dev("virtio", true, "none") },
			expect = {} },
		{ name = "SAS disk in a VM (passthrough unknown): rotational not trusted",
			facts = { host = { virtualization = "vmware" }, device = dev("sas", true, "none") },
			expect = {} },
		{ name = "virtualization unknown: no claim of bare metal",
			facts = { device = dev("sata", true, "none") },
			expect = {} },
		{ name = "SATA SSD with none",
			facts = { host = { virtualization = "none" }, device = dev("sata", false, "none") },
			expect = {} },
		{ name = "planned server described by hand without device.disk: the advice stands",
			facts = { host = { virtualization = "none" }, device = { name = "sdb", transport = "sata",
				rotational = true, scheduler = "none" } },
			expect = { { name = "none_on_hdd", recommended = "mq-deadline", disruption = "runtime" } } },
		{ name = "no device name at all: the advice stands (the command carries a placeholder)",
			facts = { host = { virtualization = "none" }, device = { transport = "nvme", rotational = false,
				scheduler = "bfq" } },
			expect = { { name = "bfq_on_nvme", recommended = "none" } } },
		{ name = "hand-written NVMe without device.disk on its default: nothing",
			facts = { device = { name = "nvme0n1", transport = "nvme", rotational = false, scheduler = "none",
				nr_hw_queues = 8 } },
			expect = {} },
		{ name = "host-managed SMR disk with none on Linux 6.1: warn, with the zone reason",
			facts = { host = { virtualization = "none", kernel = "6.1.0-18-amd64" },
				device = dev("sata", true, "none", { zoned = "host-managed" }) },
			expect = { { name = "none_on_zoned", recommended = "mq-deadline", severity = "warn" } } },
		{ name = "host-managed SMR disk with none on Linux 6.10: zone write plugging, the usual HDD advice",
			facts = { host = { virtualization = "none", kernel = "6.10.3" },
				device = dev("sata", true, "none", { zoned = "host-managed" }) },
			expect = { { name = "none_on_hdd", recommended = "mq-deadline", severity = "suggest" } } },
		{ name = "zoned NVMe (ZNS) on mq-deadline before 6.10: no advice to drop it",
			facts = { host = { kernel = "6.6.30" },
				device = dev("nvme", false, "mq-deadline", { zoned = "host-managed", nr_hw_queues = 16 }) },
			expect = {} },
		{ name = "host-aware disk with none, kernel unknown: suggest",
			facts = { device = dev("sas", true, "none", { zoned = "host-aware" }) },
			expect = { { name = "none_on_zoned", severity = "suggest" } } },
		{ name = "no scheduler fact: not evaluated",
			facts = { device = { disk = "sda", transport = "sata" } },
			expect = "not_evaluated" },
	},
}
