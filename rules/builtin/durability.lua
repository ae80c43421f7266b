-- Write cache and durability: does a flush reach the media? Judged from the measured latency of an
-- fsync'd 4 KiB overwrite against what the device claims to be.

local SOURCES = {
	"Linux Documentation/block/writeback_cache_control.rst: REQ_PREFLUSH and REQ_FUA force data "
		.. "from a volatile cache to the media [L-wbc]",
	"hdparm(8): -W gets/sets the drive's write-caching feature [HDPARM]",
	"sdparm(8): the WCE bit of the SCSI caching mode page; Linux Documentation/scsi/sd: cache_type [L-sd]",
	"Linux Documentation/ABI/stable/sysfs-block: queue/write_cache 'write back' means the kernel "
		.. "sends flushes [L-sysfs-block]",
	"QEMU block cache modes (cache=writeback/none/writethrough/unsafe/directsync): whether a guest's "
		.. "flush reaches the host's media is the hypervisor's choice",
	"Linux drivers/block/loop.c: lo_req_flush() answers REQ_OP_FLUSH with vfs_fsync() of the backing file",
}

-- A rotating disk cannot put a sector on the platter sooner than the head gets there: half a
-- revolution is 4.2 ms at 7200 rpm and 2 ms at 15000 rpm. An fsync'd overwrite that returns in
-- under 1 ms (this rule's threshold, with margin for the fastest spindles) was acknowledged by a
-- cache.
local MEDIA_MIN_US = 1000

-- USB bridges are included: many acknowledge a flush without passing it on.
local ROTATING_BUS = {sata = true, sas = true, scsi = true, ata = true, usb = true}

-- A loop device has no cache or platter of its own: the loop driver turns a flush into an fsync of
-- the backing file (lo_req_flush, drivers/block/loop.c), and its rotational flag is the driver's.
local function loop_flush(d, virt, ms)
	local file = type(d.loop_backing_file) == "string" and d.loop_backing_file or nil
	local vm = virt ~= nil and virt ~= "none"
	return {{name = "loop_flush", severity = "info", confidence = 0.9,
		title = string.format("%s is a loop device%s: its fsync (%s) is the backing file's", d.name or "The device",
			file and (" over " .. file) or "", ms),
		rationale = string.format("An fsync'd 4 KiB overwrite took %s (median) on %s, a loop device%s. The loop "
			.. "driver passes a flush on as an fsync of that file, so the figure is the durability of the "
			.. "filesystem holding the file and of the storage under it%s, not of a disk: the loop device "
			.. "has no cache or platter of its own, and its rotational flag is the driver's, not hardware's. "
			.. "%sMeasure the device the data will live on for its own durability.", ms, d.name or "the device",
			file and (" over " .. file) or "", vm and string.format(", and in this VM (%s) of the hypervisor's "
				.. "cache mode under that", virt) or "",
			d.loop_direct_io == false and "Without direct I/O (loop_direct_io off) its writes also pass "
				.. "through the page cache of the filesystem holding the file. " or ""),
		evidence = fstune.present({"bench.fsync_4k_overwrite.lat_p50_us", "device.transport", "device.name",
			"device.loop_backing_file", "device.loop_direct_io", "device.rotational", "host.virtualization"})}}
end

local function check(facts)
	local d, h = facts.device, facts.host
	-- an fsync faster than a revolution is what this rule is about: the implausible flag says that too
	local t = fstune.measured("fsync_4k_overwrite", {implausible = true})
	local p50 = t and t.lat_p50_us
	if type(p50) ~= "number" or p50 <= 0 then return {} end
	local ms = fstune.fmt_us(p50)
	local virt = h and h.virtualization
	local ev = fstune.present({"bench.fsync_4k_overwrite.lat_p50_us", "device.rotational", "device.write_cache",
		"device.transport", "host.virtualization"})
	if d.transport == "loop" then return loop_flush(d, virt, ms) end
	if virt ~= nil and virt ~= "none" then
		local fast = d.rotational == true and p50 < MEDIA_MIN_US
		-- One name either way: a median near the threshold must not flip the finding from run to run.
		return {{name = "vm_cache_mode",
			severity = "info", confidence = 0.9,
			title = fast and string.format("This VM's disk claims to rotate but syncs in %s: durability is "
				.. "the hypervisor's", ms)
				or string.format("In a VM (%s) an fsync's durability depends on the hypervisor's cache mode", virt),
			rationale = string.format("An fsync'd 4 KiB overwrite took %s (median) here. %sInside a virtual "
				.. "machine a flush ends at the hypervisor: whether it reaches stable media depends on the disk's "
				.. "cache mode on the host (QEMU's cache=none or writethrough pass flushes on; cache=unsafe "
				.. "drops them) and on the host's own disks. Ask the platform; nothing inside the guest can "
				.. "tell.", ms, fast and string.format("A rotating disk needs several milliseconds to reach "
					.. "the platter (half a revolution is 4.2 ms at 7200 rpm); under %s (this rule's "
					.. "threshold) a cache answered, and the disk's rotational flag is the hypervisor's "
					.. "default, not the hardware. ", fstune.fmt_us(MEDIA_MIN_US)) or ""),
			evidence = ev}}
	end
	if virt ~= "none" then return {} end -- bare metal must be known for a warning
	if d.rotational ~= true or not ROTATING_BUS[d.transport or ""] then return {} end
	if d.write_cache ~= "write back" then return {} end
	if d.write_cache_protected == true or d.topology_hidden == true then return {} end
	if p50 >= MEDIA_MIN_US then return {} end
	ev[#ev + 1] = "device.write_cache_protected"
	return {{name = "flush_not_reaching_media", severity = "warn", confidence = 0.9,
		title = string.format("fsync returns in %s on a rotating disk: flushes do not reach the media", ms),
		rationale = string.format("%s is a rotating %s disk on bare metal with a volatile write cache "
			.. "(queue/write_cache = write back), yet an fsync'd 4 KiB overwrite took %s (median). A platter "
			.. "needs several milliseconds to come round (half a revolution is 4.2 ms at 7200 rpm); under %s "
			.. "(this rule's threshold) the drive or its controller acknowledged the flush from its cache. "
			.. "After a power loss the last acknowledged writes can be gone, and journals and databases "
			.. "rely on them. Check: hdparm -W /dev/%s (SATA) or sdparm --get=WCE /dev/%s (SAS, SCSI, USB); "
			.. "whether a controller in front has a battery or flash-backed cache (then record "
			.. "device.write_cache_protected = true and this warning goes); and that the filesystem is not "
			.. "mounted nobarrier. With no power-loss protection, turn the drive's cache off (hdparm -W0, "
			.. "sdparm --clear=WCE) and measure again.", d.name or "The disk", d.transport:upper(), ms,
			fstune.fmt_us(MEDIA_MIN_US),
			d.disk or d.name or "sdX", d.disk or d.name or "sdX"),
		evidence = ev}}
end

local hdd = {name = "sda", disk = "sda", transport = "sata", rotational = true, write_cache = "write back"}
local function fsync(p50, extra)
	return {fsync_4k_overwrite = fstune.merge({lat_p50_us = p50, direct = "yes", cache_suspect = false}, extra)}
end
local bare = {virtualization = "none"}
local measured = {["bench.fsync_4k_overwrite.lat_p50_us"] = "bench", ["device.rotational"] = "sysfs",
	["device.write_cache"] = "sysfs", ["device.transport"] = "sysfs", ["host.virtualization"] = "procfs"}
local function with(t, k, v)
	local c = {}
	for a, b in pairs(t) do c[a] = b end
	c[k] = v
	return c
end

return fstune.rule {
	id = "durability",
	title = "Write cache and durability: does a flush reach the media?",
	description = "A rotating SATA/SAS disk on bare metal with a volatile write cache whose measured "
		.. "fsync_4k_overwrite median is below 1 ms acknowledges flushes from its cache: a warning, with "
		.. "what to check. In a virtual machine, an information that durability depends on the "
		.. "hypervisor's cache mode. On a loop device, that the figure is its backing file's (the loop "
		.. "driver turns a flush into an fsync of the file), naming the file. A protected cache "
		.. "(device.write_cache_protected, or hardware RAID "
		.. "that hides its topology) is not warned about; a result flagged cache_suspect or not direct "
		.. "is not used.",
	sources = SOURCES,
	-- Each recommendation cites the sources it rests on (indices into SOURCES), not the whole list.
	rec_sources = {flush_not_reaching_media = {1, 2, 3, 4}, vm_cache_mode = {1, 5}, loop_flush = {6}},
	settings = {},
	needs = {"device.rotational"},
	uses = {"bench.fsync_4k_overwrite.lat_p50_us", "device.write_cache", "device.transport",
		"device.write_cache_protected", "device.topology_hidden", "host.virtualization", "device.name",
		"device.loop_backing_file", "device.loop_direct_io"},
	check = check,
	tests = {
		{name = "bare-metal SATA disk, write back, fsync 0.15 ms: flushes stop in the cache",
			facts = {host = bare, device = hdd, bench = fsync(150), sources = measured},
			expect = {{name = "flush_not_reaching_media", severity = "warn", confidence = 0.8}}},
		{name = "the same disk measured at 8.3 ms: flushes reach the platter, nothing",
			facts = {host = bare, device = hdd, bench = fsync(8300), sources = measured},
			expect = {}},
		{name = "0.15 ms but the result was flagged as a cache effect: no warning",
			facts = {host = bare, device = hdd, bench = fsync(150, {cache_suspect = true}), sources = measured},
			expect = {}},
		{name = "0.15 ms but measured through the page cache (direct = no): no warning",
			facts = {host = bare, device = hdd, bench = fsync(150, {direct = "no"}), sources = measured},
			expect = {}},
		{name = "0.15 ms behind a battery-backed controller (write_cache_protected): no warning",
			facts = {host = bare, device = with(hdd, "write_cache_protected", true), bench = fsync(150)},
			expect = {}},
		{name = "0.15 ms on hardware RAID hiding its topology: no warning",
			facts = {host = bare, device = with(hdd, "topology_hidden", true), bench = fsync(150)},
			expect = {}},
		{name = "a VM whose virtio disk claims to rotate, fsync 0.2 ms: info, the hypervisor decides",
			facts = {host = {virtualization = "kvm"}, device = with(hdd, "transport", "virtio"), bench = fsync(200),
				sources = measured},
			expect = {{name = "vm_cache_mode", severity = "info", confidence = 0.8}}},
		{name = "a loop device in a VM that claims to rotate, fsync 259 us: the loop device and its file, not the VM's disk",
			facts = {host = {virtualization = "kvm"}, device = {name = "loop3", transport = "loop", rotational = true,
				loop_backing_file = "/var/tmp/disk.img", loop_direct_io = false}, bench = fsync(259),
				sources = measured},
			expect = {{name = "loop_flush", severity = "info",
				evidence = {"bench.fsync_4k_overwrite.lat_p50_us", "device.transport", "device.name",
					"device.loop_backing_file", "device.loop_direct_io", "device.rotational",
					"host.virtualization"}}}},
		{name = "the same VM, the fsync result flagged as a cache effect: nothing to quote",
			facts = {host = {virtualization = "kvm"}, device = with(hdd, "transport", "virtio"),
				bench = fsync(200, {cache_suspect = true}), sources = measured},
			expect = {}},
		{name = "the same VM measured at 6 ms: the cache-mode information, without the rotation remark",
			facts = {host = {virtualization = "kvm"}, device = with(hdd, "transport", "virtio"), bench = fsync(6000),
				sources = measured},
			expect = {{name = "vm_cache_mode", severity = "info"}}},
		{name = "virtualization unknown: no warning", facts = {device = hdd, bench = fsync(150)}, expect = {}},
		{name = "SATA SSD, fsync 0.1 ms: nothing",
			facts = {host = bare, device = with(hdd, "rotational", false), bench = fsync(100)}, expect = {}},
		{name = "no fsync measured: nothing", facts = {host = bare, device = hdd}, expect = {}},
		{name = "no device: not evaluated", facts = {host = bare}, expect = "not_evaluated"},
	},
}
