-- The device against its class: the quick suite's latency and throughput compared with one table of
-- plausible numbers per kind of device (transport x rotational x virtualization); numbers far
-- outside it are reported with both numbers and what to suspect.

local SOURCES = {
	"SATA 3.x: 6 Gbit/s link, about 550-600 MB/s of payload; SAS-3: 12 Gbit/s",
	"a 7200 rpm disk turns once in 8.3 ms: a random 4 KiB read waits half a revolution plus a seek, "
		.. "several milliseconds",
	"NVMe over PCIe 3.0 x4 about 3.9 GB/s, PCIe 4.0 x4 about 7.9 GB/s, PCIe 5.0 x4 about 15.8 GB/s",
	"Linux drivers/block/loop.c: without LO_FLAGS_DIRECT_IO a loop device reads and writes its "
		.. "backing file through the page cache",
	"DESIGN.md (benchmark honesty): a cache_suspect or direct = no result never supports a warning",
}

local MB, US, MS = 1000000, 1, 1000
-- Plausible ranges per class, wide on purpose: a number outside them is far from what a healthy
-- device of the class measures. The bounds are this rule's own heuristics from the interface limits
-- and the mechanics cited in SOURCES. read = rand_read_4k_qd1 median latency; sr, sw = seq_read_1m
-- and seq_write_1m rates.
local CLASSES = {
	nvme = {label = "an NVMe drive", array = "an array of NVMe drives", read = {15 * US, 400 * US},
		sr = {400 * MB, 16000 * MB},
		sw = {150 * MB, 14000 * MB},
		slow = "a PCIe link trained below its width or speed (lspci -vv, LnkSta), thermal throttling "
			.. "(nvme smart-log), a nearly full drive without trim, or other I/O on it",
		fast = "a result served from the drive's DRAM or the page cache"},
	ssd = {label = "a SATA/SAS SSD", array = "an array of SSDs", read = {40 * US, 600 * US}, sr = {150 * MB, 1200 * MB},
		sw = {60 * MB, 1200 * MB},
		slow = "a link negotiated at 1.5 or 3 Gbit/s (dmesg: 'SATA link up'), a worn or full SSD "
			.. "without trim, or other I/O on it",
		fast = "a controller cache in front of it"},
	hdd = {label = "a rotating disk", array = "an array of rotating disks", read = {1500 * US, 30 * MS},
		sr = {40 * MB, 350 * MB},
		sw = {40 * MB, 350 * MB},
		slow = "a failing disk retrying reads (smartctl -a: reallocated and pending sectors), a link "
			.. "negotiated at a lower speed, SMR rewriting in the background, or other I/O on it",
		fast = "a cache (the drive's, a RAID controller's, a hybrid drive's flash), or a device that is "
			.. "not a rotating disk whatever it reports"},
	virtual = {label = "a virtual disk", read = {20 * US, 20 * MS}, sr = {20 * MB, 20000 * MB},
		sw = {20 * MB, 20000 * MB},
		slow = "a throttled cloud volume (its provisioned IOPS or throughput), a busy host or noisy "
			.. "neighbour, or the host's own storage",
		fast = "the host's page cache (a hypervisor cache mode of writeback or unsafe)"},
}

-- The class of the device under the facts, and the factor by which striping raises its sequential
-- ceiling (md and hardware RAID); nil when the facts do not say enough.
local function class_of(d, virt)
	if virt ~= nil and virt ~= "none" then return "virtual", 1 end
	if d.transport == "virtio" or d.transport == "xen" then return "virtual", 1 end
	local stripes = 1
	if d.transport == "md" then
		stripes = fstune.positive(d.md_data_disks) or fstune.positive(d.md_raid_disks) or 1
	elseif d.topology_hidden == true then
		stripes = 8 -- a hardware RAID hides its member count: assume a wide one (heuristic)
	end
	if d.transport == "nvme" then return "nvme", stripes end
	if virt == nil then return nil end
	local known = {sata = true, sas = true, scsi = true, ata = true, md = true}
	if not known[d.transport or ""] or d.rotational == nil then return nil end
	return d.rotational and "hdd" or "ssd", stripes
