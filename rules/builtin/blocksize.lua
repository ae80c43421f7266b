-- Filesystem block size (ext2/3/4, XFS): never below 4096 for performance nor below the physical
-- sector; smaller only to save space, from the sampler's exact tail waste; what the measured
-- small-versus-large request curve says (and does not say); bigalloc; on a blank device the block
-- size the mkfs command states, with its reasons (sector, page, a database's page size, the curve).

local SOURCES = {
	"mke2fs(8): -b 1024..65536; the kernel mounts only block sizes up to the page size unless "
		.. "blocksize_gt_pagesize [E2-mke2fs8]",
	"e2fsprogs misc/mke2fs.c: 'specified blocksize is less than device physical sectorsize' [E2-mke2fs-c]",
	"Linux Documentation/ABI (queue/physical_block_size): the smallest unit the device writes "
		.. "atomically [L-sysfs-block]",
	"e2fsprogs RELEASE-NOTES 1.44: htree limit about 10M entries per directory at 4 KiB blocks, "
		.. "~100k at 1 KiB [E2-rel144]",
	"DESIGN.md, measured here in 2026: after untarring a kernel tree, umount takes 2.6-3.3x longer "
		.. "with 1 KiB blocks than 4 KiB on ext2 and ext4",
	"seed: 2000-lkml-ext2-1k-vs-4k-database (1 KiB blocks won a C-ISAM rebuild with 128 MB of RAM "
		.. "and a block-granular buffer cache)",
	"Documentation/filesystems/ext4/bigalloc.rst; ext4(5): bigalloc 'still under development' "
		.. "[L-ext4-bigalloc], [E2-ext4.5]",
	"mkfs.xfs(8): -b size default 4096 [XFS-mkfs]",
}

local KiB, MiB, GiB = fstune.KiB, fstune.MiB, fstune.GiB
local fmt, pos = fstune.fmt_bytes, fstune.positive

-- Saving at least this share of the data's bytes (and at least 1 GiB) before a smaller block is
-- worth its metadata cost: this rule's own heuristic.
local SPACE_SHARE, SPACE_MIN = 0.25, 1 * GiB
-- A 4 KiB random read this much slower than a 1 KiB one means transfer time, not access time,
-- dominates small requests on this device (as on the 2000 report's disk); our own heuristic.
local CURVE_STEEP = 1.5
-- Files whose median size is at least this are "large" for the bigalloc note (heuristic).
local LARGE_P50 = 256 * MiB

local function family(t)
	if fstune.is_ext(t) then return "ext" end
	if t == "xfs" then return "xfs" end
	return nil
end

-- The block size a trial measured best, when the best candidate's spec names one.
local function trial_best_block(facts)
	local t = facts.trial
	if t == nil or type(t.best) ~= "string" then return nil end
	local c = t[t.best]
	if c == nil or c.spec == nil then return nil end
	local spec = c.spec
	if type(spec) ~= "string" then
		-- the mkfs object {fs, args}: its arguments joined as on a command line
		local args = {}
		for _, a in ipairs(spec.args or {}) do args[#args + 1] = tostring(a) end
		spec = table.concat(args, " ")
	end
	local b = spec:match("%-b%s+size=(%d+)") or spec:match("%-b%s+(%d+)")
	return b and math.tointeger(tonumber(b)), "trial." .. t.best .. ".spec"
end

-- The sampled waste saving of unit `u` over 4 KiB, with the facts it rests on; nil unless the
-- tail waste was sampled (a preset's numbers are no basis for a reformat).
local function sampled_saving(u)
	local k4, ku = "workload.tail_waste_bytes.u4k", "workload.tail_waste_bytes.u" .. (u // KiB) .. "k"
	local w4, wu = fstune.get(k4), fstune.get(ku)
	if not (fstune.is_integer(w4) and fstune.is_integer(wu)) then return nil end
	if fstune.source(k4) ~= "sample" then return nil end
	return w4 - wu, w4, wu, k4, ku
end

local function cost_words(bs)
	return string.format("The cost of %s blocks: %d times as many block pointers, extents and "
		.. "bitmap bits for the same data (after untarring a kernel tree, umount took 2.6-3.3x longer "
		.. "to flush with 1 KiB blocks than with 4 KiB, measured here in 2026), and the htree's "
		.. "per-directory limit shrinks from about 10 M entries at 4 KiB to about 100,000 at 1 KiB.", fmt(bs),
		4096 // bs)
end

local function recs_small_block(facts, cur, phys, out)
	local confirmed, tkey = trial_best_block(facts)
	local page = pos(facts.host and facts.host.page_size_bytes) or 4096
	if phys and phys > page and cur >= math.max(4096, page) then
		-- A sector larger than the page: a block that large mounts only with large-block support
		-- (ext4's blocksize_gt_pagesize, XFS from Linux 6.12), so no reformat is proposed.
		out[#out + 1] = {name = "sector_above_page", severity = "info", confidence = 0.8,
			title = string.format("The %d-byte physical sector is larger than the %d-byte page and block", phys, cur),
			rationale = string.format("Each %d-byte block write is a read-modify-write inside the device. A block "
				.. "of %d bytes needs the kernel's large-block support (ext4's blocksize_gt_pagesize feature, "
				.. "XFS from Linux 6.12) to mount; without it %d is the largest block this host can use.",
				cur, phys, page),
			evidence = fstune.present({"fs.block_size", "device.physical_block_size", "host.page_size_bytes"})}
		return
	end
	local floor = math.max(4096, math.min(phys or 512, page))
	if cur >= 4096 and (phys == nil or cur >= phys) then return end
	if confirmed == cur then
		out[#out + 1] = {name = "below_4k", severity = "info", confidence = 1,
			title = string.format("%d-byte blocks, confirmed by a trial on this workload", cur),
			rationale = string.format("This %s filesystem uses %d-byte blocks; a trial of this workload ranked "
				.. "that block size best (%s), so the measurement outweighs the general rule of 4096. %s",
				facts.fs.type, cur, tkey, cost_words(cur)),
			evidence = {"fs.block_size", tkey}}
		return
	end
	local ev = fstune.present({"fs.block_size", "device.physical_block_size", "host.page_size_bytes"})
	if phys and cur < phys then
		out[#out + 1] = {name = "below_sector", setting = "mkfs.block_size", recommended = floor,
			current = cur, severity = "warn", confidence = 0.9,
			title = string.format("Blocks of %d bytes are smaller than the %d-byte physical sector", cur, phys),
			rationale = string.format("The device writes %d bytes atomically; each %d-byte block write is a "
				.. "read-modify-write of a whole sector inside the drive, and a torn sector on power loss can take "
				.. "a neighbouring block with it. mke2fs itself warns about this. Make the filesystem again with "
				.. "%d-byte blocks at the next opportunity.", phys, cur, floor),
			evidence = ev}
		return
	end
	local saved = sampled_saving(cur)
	out[#out + 1] = {name = "below_4k", setting = "mkfs.block_size", recommended = floor, current = cur,
		severity = saved and "info" or "suggest", confidence = 0.8,
		title = string.format("%d-byte blocks cost metadata and directory capacity; 4096 on the next mkfs", cur),
		rationale = string.format("On Linux the page cache works in %s pages whatever the block size, so "
			.. "blocks below 4096 bytes no longer make small reads cheaper (a 2000 report on Linux 2.2, "
			.. "rebuilding a C-ISAM index with 1 KiB random accesses, ran faster on 1 KiB blocks: that came "
			.. "from a block-granular buffer cache and 128 MB of RAM). %s%s", fmt(pos(facts.host and
			facts.host.page_size_bytes) or 4096), cost_words(cur),
			saved and string.format(" The sampled files save %s of tail waste in %d-byte blocks, so the "
				.. "space may be why they were chosen: info only.", fmt(saved), cur) or ""),
		evidence = ev}
end

local function recs_space(facts, fam, cur, phys, out)
	if cur ~= nil and cur < 4096 then return end
	if phys and phys >= 4096 then return end
	local best, best_saved, keys
	for _, u in ipairs({1024, 2048}) do
		local saved, _, _, k4, ku = sampled_saving(u)
		if saved then
			local total = fstune.get("workload.bytes_total")
			if saved >= SPACE_MIN and fstune.is_integer(total) and total > 0 and saved >= SPACE_SHARE * total
				and (best_saved == nil or saved > best_saved * 1.25) then
				best, best_saved, keys = u, saved, {k4, ku, "workload.bytes_total"}
			end
		end
	end
	if best == nil or (phys and best < phys) then return end
	local confirmed, tkey = trial_best_block(facts)
	local ev = keys
	ev[#ev + 1] = "device.physical_block_size"
	if tkey then ev[#ev + 1] = tkey end
	out[#out + 1] = {name = "smaller_for_space", setting = "mkfs.block_size", recommended = best,
		fs = fam == "xfs" and "xfs" or (fstune.is_ext(facts.fs and facts.fs.type) and facts.fs.type or "ext4"),
		severity = "suggest", confidence = confirmed == best and 1 or 0.6,
		title = string.format("%d-byte blocks would save %s of the sampled %s (space, not speed)", best,
			fmt(best_saved), fmt(fstune.get("workload.bytes_total"))),
		rationale = string.format("The sampled files waste %s in their last 4 KiB block and %s in %d-byte "
			.. "blocks (exact sums over every file). Saving %s (more than %.0f%% of the data and more than %s, "
			.. "this rule's own thresholds) is a reason to give up 4096, which is otherwise the Linux choice. "
			.. "%s%s", fmt(fstune.get(keys[1])), fmt(fstune.get(keys[2])), best, fmt(best_saved),
			SPACE_SHARE * 100, fmt(SPACE_MIN), cost_words(best),
			confirmed == best and " A trial on this workload ranked this block size best."
				or " Run fstune trial with both block sizes before deciding."),
		evidence = ev}
end

-- The measured rand_read_*_qd1 points ("1k 100 us"), their evidence keys and the 4 KiB / small
-- latency ratio; nil without a 1 or 2 KiB point and a 4 KiB one measured past the cache.
local function measured_curve(facts)
	local b = facts.bench
	if b == nil then return nil end
	local pts, ev = {}, {}
	for _, sz in ipairs({"1k", "2k", "4k", "8k", "16k", "64k"}) do
		local key = "bench.rand_read_" .. sz .. "_qd1"
		local t = fstune.measured("rand_read_" .. sz .. "_qd1")
		if t and type(t.lat_mean_us) == "number" and t.lat_mean_us > 0 then
			pts[#pts + 1] = string.format("%s %.0f us", sz, t.lat_mean_us)
			pts[sz] = t.lat_mean_us
			ev[#ev + 1] = key .. ".lat_mean_us"
		end
	end
	local small = pts["1k"] or pts["2k"]
	if small == nil or pts["4k"] == nil then return nil end
	return pts, ev, pts["4k"] / small
end

-- The rand_read_*_qd1 curve: what small versus large requests cost on this device.
local function recs_curve(facts, out)
	local pts, ev, ratio = measured_curve(facts)
	if pts == nil then return end
	local steep = ratio >= CURVE_STEEP
	out[#out + 1] = {name = steep and "request_cost_grows" or "request_cost_flat", severity = "info",
		confidence = 0.9,
		title = steep and string.format("Small requests are %.1fx cheaper than 4 KiB ones on this device", ratio)
			or string.format("A 4 KiB read costs about what a 1 KiB one does here (%.2fx)", ratio),
		rationale = string.format("Measured mean latency of random reads at queue depth 1: %s. This curve is "
			.. "what small versus large requests cost on this device, not the cost of the filesystem's block "
			.. "size: buffered I/O reads whole pages whatever the block size. %s", table.concat(pts, ", "),
			steep and string.format("Above %.1fx (this rule's heuristic) transfer time dominates, as on the disk "
				.. "of a 2000 report on Linux 2.2 (a C-ISAM index rebuild): an application doing its own "
				.. "small direct I/O gains from small "
				.. "requests (--io-size), the filesystem still from 4096-byte blocks.", CURVE_STEEP)
			or "Access time dominates, so 4 KiB requests lose nothing against 1 KiB ones: the reason a "
				.. "2000 report on Linux 2.2 gave for 1 KiB blocks does not hold on this device."),
		evidence = ev}
end

-- What the device's sectors say about the block of a new filesystem.
local function sector_words(phys, lbs, bs)
	if phys == nil then
		return "The device's physical sector size is unknown; 4096 is at least any common sector."
	end
	if phys >= 4096 then
		return string.format("The device writes %d-byte physical sectors (%s): a smaller block would be a "
			.. "read-modify-write inside it (mke2fs warns about one, mkfs.xfs refuses it).", phys,
			lbs == phys and "4Kn" or string.format("%d-byte logical sectors over them, 512e", lbs or 512))
	end
	return string.format("The device's %d-byte sectors allow any block size; %d is the page size.", phys, bs)
end

-- What a database's page size says about the block: a whole number of blocks per page, or not.
local function page_words(w)
	if w == nil or w.profile ~= "database" or not fstune.is_integer(w.io_size_bytes) then return "" end
	local io = w.io_size_bytes
	if io % 4096 == 0 then
		return string.format(" The database's %s pages (--io-size) are a whole number of 4096-byte blocks: "
			.. "each page write covers whole blocks and needs no read-modify-write.", fmt(io))
	end
	return string.format(" The database's %s pages (--io-size) are smaller than a 4096-byte block, so each "
		.. "page write covers part of one, which the filesystem must read first; prefer a database page of "
		.. "4 KiB or more rather than a smaller block, which costs metadata and directory capacity and no "
		.. "longer speeds small reads.", fmt(io))
end

-- What the measured curve says about it: nothing against 4096 either way.
local function curve_words(facts)
	local pts, ev, ratio = measured_curve(facts)
	if pts == nil then return "", {} end
	return string.format(" The measured random reads (%s, 4 KiB / small = %.2fx) are what requests cost on "
		.. "the device; buffered I/O reads whole pages whatever the block, so %s", table.concat(pts, ", "), ratio,
		ratio >= CURVE_STEEP and "an application's own small direct I/O gains from small requests, not the "
			.. "filesystem from small blocks." or "4 KiB requests lose nothing against small ones here."), ev
end

-- A new filesystem's block size, stated on the mkfs command with its reasons: the sector, the page,
-- a database's page size and the measured curve.
local function rec_new_block(facts, phys, out)
	local page = pos(facts.host and facts.host.page_size_bytes) or 4096
	if phys and phys > page then return end -- beyond the page: the mkfs defaults, no block advice
	local bs = math.max(4096, math.min(phys or 512, page))
	local d, w = facts.device or {}, facts.workload
	local cw, cev = curve_words(facts)
	local ev = fstune.present({"device.physical_block_size", "device.logical_block_size", "host.page_size_bytes",
		"workload.profile", "workload.io_size_bytes"})
	for _, k in ipairs(cev) do ev[#ev + 1] = k end
	local db = w and w.profile == "database" and fstune.is_integer(w.io_size_bytes)
	out[#out + 1] = {name = "new_block_size", setting = "mkfs.block_size", recommended = bs, fs = "ext4",
		severity = "info", confidence = 0.8,
		title = db and string.format("A new filesystem for %s database pages: %d-byte blocks", fmt(w.io_size_bytes), bs)
			or string.format("A new filesystem: %d-byte blocks", bs),
		rationale = string.format("%s The page cache works in %s pages whatever the block size, so a block "
			.. "below 4096 bytes no longer makes small reads cheaper, and costs block pointers, bitmap bits and "
			.. "directory capacity.%s%s The mkfs command states the block size rather than leave it to the "
			.. "defaults, which depend on the size (mke2fs.conf gives a filesystem under 512 MiB 1024-byte "
			.. "blocks).", sector_words(pos(phys), pos(d.logical_block_size), bs),
			fmt(page), page_words(w), cw),
		evidence = ev}
end

local function recs_new_fs(facts, phys, out)
	local w = facts.workload
	local p50 = w and w.file_size_p50_bytes
	if fstune.is_integer(p50) and p50 >= LARGE_P50 then
		out[#out + 1] = {name = "bigalloc_large_files", fs = "ext4", severity = "info", confidence = 0.5,
			title = "Large files: -T largefile and the inode ratio first; bigalloc is an option, not a default",
			rationale = string.format("The median file is %s. Fewer inodes (-T largefile, see the inodes rule) "
				.. "save more than a larger block would; ext4's bigalloc allocates in clusters (e.g. -O bigalloc "
				.. "-C 1M) and shrinks the bitmaps, but ext4(5) still calls it under development and a cluster "
				.. "is the minimum allocation even for directories. Blocks stay 4096.", fmt(p50)),
			evidence = {"workload.file_size_p50_bytes"}}
	end
	for _, r in ipairs(out) do
		if r.setting == "mkfs.block_size" then return end -- smaller_for_space states it, with its reason
	end
	rec_new_block(facts, phys, out)
end

local function check(facts)
	if fstune.is_freebsd() then return {} end
	local out = {}
	local fs, dev = facts.fs, facts.device
	local phys = dev and pos(dev.physical_block_size)
	local blank = fstune.is_blank()
	local fam = fs and family(fs.type)
	local cur = fs and pos(fs.block_size)
	-- a block size, bigalloc or a reformat for a conventional filesystem is no advice on a zoned
	-- disk: the zoned rule says what fits; the measured request cost is still the device's
	if fstune.zoned() then
		recs_curve(facts, out)
		return out
	end
	if fam and cur then
		recs_small_block(facts, cur, phys, out)
		recs_space(facts, fam, cur, phys, out)
	elseif blank then
		fam = "ext"
		recs_space(facts, fam, nil, phys, out)
		recs_new_fs(facts, phys, out)
	end
	if fam or blank then recs_curve(facts, out) end
	return out
end

local function ext4(bs)
	return {type = "ext4", block_size = bs, features = {"has_journal", "extent", "dir_index"}}
end
local sata512n = {transport = "sata", rotational = true, logical_block_size = 512, physical_block_size = 512}
local sata512e = {transport = "sata", rotational = true, logical_block_size = 512, physical_block_size = 4096}
local linux = {target_os = "linux", page_size_bytes = 4096}
local function waste(w1, w2, w4, src)
	local s = src or "sample"
	return {files_total = 2000000, bytes_total = 6 * GiB,
		tail_waste_bytes = {u1k = w1, u2k = w2, u4k = w4}},
		{["workload.tail_waste_bytes.u1k"] = s, ["workload.tail_waste_bytes.u2k"] = s,
			["workload.tail_waste_bytes.u4k"] = s, ["workload.bytes_total"] = s}
end
local small_w, small_src = waste(1 * GiB, 2 * GiB, 4 * GiB)
local tiny_w, tiny_src = waste(100 * MiB, 200 * MiB, 400 * MiB)
local preset_w, preset_src = waste(1 * GiB, 2 * GiB, 4 * GiB, "preset")
local function curve(l1, l4)
	return {rand_read_1k_qd1 = {lat_mean_us = l1, direct = "yes"},
		rand_read_4k_qd1 = {lat_mean_us = l4, direct = "yes"}}
end
local curve_src = {["bench.rand_read_1k_qd1.lat_mean_us"] = "bench",
	["bench.rand_read_4k_qd1.lat_mean_us"] = "bench"}

return fstune.rule {
	id = "blocksize",
	title = "Filesystem block size: 4096 for speed, smaller only for measured space",
	description = "On Linux a block size below 4096 bytes (or below the device's physical sector) costs "
		.. "metadata, flush time and directory capacity and no longer speeds small reads, since the page "
		.. "cache works in pages. A smaller block is suggested only to save space, when the sampled files' "
		.. "exact tail waste (workload.tail_waste_bytes, source sample) shows a large saving, with its cost "
		.. "stated, unless a trial confirmed it. The measured rand_read_*_qd1 curve is reported as what "
		.. "small versus large requests cost on the device, not as evidence about the block size. "
		.. "On a blank device the mkfs command always states its block size (mkfs.block_size, info: "
		.. "4096, or the physical sector up to the page size), with the reasons: the sector (4Kn, 512e), "
		.. "the page, a database's page size (--io-size) and the measured curve where there is one. "
		.. "The bigalloc note is ext4's, and is left out when the report's mkfs makes another filesystem. "
		.. "On a zoned disk (host-managed or host-aware) only that curve: the zoned rule says which "
		.. "filesystem fits.",
	sources = SOURCES,
	-- Each recommendation cites the sources it rests on (indices into SOURCES), not the whole list.
	rec_sources = {
		below_4k = {1, 2, 3, 4, 5}, below_sector = {1, 2, 3}, sector_above_page = {1, 3, 8}, smaller_for_space = {1, 3, 4, 5},
		request_cost_flat = {6}, request_cost_grows = {6}, bigalloc_large_files = {7},
		new_block_size = {1, 2, 3, 8},
	},
	settings = {"mkfs.block_size"},
	needs = {"host.target_os"},
	uses = {"fs.type", "fs.block_size", "device.physical_block_size", "host.page_size_bytes",
		"workload.tail_waste_bytes", "workload.bytes_total", "workload.file_size_p50_bytes",
		"workload.profile", "workload.io_size_bytes", "bench.rand_read_1k_qd1.lat_mean_us",
		"bench.rand_read_4k_qd1.lat_mean_us", "trial.best", "device.zoned", "device.logical_block_size"},
	check = check,
	tests = {
		{name = "ext4 with 1 KiB blocks on a 512e disk: below the 4096-byte sector, warn",
			facts = {host = linux, device = sata512e, fs = ext4(1024)},
			expect = {{name = "below_sector", severity = "warn", recommended = 4096, confidence = 0.7}}},
		{name = "ext4 with 1 KiB blocks on a 512n disk, probed: suggest 4096 at the probe's cap",
			facts = {host = linux, device = sata512n, fs = ext4(1024),
				sources = {["fs.block_size"] = "ext2fs", ["device.physical_block_size"] = "sysfs",
					["host.page_size_bytes"] = "sysconf"}},
			expect = {{name = "below_4k", severity = "suggest", recommended = 4096, confidence = 0.8}}},
		{name = "the same with sampled tail waste: space may be why, info",
			facts = {host = linux, device = sata512n, fs = ext4(1024), workload = small_w, sources = small_src},
			expect = {{name = "below_4k", severity = "info"}}},
		{name = "the same, a trial ranked 1 KiB best: confirmed, no change",
			facts = {host = linux, device = sata512n, fs = ext4(1024),
				trial = {best = "c2", c1 = {spec = "ext4 -b 4096", rank = 2}, c2 = {spec = "ext4 -b 1024", rank = 1}},
				sources = {["trial.c2.spec"] = "trial"}},
			expect = {{name = "below_4k", severity = "info", confidence = 0.7}}},
		{name = "blank 512n disk, sampled tail waste saves 3 GiB of 6 GiB: 1 KiB for space, sample's cap",
			facts = {host = linux, device = sata512n, workload = small_w, sources = small_src},
			expect = {{name = "smaller_for_space", severity = "suggest", recommended = 1024, confidence = 0.6}}},
		{name = "the same files, a trial confirmed 1 KiB: confidence capped by the sample (0.9)",
			facts = {host = linux, device = sata512n, workload = small_w,
				trial = {best = "c1", c1 = {spec = "ext4 -b 1024"}},
				sources = {["workload.tail_waste_bytes.u1k"] = "sample", ["workload.tail_waste_bytes.u2k"] = "sample",
					["workload.tail_waste_bytes.u4k"] = "sample", ["workload.bytes_total"] = "sample",
					["device.physical_block_size"] = "sysfs", ["trial.c1.spec"] = "trial"}},
			expect = {{name = "smaller_for_space", recommended = 1024, confidence = 0.8}}},
		{name = "sampled waste of 300 MiB: not worth it, the new filesystem's 4096 stated",
			facts = {host = linux, device = sata512n, workload = tiny_w, sources = tiny_src},
			expect = {{name = "new_block_size", recommended = 4096, severity = "info",
				apply = {"mkfs.ext4 -b 4096 \"${DEVICE:?}\""}}}},
		{name = "the same waste from a preset: no reformat on fstune's numbers, 4096",
			facts = {host = linux, device = sata512n, workload = preset_w, sources = preset_src},
			expect = {{name = "new_block_size", recommended = 4096}}},
		{name = "large saving but a 512e disk: never below the 4096-byte sector",
			facts = {host = linux, device = sata512e, workload = small_w, sources = small_src},
			expect = {{name = "new_block_size", recommended = 4096,
				evidence = {"device.physical_block_size", "device.logical_block_size", "host.page_size_bytes"}}}},
		{name = "blank 4Kn disk, a measured flat curve: 4096 with the sector and the curve as its reasons",
			facts = {host = linux, device = {transport = "sata", logical_block_size = 4096,
				physical_block_size = 4096}, bench = curve(100, 105), sources = curve_src},
			expect = {{name = "new_block_size", recommended = 4096,
				evidence = {"device.physical_block_size", "device.logical_block_size", "host.page_size_bytes",
					"bench.rand_read_1k_qd1.lat_mean_us", "bench.rand_read_4k_qd1.lat_mean_us"}},
				{name = "request_cost_flat"}}},
		{name = "blank disk with 16 KiB physical sectors over 4 KiB pages: no block advice",
			facts = {host = linux, device = {transport = "nvme", physical_block_size = 16384}},
			expect = {}},
		{name = "ext4 4 KiB, measured curve flat (1 KiB 100 us, 4 KiB 105 us)",
			facts = {host = linux, device = sata512e, fs = ext4(4096), bench = curve(100, 105), sources = curve_src},
			expect = {{name = "request_cost_flat", severity = "info", confidence = 0.9}}},
		{name = "ext4 4 KiB, measured curve steep (1 KiB 100 us, 4 KiB 400 us): different answer",
			facts = {host = linux, device = sata512e, fs = ext4(4096), bench = curve(100, 400), sources = curve_src},
			expect = {{name = "request_cost_grows", severity = "info"}}},
		{name = "steep curve but the 1 KiB result came from the cache: no curve",
			facts = {host = linux, device = sata512e, fs = ext4(4096),
				bench = {rand_read_1k_qd1 = {lat_mean_us = 100, cache_suspect = true},
					rand_read_4k_qd1 = {lat_mean_us = 400}}},
			expect = {}},
		{name = "blank disk for large files: bigalloc as info only, for ext4",
			facts = {host = linux, device = sata512e, workload = {file_size_p50_bytes = 1 * GiB}},
			expect = {{name = "bigalloc_large_files", severity = "info"}, {name = "new_block_size"}}},
		{name = "blank host-managed disk for large files: no bigalloc advice (ext4 cannot be made there)",
			facts = {host = linux, device = fstune.merge({zoned = "host-managed"}, sata512e),
				workload = {file_size_p50_bytes = 1 * GiB}},
			expect = {}},
		{name = "blank disk for a database with 8 KiB pages: the mkfs command states 4096",
			facts = {host = linux, device = sata512e, workload = {profile = "database", io_size_bytes = 8192}},
			expect = {{name = "new_block_size", severity = "info", recommended = 4096,
				disruption = "reformat", apply = {"mkfs.ext4 -b 4096 \"${DEVICE:?}\""},
				evidence = {"device.physical_block_size", "device.logical_block_size", "host.page_size_bytes",
					"workload.profile", "workload.io_size_bytes"}}}},
		{name = "ext4 4 KiB on a drive with 16 KiB physical sectors: info, no reformat beyond the page",
			facts = {host = linux, device = {transport = "nvme", physical_block_size = 16384}, fs = ext4(4096)},
			expect = {{name = "sector_above_page", severity = "info"}}},
		{name = "XFS with 4 KiB blocks, nothing measured: nothing",
			facts = {host = linux, device = sata512e, fs = {type = "xfs", block_size = 4096}},
			expect = {}},
		{name = "FreeBSD target: the freebsd rule decides", facts = {host = {target_os = "freebsd"}}, expect = {}},
		{name = "no target OS: not evaluated", facts = {fs = ext4(1024)}, expect = "not_evaluated"},
	},
}
