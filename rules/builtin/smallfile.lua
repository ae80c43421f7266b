-- Small-file transactions: the measured Postmark-style rate beside the seed's 2001 table, and the
-- choices it can inform (journal commit interval, lazytime, data=journal to try); never the block
-- size alone.

local SOURCES = {
	"seed: 2001-freebsd-arch-postmark-16k-2k (Postmark TPS for 16K/2K vs 8K/1K FFS by file-size range)",
	"Linux Documentation/admin-guide/ext4.rst: commit=5 default ('you will lose as much as the latest "
		.. "5 seconds of metadata changes'); data=journal [L-ext4adm]",
	"mount(8): lazytime keeps timestamps in memory [UL-mount8]",
}

-- The 2001 table: file-size range (bytes), TPS with 16K/2K and with 8K/1K blocks/fragments, FreeBSD
-- 4.x FFS on a 2001 disk.
local K = 1024
local POSTMARK = {
	{512, 1 * K, 1041, 1136}, {512, 2 * K, 1086, 961}, {512, 4 * K, 925, 862}, {512, 8 * K, 781, 735},
	{512, 16 * K, 694, 555}, {512, 32 * K, 454, 333}, {1 * K, 2 * K, 781, 961}, {1 * K, 4 * K, 781, 925},
	{1 * K, 8 * K, 735, 714}, {1 * K, 16 * K, 714, 510}, {1 * K, 32 * K, 454, 337}, {2 * K, 4 * K, 806, 781},
	{2 * K, 8 * K, 781, 714}, {2 * K, 16 * K, 694, 531}, {2 * K, 32 * K, 446, 316}, {4 * K, 8 * K, 735, 657},
	{4 * K, 16 * K, 657, 471}, {4 * K, 32 * K, 446, 312}, {8 * K, 16 * K, 641, 490}, {8 * K, 32 * K, 431, 294},
	{16 * K, 32 * K, 416, 312}, {32 * K, 128 * K, 124, 117}, {128 * K, 128 * K, 119, 109},
}

