-- md RAID 4/5/6 stripe cache: writes smaller than a full stripe need the old data and parity read
-- back first; a larger stripe cache lets md gather them into full stripes. Its memory is a page per
-- member device per stripe, pinned.

local SOURCES = {
	"Documentation/admin-guide/md.rst: stripe_cache_size (raid4/5/6), 'number of entries in the stripe "
		.. "cache. This is writable, but there are upper and lower limits (32768, 17). Default is 256.'",
	"drivers/md/raid5.c: raid5_set_cache_size() refuses sizes <= 16 or > 32768; each stripe_head holds "
		.. "one page per member device, so the cache costs stripes x page size x devices; the set size is "
		.. "min_nr_stripes, below which the stripe shrinker does not free",
}

-- The value fstune proposes and the share of RAM it may take are its own heuristics.
local TARGET = 4096
local MAX_RAM_SHARE = 0.02

local function write_heavy(w)
	if w == nil then return nil end
	if type(w.read_share) == "number" and w.read_share <= 0.5 then
		return string.format("%.0f%% of its I/O is writes", (1 - w.read_share) * 100), "workload.read_share"
	end
	if w.profile == "backup" then return "it takes backups (mostly writes)", "workload.profile" end
	return nil
end

local function check(facts)
	local out = {}
	local d = facts.device
	if d == nil or fstune.is_freebsd() then return out end
	local level = d.md_level
	if level ~= "raid4" and level ~= "raid5" and level ~= "raid6" then return out end
	local why, key = write_heavy(facts.workload)
	if not why then return out end
	local members = fstune.positive(d.md_raid_disks) or (d.members and #d.members > 0 and #d.members) or nil
	if not members then return out end
	local host = facts.host or {}
	local page = fstune.positive(host.page_size_bytes) or 4096
	local mem = fstune.positive(host.mem_total_bytes)
	local cur = fstune.positive(d.md_stripe_cache_stripes)
	local want = TARGET
	while mem and want > 256 and want * page * members > mem * MAX_RAM_SHARE do want = want // 2 end
	if (cur or 256) >= want then return out end
	local cost = want * page * members
	local rec = {name = "stripe_cache", setting = "md.stripe_cache_size", recommended = want,
		severity = fstune.is_assumed(key) and "info" or "suggest", confidence = 0.5,
		title = string.format("%s: a %d-stripe cache lets md gather writes into full stripes (%s of RAM)",
			d.name or "the md array", want, fstune.fmt_bytes(cost)),
		rationale = string.format("%s is md %s over %d devices and %s. A write smaller than a full stripe "
			.. "makes md read old data or parity back before it can write the new parity; the stripe cache "
			.. "holds stripes while writes to them arrive, so more of them leave as full stripes without the "
			.. "reads. The cache is %s stripes now%s; %d stripes cost %d x %s page x %d devices = %s of "
			.. "kernel memory that the stripe shrinker never frees "
			.. "(the value is fstune's heuristic, kept under %.0f%% of RAM). It "
			.. "takes effect at once; the udev rule keeps it across reboots. Watch "
			.. "/sys/block/%s/md/stripe_cache_active under load: a cache that never fills does not need "
			.. "more. Reads gain nothing.", d.name or "The array", level, members, why,
			cur and tostring(cur) or "256 (the kernel's default)", cur and "" or ", as far as the facts say",
			want, want, fstune.fmt_bytes(page), members, fstune.fmt_bytes(cost), MAX_RAM_SHARE * 100,
			d.name or "mdN"),
		evidence = fstune.present({"device.md_level", "device.md_raid_disks", "device.md_stripe_cache_stripes",
			key, "host.mem_total_bytes"})}
	if cur == nil then rec.current = 256 end
	out[1] = rec
	return out
end

local GiB = fstune.GiB
local function md(level, extra)
	return fstune.merge({name = "md0", disk = "md0", transport = "md", md_level = level, md_raid_disks = 8,
		md_stripe_cache_stripes = 256}, extra)
end

return fstune.rule {
	id = "md_raid",
	title = "md RAID 4/5/6 stripe cache for write-heavy workloads",
	description = [[
- md raid4/5/6 with a write-heavy workload (observed or stated read share of 50% or less, or a
  backup profile): raise stripe_cache_size from the default 256 to 4096 stripes, halved until
  the pinned memory (stripes x page size x member devices) stays under 2% of RAM; both numbers
  are fstune's heuristics. Suggest, or info when only a preset says so.]],
	sources = SOURCES,
	settings = {"md.stripe_cache_size"},
	needs = {},
	uses = {"device.md_level", "device.md_raid_disks", "device.members", "device.md_stripe_cache_stripes",
		"device.name", "workload.read_share", "workload.profile", "host.mem_total_bytes",
		"host.page_size_bytes", "host.target_os"},
	check = check,
	tests = {
		{name = "RAID6 of 8, 80% writes observed, 32 GiB: 4096 stripes (128 MiB)",
			facts = {device = md("raid6"), workload = {read_share = 0.2}, host = {mem_total_bytes = 32 * GiB},
				sources = {["workload.read_share"] = "observe"}},
			expect = {{name = "stripe_cache", severity = "suggest", setting = "md.stripe_cache_size",
				recommended = 4096, current = 256, disruption = "runtime"}}},
		{name = "RAID5 of 8 on 2 GiB of RAM: halved to 1024 (32 MiB) to stay under 2%",
			facts = {device = md("raid5"), workload = {read_share = 0.3}, host = {mem_total_bytes = 2 * GiB}},
			expect = {{name = "stripe_cache", recommended = 1024}}},
		{name = "backup preset only: info",
			facts = {device = md("raid6", {md_stripe_cache_stripes = nil}), workload = {profile = "backup"},
				sources = {["workload.profile"] = "preset"}},
			expect = {{name = "stripe_cache", severity = "info", recommended = 4096, current = 256}}},
		{name = "cache already 8192: nothing",
			facts = {device = md("raid5", {md_stripe_cache_stripes = 8192}), workload = {read_share = 0.1}},
			expect = {}},
		{name = "read-mostly RAID6: nothing",
			facts = {device = md("raid6"), workload = {read_share = 0.9}},
			expect = {}},
		{name = "RAID1 has no stripe cache: nothing",
			facts = {device = md("raid1"), workload = {read_share = 0.1}},
			expect = {}},
		{name = "not md: nothing", facts = {device = {name = "sda", transport = "sata"}}, expect = {}},
	},
}