end

local METRICS = {
	{key = "read", test = "rand_read_4k_qd1", field = "lat_p50_us", what = "random 4 KiB reads (median latency)",
		lower_is_better = true},
	{key = "sr", test = "seq_read_1m", field = "bw_bytes_per_s", what = "sequential 1 MiB reads"},
	{key = "sw", test = "seq_write_1m", field = "bw_bytes_per_s", what = "sequential 1 MiB writes"},
}

local function show(m, v)
	if m.lower_is_better then return fstune.fmt_us(v) end
	return fstune.fmt_rate(v)
end

local function check(facts)
	local d, h = facts.device, facts.host
	local b = facts.bench
	if b == nil then return {} end
	local out = {}
	if d.transport == "loop" then
		local sr, rr = fstune.get("bench.seq_read_1m.bw_bytes_per_s"), fstune.get("bench.rand_read_4k_qd1.lat_p50_us")
		if type(sr) ~= "number" then return {} end
		local name = d.name or "The loop device"
		if d.loop_direct_io == false then
			out[1] = {name = "loop_page_cache", severity = "info", confidence = 0.9,
				title = "A loop device without direct I/O: these numbers measure the page cache",
				rationale = string.format("%s reads its backing file through the host's page cache "
					.. "(loop_direct_io off), so seq_read_1m's %s says how fast memory is, not a disk. Attach "
					.. "it with losetup --direct-io=on to measure the storage under it.", name, fstune.fmt_rate(sr)),
				evidence = {"device.loop_direct_io", "bench.seq_read_1m.bw_bytes_per_s"}}
		elseif d.loop_direct_io == true then
			out[1] = {name = "loop_backing", severity = "info", confidence = 0.9,
				title = string.format("Measured through a loop device: %s sequential reads%s are the backing "
					.. "file's storage", fstune.fmt_rate(sr), type(rr) == "number" and (", " .. fstune.fmt_us(rr)
						.. " random 4 KiB reads") or ""),
				rationale = string.format("%s passes its I/O to its backing file%s with direct I/O, so the quick "
					.. "suite's seq_read_1m of %s%s measured the filesystem and device holding that file, plus the "
					.. "loop driver's overhead, and no device class applies. Advice sized from these numbers (the "
					.. "writeback limits) holds for that storage; benchmark the real device for its own.", name,
					type(d.loop_backing_file) == "string" and (" " .. d.loop_backing_file) or "", fstune.fmt_rate(sr),
					type(rr) == "number" and (" and median random 4 KiB read of " .. fstune.fmt_us(rr)) or ""),
				evidence = fstune.present({"device.loop_direct_io", "bench.seq_read_1m.bw_bytes_per_s",
					"bench.rand_read_4k_qd1.lat_p50_us"})}
		end
		return out
	end
	local virt = h and h.virtualization
	local cls, stripes = class_of(d, virt)
	if cls == nil then return {} end
	local c = CLASSES[cls]
	local label = stripes > 1 and c.array or c.label
	local busy = fstune.get("bench.busy_check.busy") == true
	for _, m in ipairs(METRICS) do
		local t, why_not = fstune.measured(m.test)
		local raw = fstune.get("bench." .. m.test .. "." .. m.field)
		if type(raw) == "number" and raw > 0 then
			local lo, hi = c[m.key][1], c[m.key][2]
			if not m.lower_is_better then
				-- Striping multiplies the ceiling by the members and, for reads from a healthy array,
				-- the floor by at least half of them (this rule's heuristic; parity writes may be slow).
				hi = hi * stripes
				if m.key == "sr" then lo = lo * math.max(1, stripes // 2) end
			end
			local slow, fast
			if m.lower_is_better then slow, fast = raw > hi, raw < lo
			else slow, fast = raw < lo, raw > hi end
			if slow or fast then
				local bound = slow and (m.lower_is_better and hi or lo) or (m.lower_is_better and lo or hi)
				local can_warn = slow and t ~= nil and not busy
				local key = "bench." .. m.test .. "." .. m.field
				out[#out + 1] = {name = (slow and "slow_" or "fast_") .. m.test,
					severity = can_warn and "warn" or "info", confidence = 0.8,
					title = string.format("%s: %s, %s than %s should be (%s %s)", m.what, show(m, raw),
						slow and "slower" or "faster", label, slow and (m.lower_is_better and "at most" or "at least")
							or (m.lower_is_better and "at least" or "at most"), show(m, bound)),
					rationale = string.format("%s measured %s for %s; %s usually measures %s to %s%s (this "
						.. "rule's plausible range for the class, from interface limits and mechanics). Suspect %s.%s",
						d.name or "The device", show(m, raw), m.what, label, show(m, lo), show(m, hi),
						stripes > 1 and not m.lower_is_better and string.format(" across %d striped members", stripes)
							or "",
						slow and c.slow or c.fast,
						slow and not can_warn and (" Not a warning: " .. (why_not or (busy and "the device was busy "
							.. "with other I/O during the measurement" or "the result is not a direct measurement"))
							.. ".") or ""),
					evidence = fstune.present({key, "device.transport", "device.rotational", "host.virtualization"})}
			end
		end
	end
	return out
end

local function dev(transport, rot, extra)
	return fstune.merge({name = "sdb", transport = transport, rotational = rot}, extra)
end
local function run(p50, sr, sw, extra)
	return fstune.merge({rand_read_4k_qd1 = {lat_p50_us = p50, direct = "yes"},
		seq_read_1m = {bw_bytes_per_s = sr, direct = "yes"},
		seq_write_1m = {bw_bytes_per_s = sw, direct = "yes"}}, extra)
end
local bare = {virtualization = "none"}
local src = {["bench.rand_read_4k_qd1.lat_p50_us"] = "bench", ["bench.seq_read_1m.bw_bytes_per_s"] = "bench",
	["bench.seq_write_1m.bw_bytes_per_s"] = "bench", ["device.transport"] = "sysfs", ["device.rotational"] = "sysfs",
	["host.virtualization"] = "procfs"}

return fstune.rule {
	id = "devclass",
	title = "The device's measured numbers against its class",
	description = "One table of plausible median random-read latency and sequential read and write "
		.. "rates for NVMe drives, SATA/SAS SSDs, rotating disks (md and hardware RAID scale the "
		.. "sequential ceiling by their members) and virtual disks. A measurement slower than its class "
		.. "is a warning with what to suspect (a degraded disk, a slow link, a throttled cloud volume), "
		.. "unless the device was busy or the result is cache_suspect or not direct; faster than its "
		.. "class is information (a cache answered). A loop device measures its backing file's storage "
		.. "(with direct I/O) or the page cache (without), and says which.",
	sources = SOURCES,
	-- Each recommendation cites the sources it rests on (indices into SOURCES), not the whole list.
	rec_sources = {loop_page_cache = {4}, loop_backing = {4}},
	settings = {},
	needs = {"device.transport"},
	uses = {"device.rotational", "host.virtualization", "device.md_data_disks", "device.topology_hidden",
		"device.loop_direct_io", "bench.rand_read_4k_qd1.lat_p50_us", "bench.seq_read_1m.bw_bytes_per_s",
		"bench.seq_write_1m.bw_bytes_per_s", "bench.busy_check.busy"},
	check = check,
	tests = {
		{name = "bare-metal SATA disk at 8 ms and 180 MB/s: in its class, nothing",
			facts = {host = bare, device = dev("sata", true), bench = run(8000, 180 * MB, 170 * MB), sources = src},
			expect = {}},
		{name = "the same disk reading at 12 MB/s: slower than its class, warn at the probe's cap",
			facts = {host = bare, device = dev("sata", true), bench = run(8000, 12 * MB, 170 * MB), sources = src},
			expect = {{name = "slow_seq_read_1m", severity = "warn", confidence = 0.8}}},
		{name = "the same 12 MB/s flagged as a cache effect: info, never a warning",
			facts = {host = bare, device = dev("sata", true),
				bench = run(8000, 12 * MB, 170 * MB, {seq_read_1m = {bw_bytes_per_s = 12 * MB, cache_suspect = true}}),
				sources = src},
			expect = {{name = "slow_seq_read_1m", severity = "info"}}},
		{name = "the same 12 MB/s while the device was busy: info",
			facts = {host = bare, device = dev("sata", true),
				bench = run(8000, 12 * MB, 170 * MB, {busy_check = {busy = true}}), sources = src},
			expect = {{name = "slow_seq_read_1m", severity = "info"}}},
		{name = "a 'rotating' disk reading 4 KiB in 90 us: a cache answered, info",
			facts = {host = bare, device = dev("sata", true), bench = run(90, 180 * MB, 170 * MB), sources = src},
			expect = {{name = "fast_rand_read_4k_qd1", severity = "info"}}},
		{name = "NVMe at 80 us and 3 GB/s: nothing",
			facts = {host = bare, device = dev("nvme", false), bench = run(80, 3000 * MB, 2000 * MB)}, expect = {}},
		{name = "NVMe reading at 200 MB/s: warn, PCIe link or throttling",
			facts = {host = bare, device = dev("nvme", false), bench = run(80, 200 * MB, 2000 * MB)},
			expect = {{name = "slow_seq_read_1m", severity = "warn", confidence = 0.7}}},
		{name = "md RAID6 of 8 disks (6 data) reading 1.2 GB/s: within 6 x 350 MB/s",
			facts = {host = bare, device = dev("md", true, {md_data_disks = 6}), bench = run(9000, 1200 * MB, 600 * MB)},
			expect = {}},
		{name = "the same array reading 90 MB/s: below 3 x 40 MB/s, a degraded array",
			facts = {host = bare, device = dev("md", true, {md_data_disks = 6}), bench = run(9000, 90 * MB, 600 * MB)},
			expect = {{name = "slow_seq_read_1m", severity = "warn"}}},
		{name = "a cloud volume throttled to 8 MB/s of writes: warn",
			facts = {host = {virtualization = "kvm"}, device = dev("virtio", true), bench = run(600, 130 * MB, 8 * MB)},
			expect = {{name = "slow_seq_write_1m", severity = "warn"}}},
		{name = "the same VM writing 130 MB/s: nothing",
			facts = {host = {virtualization = "kvm"}, device = dev("virtio", true), bench = run(600, 130 * MB, 130 * MB)},
			expect = {}},
		{name = "loop device without direct I/O: the page cache was measured",
			facts = {host = bare, device = dev("loop", true, {loop_direct_io = false}), bench = run(5, 9000 * MB, 4000 * MB)},
			expect = {{name = "loop_page_cache", severity = "info"}}},
		{name = "the same loop device with direct I/O: the backing storage was measured",
			facts = {host = bare, device = dev("loop", true, {loop_direct_io = true}), bench = run(300, 900 * MB, 400 * MB),
				sources = src},
			expect = {{name = "loop_backing", severity = "info", confidence = 0.7}}},
		{name = "SATA disk, virtualization unknown: no class, nothing",
			facts = {device = dev("sata", true), bench = run(8000, 12 * MB, 170 * MB)}, expect = {}},
		{name = "no transport: not evaluated", facts = {host = bare}, expect = "not_evaluated"},
	},
}