-- fsync'd transactions at under a quarter of the plain rate: flushes, not the filesystem's own work,
-- set the pace (this rule's heuristic).
local FSYNC_BOUND = 0.25

local function nearest_row(lo, hi)
	local best, bd
	for _, r in ipairs(POSTMARK) do
		local dist = math.abs(math.log(lo / r[1])) + math.abs(math.log(hi / r[2]))
		if bd == nil or dist < bd then best, bd = r, dist end
	end
	return best, bd < 1e-9
end

local function range_words(lo, hi)
	return fstune.fmt_bytes(lo) .. "-" .. fstune.fmt_bytes(hi)
end

local function check(facts)
	local plain, fsyncd = fstune.measured("smallfile"), fstune.measured("smallfile_fsync")
	local t = plain or fsyncd
	if t == nil or type(t.tps) ~= "number" or t.tps <= 0 then return {} end
	local test = plain and "smallfile" or "smallfile_fsync"
	local out = {}
	local lo, hi = fstune.positive(t.file_size_min_bytes), fstune.positive(t.file_size_max_bytes)
	if lo and hi and hi >= lo then
		local r, exact = nearest_row(lo, hi)
		local fs = facts.fs
		out[#out + 1] = {name = "postmark_2001", severity = "info", confidence = 0.9,
			title = string.format("%.0f small-file transactions/s (%s); the 2001 Postmark table: %d and %d",
				t.tps, range_words(lo, hi), r[3], r[4]),
			rationale = string.format("%s measured %.0f transactions/s with files of %s%s. The 2001 "
				.. "freebsd-arch table's %s row measured %d TPS with 16K/2K FFS and %d with 8K/1K%s. What "
				.. "differs: the hardware (a 2001 disk and 2001 RAM against %s), the filesystem (%s against "
				.. "FreeBSD 4's FFS with its fragments), and the transaction mix and file count. Compare the "
				.. "shape (which size ranges are fast), not the numbers; the block size is not chosen from "
				.. "this alone (see the blocksize rule).", test, t.tps, range_words(lo, hi),
				fsyncd and plain and string.format(", %.0f with an fsync per file", fsyncd.tps) or "",
				range_words(r[1], r[2]), r[3], r[4], exact and "" or " (the nearest range)",
				facts.device and facts.device.name or "this device",
				fs and fs.type and (fs.type .. (fs.block_size and (" with " .. fstune.fmt_bytes(fs.block_size)
					.. " blocks") or "")) or "this filesystem"),
			evidence = fstune.present({"bench." .. test .. ".tps", "bench.smallfile_fsync.tps", "fs.type"})}
	end
	if plain and fsyncd and type(fsyncd.tps) == "number" and fsyncd.tps > 0 then
		local ratio = fsyncd.tps / plain.tps
		local w = facts.workload
		local ev = {"bench.smallfile.tps", "bench.smallfile_fsync.tps"}
		if ratio < FSYNC_BOUND then
			local opts = facts.fs and facts.fs.mount_options
			local ext = facts.fs and fstune.is_ext(facts.fs.type)
			if w and w.sync_heavy == true then
				if ext and not fstune.contains(opts, "lazytime") then
					ev[#ev + 1] = "workload.sync_heavy"
					ev[#ev + 1] = "fs.mount_options"
					out[#out + 1] = {name = "fsync_bound", setting = "mount.option.lazytime", recommended = true,
						current = false, severity = "suggest", confidence = 0.7,
						title = string.format("fsync'd small-file transactions run at %.0f%% of the plain rate: "
							.. "cut what each flush carries", ratio * 100),
						rationale = string.format("smallfile ran %.0f transactions/s, smallfile_fsync %.0f: an "
							.. "fsync per file costs %.0f%% of the rate (below %.0f%%, this rule's heuristic, "
							.. "flushes set the pace). The workload is sync-heavy, so that is its cost. lazytime "
							.. "keeps timestamp-only inode updates out of those flushes. With ext4, data=journal "
							.. "can also turn many small synchronous writes into sequential journal writes: try "
							.. "it with fstune trial before adopting it; it disables delayed allocation and "
							.. "O_DIRECT.", plain.tps, fsyncd.tps, (1 - ratio) * 100, FSYNC_BOUND * 100),
						evidence = ev}
				end
			elseif ext and w then
				ev[#ev + 1] = "workload.sync_heavy"
				out[#out + 1] = {name = "commit_bound", severity = "info", confidence = 0.7,
					title = string.format("Flushes cost %.0f%% of small-file throughput here; the journal "
						.. "commit interval is this workload's flush", (1 - ratio) * 100),
					rationale = string.format("smallfile ran %.0f transactions/s, smallfile_fsync %.0f. The "
						.. "workload does not fsync, so its flushes are ext4's journal commits, every 5 s by "
						.. "default (commit=). A longer interval (commit=15) batches more per flush at the cost "
						.. "of up to that many seconds of metadata on a crash; on a device where flushes are "
						.. "this expensive it is the one writeback choice this measurement informs.",
						plain.tps, fsyncd.tps),
					evidence = ev}
			end
		end
	end
	return out
end

local function sf(tps, lo, hi)
	return {tps = tps, file_size_min_bytes = lo, file_size_max_bytes = hi, direct = "unverified"}
end
local src = {["bench.smallfile.tps"] = "bench", ["bench.smallfile_fsync.tps"] = "bench"}
local ext4 = {type = "ext4", block_size = 4096, mount_options = {"rw", "relatime"}}

return fstune.rule {
	id = "smallfile",
	title = "Small-file transactions against the 2001 Postmark table",
	description = "When the smallfile or smallfile_fsync benchmark ran, the report shows its "
		.. "transactions per second beside the 2001 Postmark row for the nearest file-size range, with "
		.. "what differs. When an fsync per file cuts the rate below a quarter, a sync-heavy workload on "
		.. "ext2/3/4 is advised lazytime (and a data=journal trial), otherwise the journal commit "
		.. "interval is named as the flush it pays. Never used for the block size alone.",
	sources = SOURCES,
	-- Each recommendation cites the sources it rests on (indices into SOURCES), not the whole list.
	rec_sources = {postmark_2001 = {1}, fsync_bound = {2, 3}, commit_bound = {2}},
	settings = {"mount.option.lazytime"},
	needs = {"bench"},
	uses = {"bench.smallfile.tps", "bench.smallfile_fsync.tps", "workload.sync_heavy", "fs.type",
		"fs.mount_options"},
	check = check,
	tests = {
		{name = "smallfile 0.5-2 KB at 5200 TPS: the 0.5KB-2KB row",
			facts = {bench = {smallfile = sf(5200, 512, 2048)}, fs = ext4, sources = src},
			expect = {{name = "postmark_2001", severity = "info", confidence = 0.7}}},
		{name = "sync-heavy workload, fsync'd rate 10% of plain: lazytime, measured",
			facts = {bench = {smallfile = sf(5200, 512, 2048), smallfile_fsync = sf(520, 512, 2048)}, fs = ext4,
				workload = {sync_heavy = true}, sources = src},
			expect = {"postmark_2001", {name = "fsync_bound", severity = "suggest", setting = "mount.option.lazytime"}}},
		{name = "the same workload where fsync costs 20%: no lazytime",
			facts = {bench = {smallfile = sf(5200, 512, 2048), smallfile_fsync = sf(4160, 512, 2048)}, fs = ext4,
				workload = {sync_heavy = true}, sources = src},
			expect = {"postmark_2001"}},
		{name = "no fsync in the workload, flushes expensive: the commit interval named",
			facts = {bench = {smallfile = sf(5200, 512, 2048), smallfile_fsync = sf(520, 512, 2048)}, fs = ext4,
				workload = {sync_heavy = false}, sources = src},
			expect = {"postmark_2001", {name = "commit_bound", severity = "info"}}},
		{name = "smallfile flagged as a cache effect: nothing",
			facts = {bench = {smallfile = {tps = 5200, cache_suspect = true}}, fs = ext4}, expect = {}},
		{name = "only the quick suite ran: nothing",
			facts = {bench = {seq_write_1m = {bw_bytes_per_s = 1}}}, expect = {}},
		{name = "no benchmark: not evaluated", facts = {fs = ext4}, expect = "not_evaluated"},
	},
}
