-- Dirty-page limits in bytes when the percentage limits hold more dirty data than the measured disk
-- writes back in a few seconds; without a measurement, only on hosts where the limit is huge.
local fstune = fstune
local MiB, GiB = fstune.MiB, fstune.GiB
local fmt = fstune.fmt_bytes

-- This rule's own heuristics, stated in every rationale. 5 s is the flusher's own wake-up period
-- (dirty_writeback_centisecs = 500, bdflush's interval) and ext4's default commit interval; 10 s,
-- twice that, is where a writer throttled at the limit, or an fsync queued behind it, stalls long
-- enough to time out clients.
local DRAIN_MAX_S = 10
local DRAIN_TARGET_S = 5
local NO_BENCH_LIMIT = 8 * GiB -- without a measurement, a limit this large is flagged
local FLOOR, CEIL = 64 * MiB, 4 * GiB
-- Files at least this large (median) are written like the sequential test writes (heuristic).
local LARGE_FILE = 1 * MiB

-- The largest power of two not above x: steps a factor of two apart, so a rate that moves by the
-- run-to-run noise of the quick suite (tens of percent) changes the answer only next to a step.
local pow2_floor = fstune.pow2_floor

-- A measured rate usable for a host-wide limit: positive, not a cache's (fstune.measured), and
-- verified direct. A filesystem that does not report direct-I/O support (btrfs: direct =
-- unverified) may have measured its own buffered or copy-on-write path, which is not the device's
-- drain rate; sizing the host's limit from it made the advice depend on the filesystem measured.
local function usable(test)
	local t, why = fstune.measured(test)
	if t == nil then return nil, why end
	if t.direct == "unverified" then
		return nil, "run with direct = unverified (the filesystem does not report direct-I/O support, so the "
			.. "rate may be its own write path rather than the device's)"
	end
	-- a write cache that filled during the test: what drains the dirty pages is the rate after it
	local sustained = t.burst ~= nil and t.burst.sustained_rate
	if type(sustained) == "number" and sustained > 0 then
		return sustained, nil, "burst.sustained_rate"
	end
	local bw = t.bw_bytes_per_s
	if type(bw) ~= "number" or bw <= 0 then return nil end
	return bw, nil, "bw_bytes_per_s"
end

-- The write rate for the workload's pattern: seq_write_1m for sequential access or large files,
-- the random-write tests otherwise (falling back to the sequential rate, which is then optimistic).
local function pattern_rate(facts)
	local w = facts.workload
	-- A database's large files are written at random: the access pattern decides before the size.
	local large = w and ((w.access == "sequential") or (w.access ~= "random" and
		fstune.is_integer(w.file_size_p50_bytes) and w.file_size_p50_bytes >= LARGE_FILE))
	local order = large and {"seq_write_1m"} or {"rand_write_4k_qd32", "rand_write_4k_qd1", "seq_write_1m"}
	local skipped, skipped_why
	for _, test in ipairs(order) do
		local bw, why, field = usable(test)
		if bw then
			local note = ""
			if not large and test == "seq_write_1m" then
				note = " No random-write test ran, so the sequential rate stands in for this workload's "
					.. "random writes: the real drain is slower, and the advice errs on the large side."
			end
			if field == "burst.sustained_rate" then
				note = note .. string.format(" That is the rate after a burst: the first %s went at %s (a "
					.. "write cache filling), which dirty pages cannot count on.",
					fmt(fstune.get("bench." .. test .. ".burst.burst_bytes")),
					fstune.fmt_rate(fstune.get("bench." .. test .. ".burst.burst_rate")))
			end
			return bw, test, note, field
		end
		if why and not skipped then skipped, skipped_why = test, why end
	end
	return nil, skipped, skipped_why
end

local BDFLUSH = "These are the successors of bdflush: its nfract is dirty_background_ratio (or _bytes), "
	.. "nfract_sync is dirty_ratio (or _bytes), interval is dirty_writeback_centisecs (5 s) and age_buffer "
	.. "is dirty_expire_centisecs (30 s)."

-- The limit in force: vm.dirty_bytes when set, else the ratio of the kernel's dirtyable memory
-- (free + reclaimable), whose closest estimate is MemAvailable (MemTotal an upper bound). Returns
-- the limit in bytes, its words for the rationale and the evidence list.
local function limit_in_force(vm, host)
	if vm.dirty_bytes ~= 0 then
		return vm.dirty_bytes, "vm.dirty_bytes = " .. fmt(vm.dirty_bytes),
			{"vm.dirty_bytes", "vm.dirty_background_bytes"}
	end
	local base, base_key, base_words = host.mem_available_bytes, "host.mem_available_bytes",
		"of the memory available now (MemAvailable, the estimate of what the ratio applies to)"
	if not fstune.is_integer(base) or base <= 0 then
		base, base_key, base_words = host.mem_total_bytes, "host.mem_total_bytes",
			"of up to all memory (MemTotal: an upper bound, MemAvailable is unknown)"
	end
	return base * vm.dirty_ratio // 100,
		string.format("vm.dirty_ratio = %d%% %s, %s,", vm.dirty_ratio, base_words, fmt(base)),
		{base_key, "vm.dirty_ratio", "vm.dirty_bytes", "vm.dirty_background_bytes"}
end

-- The cap a measured write rate `bw` (of `test`) asks for, and why; nil when the limit drains fast
-- enough or the cap would not lower it.
local function measured_cap(facts, limit, limit_words, bw, test, note)
	local drain = limit / bw
	if drain <= DRAIN_MAX_S then
		return nil
	end
	local target = math.max(FLOOR, math.min(CEIL, pow2_floor(bw * DRAIN_TARGET_S)))
	if target >= limit then
		return nil
	end
	local dev = facts.device and facts.device.name
	local ci = fstune.get("bench." .. test .. ".ci95_pct")
	return target, string.format("%s lets %s of dirty pages build up. %s wrote %s "
		.. "in %s.%s Writing the limit back takes %.0f s at that rate, and a writer that hits the limit, "
		.. "or an fsync behind it, stalls that long. Dirty limits are host-wide: this is the rate of %s, "
		.. "and a single report cannot see the host's other disks. %s holds about %d s of writes at that "
		.. "rate, rounded down to a power of two (at most %s, at least %s): the steps are a factor of "
		.. "two apart, so run-to-run noise%s moves the advice only for a rate next to a step. The %d s "
		.. "limit and %d s target are this "
		.. "rule's own heuristics: 5 s is the flusher's wake-up period and ext4's commit interval, "
		.. "10 s twice that. Byte limits do not grow with RAM (the reason the kernel added them). %s%s",
		limit_words, fmt(limit), dev or "The device", fstune.fmt_rate(bw), test,
		note, drain,
		dev and (dev .. (facts.fs and facts.fs.type and (" (" .. facts.fs.type .. ")") or "")) or "this device",
		fmt(target), DRAIN_TARGET_S, fmt(CEIL), fmt(FLOOR),
		ci and string.format(" (the 95%% interval is ±%.0f%% here)", ci) or "", DRAIN_MAX_S, DRAIN_TARGET_S,
		BDFLUSH,
		" If this host has a much slower disk as well, size the limits for that one, or give it a "
			.. "per-device share (bdi max_ratio with strict_limit).")
end

-- The cap without a measurement, and why; nil below NO_BENCH_LIMIT. `test` is the test whose result
-- could not be used, and `test_why` why.
local function unmeasured_cap(limit, limit_words, test, test_why)
	if limit < NO_BENCH_LIMIT then
		return nil
	end
	return 1 * GiB, string.format("%s lets %s of dirty pages build up before writers "
		.. "are throttled; writing that back can stall fsync and writers for many seconds on most disks. "
		.. "Byte limits do not grow with RAM (the reason the kernel added them). Flagging limits of %s or "
		.. "more, and the values 1 GiB / 256 MiB, are this rule's own heuristics; %s %s",
		limit_words, fmt(limit), fmt(NO_BENCH_LIMIT),
		test and ("the " .. test .. " result was " .. test_why .. ", so no measured rate sizes them.")
			or "run with benchmarks to size them from the measured write rate.",
		BDFLUSH)
end

-- The pair of byte limits: dirty_bytes at `target`, background writeback at a quarter of it.
local function byte_limits(target, why, conf, evidence)
	local bg = math.max(16 * MiB, target // 4)
	local function rec(name, value, title, rationale)
		return { name = name, setting = "sysctl.vm." .. name, recommended = value, severity = "suggest",
			confidence = conf, title = title, rationale = rationale, evidence = evidence }
	end
	return {
		rec("dirty_bytes", target, "Cap dirty page cache at " .. fmt(target) .. " (vm.dirty_bytes)", why),
		rec("dirty_background_bytes", bg, "Start background writeback at " .. fmt(bg) ..
			" (vm.dirty_background_bytes)", "Goes with the dirty_bytes cap of " .. fmt(target) .. ", always as "
			.. "a pair: background writeback starts at a quarter of it (this rule's heuristic; the kernel's "
			.. "defaults are a half, 10% of 20%), so flushing begins long before writers are throttled. "
			.. "Setting a byte value zeroes the matching ratio, and the revert sets the ratio back."),
	}
end

local function check(facts)
	local vm = facts.vm
	local bw, test, note, field = pattern_rate(facts)
	-- an absolute limit someone chose: only a measurement questions it
	if vm.dirty_bytes ~= 0 and not bw then return {} end
	local limit, limit_words, evidence = limit_in_force(vm, facts.host)
	if not bw then
		local target, why = unmeasured_cap(limit, limit_words, test, note)
		return target and byte_limits(target, why, 0.5, evidence) or {}
	end
	local target, why = measured_cap(facts, limit, limit_words, bw, test, note)
	if not target then
		return {}
	end
	evidence[#evidence + 1] = "bench." .. test .. "." .. field
	return byte_limits(target, why, 0.9, evidence)
end

local function host(mem_gib, avail_gib)
	return { mem_total_bytes = mem_gib * GiB, mem_available_bytes = avail_gib and avail_gib * GiB,
		virtualization = "none" }
end
local defaults = { dirty_ratio = 20, dirty_background_ratio = 10, dirty_bytes = 0,
	dirty_background_bytes = 0, dirty_expire_centisecs = 3000, dirty_writeback_centisecs = 500 }
local probed = { ["host.mem_total_bytes"] = "procfs", ["host.mem_available_bytes"] = "procfs",
	["vm.dirty_ratio"] = "procfs", ["vm.dirty_bytes"] = "procfs", ["vm.dirty_background_bytes"] = "procfs",
	["bench.seq_write_1m.bw_bytes_per_s"] = "bench", ["bench.rand_write_4k_qd32.bw_bytes_per_s"] = "bench" }
local function seq(bw, extra)
	return { seq_write_1m = fstune.merge({ bw_bytes_per_s = bw, direct = "yes", ci95_pct = 20 }, extra) }
end
local large = { access = "sequential", file_size_p50_bytes = 64 * MiB }
-- A host of mem_gib (avail_gib available) with the default limits, writing large files, whose
-- seq_write_1m test measured bw (with `extra` fields in its result).
local function measured(mem_gib, avail_gib, bw, extra)
	return { host = host(mem_gib, avail_gib), vm = defaults, workload = large, bench = seq(bw, extra),
		sources = probed }
end
-- What a vector expects when the rule advises: the pair of byte limits, with `extra` fields
-- checked on the first.
local function limits(bytes, bg, extra)
	return { fstune.merge({ name = "dirty_bytes", recommended = bytes }, extra),
		{ name = "dirty_background_bytes", recommended = bg } }
end
-- What a vector expects when no usable rate sizes the limits and the size alone flags them.
local function size_rule()
	return limits(1 * GiB, 256 * MiB, { confidence = 0.5 })
end

return fstune.rule {
	id = "writeback",
	title = "Dirty-page limits sized by the measured write rate",
	description = "The dirty limit is vm.dirty_bytes when set, else vm.dirty_ratio of the kernel's "
		.. "dirtyable memory (estimated by MemAvailable). When writing it back at the measured rate for the workload's "
		.. "pattern (seq_write_1m for large files, the random-write tests otherwise) would take more than "
		.. "10 s, the rule recommends vm.dirty_bytes and vm.dirty_background_bytes as a pair, sized to about "
		.. "5 s of writes and rounded to powers of two so that benchmark noise does not move them; a rate "
		.. "flagged as cache, or measured without verified direct I/O, is not used. Without "
		.. "a measurement, only limits of 8 GiB or more are flagged, at low confidence. All thresholds are "
		.. "the rule's own heuristics.",
	sources = {
		"Linux Documentation/admin-guide/sysctl/vm.rst (dirty_bytes, dirty_ratio: writing one zeroes the other)",
		"Linux commit 2da02997e08d: mm: add dirty_background_bytes and dirty_bytes sysctls",
		"Linux mm/page-writeback.c: defaults 20/10 of dirtyable memory, background >= limit is halved",
		"Linux fs/proc/meminfo.c: MemAvailable, an estimate of memory available without swapping",
		"Linux 2.4 fs/buffer.c: bdflush nfract, nfract_sync, interval, age_buffer [L240-buffer]",
		"tuned profiles/postgresql/tuned.conf: dirty_bytes 512 MiB, dirty_background_bytes 64 MiB",
	},
	settings = { "sysctl.vm.dirty_bytes", "sysctl.vm.dirty_background_bytes" },
	needs = { "host.mem_total_bytes", "vm.dirty_ratio", "vm.dirty_background_ratio",
		"vm.dirty_bytes", "vm.dirty_background_bytes" },
	uses = { "host.mem_available_bytes", "bench.seq_write_1m.bw_bytes_per_s",
		"bench.rand_write_4k_qd32.bw_bytes_per_s", "bench.rand_write_4k_qd1.bw_bytes_per_s",
		"bench.seq_write_1m.burst.sustained_rate",
		"workload.access", "workload.file_size_p50_bytes", "device.name" },
	check = check,
	tests = {
		{ name = "256 GiB (200 available), large files, disk writes 500 MB/s: 2 GiB / 512 MiB, measured cap 0.8",
			facts = measured(256, 200, 500000000),
			expect = limits(2 * GiB, 512 * MiB, { current = 0, confidence = 0.8 }) },
		{ name = "the same host, the disk writes 3 GB/s: 40 GiB drains in 14 s, the 4 GiB ceiling",
			facts = measured(256, 200, 3000000000),
			expect = limits(4 * GiB, 1 * GiB) },
		{ name = "the same rate measured 10% higher on another run: the same advice",
			facts = measured(256, 200, 550000000),
			expect = limits(2 * GiB, 512 * MiB) },
		{ name = "64 GiB (60 available) and an NVMe at 3 GB/s: 12 GiB drains in 6 s, nothing",
			facts = measured(64, 60, 3000000000),
			expect = {} },
		{ name = "the same host and disk measured at 500 MB/s: drains in 26 s, byte limits",
			facts = measured(64, 60, 500000000),
			expect = limits(2 * GiB, 512 * MiB) },
		{ name = "the 500 MB/s result flagged as cache: no measured rate, 12 GiB flagged on size alone",
			facts = measured(64, 60, 500000000, { cache_suspect = true }),
			expect = size_rule() },
		{ name = "the 500 MB/s result beyond what its link carries (implausible): the size rule",
			facts = measured(64, 60, 500000000, { implausible = true }),
			expect = size_rule() },
		{ name = "the 500 MB/s result limited by the CPU (cpu_bound): the size rule",
			facts = measured(64, 60, 500000000, { cpu_bound = true }),
			expect = size_rule() },
		{ name = "3 GB/s over the run, but a burst then 500 MB/s sustained: sized by the sustained rate",
			facts = measured(64, 60, 3000000000, { burst = { burst_bytes = 4 * GiB, burst_rate = 5000000000,
				sustained_rate = 500000000 } }),
			expect = limits(2 * GiB, 512 * MiB) },
		{ name = "the same 500 MB/s measured on a filesystem without verified direct I/O: the size rule",
			facts = measured(64, 60, 500000000, { direct = "unverified" }),
			expect = size_rule() },
		{ name = "16 GiB at 150 MB/s unverified (a btrfs loop): no advice, as ext4 and XFS on that host get",
			facts = measured(16, 14, 150000000, { direct = "unverified" }),
			expect = {} },
		{ name = "the same 150 MB/s verified direct: 2.8 GiB drains in 20 s, byte limits",
			facts = measured(16, 14, 150000000),
			expect = limits(512 * MiB, 128 * MiB) },
		{ name = "random workload: rand_write_4k_qd32 at 40 MB/s sets 128 MiB, not the 3 GB/s sequential rate",
			facts = { host = host(64, 60), vm = defaults, workload = { access = "random", file_size_p50_bytes = 8192 },
				bench = { seq_write_1m = { bw_bytes_per_s = 3000000000, direct = "yes" },
					rand_write_4k_qd32 = { bw_bytes_per_s = 40000000, direct = "yes" } }, sources = probed },
			expect = limits(128 * MiB, 32 * MiB) },
		{ name = "64 GiB, no benchmark: 12 GiB flagged, defaults' confidence",
			facts = { host = host(64), vm = defaults },
			expect = size_rule() },
		{ name = "16 GiB, no benchmark: 3.2 GiB limit is fine",
			facts = { host = host(16), vm = defaults },
			expect = {} },
		{ name = "already in bytes, nothing measured: the admin's choice stands",
			facts = { host = host(256), vm = { dirty_ratio = 0, dirty_background_ratio = 0,
				dirty_bytes = 8 * GiB, dirty_background_bytes = 1 * GiB } },
			expect = {} },
		{ name = "dirty_bytes 8 GiB, the disk measured at 150 MB/s: 57 s to drain, 512 MiB",
			facts = { host = host(256), vm = { dirty_ratio = 0, dirty_background_ratio = 0,
				dirty_bytes = 8 * GiB, dirty_background_bytes = 1 * GiB }, workload = large,
				bench = seq(150000000), sources = probed },
			expect = { { name = "dirty_bytes", recommended = 512 * MiB, current = 8 * GiB },
				{ name = "dirty_background_bytes", recommended = 128 * MiB, current = 1 * GiB } } },
		{ name = "dirty_bytes 512 MiB at 150 MB/s: 3.6 s, nothing",
			facts = { host = host(256), vm = { dirty_ratio = 0, dirty_background_ratio = 0,
				dirty_bytes = 512 * MiB, dirty_background_bytes = 64 * MiB }, workload = large,
				bench = seq(150000000), sources = probed },
			expect = {} },
		{ name = "vm facts missing: not evaluated",
			facts = { host = host(256) },
			expect = "not_evaluated" },
	},
}
