-- Directory layout from the measured metadata benchmark: how long the workload's largest directory
-- takes to scan and fill at the rates measured on this filesystem, and a files-per-directory bound
-- sized from them.

local SOURCES = {
	"fstune's metadata benchmark: create, stat and unlink rates at a given files-per-directory, warm "
		.. "unless a trial remounted the filesystem (cold)",
	"seed: 2003-ext3-htree-million-files; DESIGN.md, measured here in 2026: creating 10,000 files per "
		.. "directory is 12x slower without dir_index, 100,000 in one directory 113x",
}

local commas = fstune.fmt_count

-- A stat() of every entry of one directory (ls -l, a backup, a mail client opening a folder) that
-- takes longer than SCAN_MAX_S is noticed; the bound recommended scans in SCAN_TARGET_S. Both are
-- this rule's own heuristics.
local SCAN_MAX_S, SCAN_TARGET_S = 1, 0.1

local function round_down_125(x)
	local p = 1
	while p * 10 <= x do p = p * 10 end
	for _, m in ipairs({5, 2, 1}) do
		if m * p <= x then return m * p end
	end
	return p
end

local function check(facts)
	local w = facts.workload
	local m = fstune.measured("metadata")
	if w == nil or m == nil then return {} end
	local dmax, dkey
	for _, k in ipairs({"files_per_dir_max", "files_per_dir_p90", "files_per_dir"}) do
		if fstune.is_integer(w[k]) and w[k] > 0 then dmax, dkey = w[k], "workload." .. k break end
	end
	local stat, create = m.stat_per_s, m.create_per_s
	if dmax == nil or type(stat) ~= "number" or stat <= 0 then return {} end
	local scan_s = dmax / stat
	if scan_s <= SCAN_MAX_S then return {} end
	local per = math.max(1000, round_down_125(stat * SCAN_TARGET_S))
	if per >= dmax then return {} end
	local cold = m.cache == "cold"
	local at = fstune.is_integer(m.files_per_dir) and m.files_per_dir or nil
	local scale = ""
	if at and at * 10 < dmax then
		scale = string.format(" The benchmark ran %s files per directory, a tenth or less of the workload's "
			.. "%s; rates per entry fall as directories grow, so this understates the cost.", commas(at),
			commas(dmax))
	end
	return {{name = "measured_scan", setting = "layout.files_per_dir", recommended = per,
		current = dmax, severity = "suggest", confidence = cold and 0.9 or 0.5,
		title = string.format("A directory of %s entries takes %.1f s to stat at the measured rate: about %s "
			.. "per directory", commas(dmax), scan_s, commas(per)),
		rationale = string.format("The metadata benchmark measured %s stats/s%s on this filesystem (%s "
			.. "cache). Listing with stat() the workload's largest directory (%s entries) takes %.1f s; "
			.. "more than %d s is noticed by people and by backups (this rule's heuristic). Spreading the "
			.. "files over hashed subdirectories of about %s entries keeps a directory's scan near %.1f s. "
			.. "%s%s", commas(math.floor(stat)),
			type(create) == "number" and string.format(" and %s creates/s", commas(math.floor(create))) or "",
			cold and "cold: measured after a remount" or "warm: the dentries were cached, so a cold scan is "
				.. "slower and the confidence is low", commas(dmax), scan_s, SCAN_MAX_S, commas(per),
			SCAN_TARGET_S, scale, cold and "" or " fstune trial measures it cold."),
		evidence = fstune.present({"bench.metadata.stat_per_s", "bench.metadata.create_per_s",
			"bench.metadata.cache", dkey})}}
end

local function md(stat, cache)
	return {metadata = {stat_per_s = stat, create_per_s = stat / 4, files_per_dir = 100000, cache = cache or "warm"}}
end
local src = {["bench.metadata.stat_per_s"] = "bench", ["bench.metadata.create_per_s"] = "bench",
	["bench.metadata.cache"] = "bench", ["workload.files_per_dir_max"] = "sample"}

return fstune.rule {
	id = "dirlayout",
	title = "Files per directory from the measured metadata rates",
	description = "From the metadata benchmark (run with the workload's files per directory): when "
		.. "stat()ing every entry of the workload's largest directory takes more than 1 s at the "
		.. "measured rate, suggests a files-per-directory bound that scans in about 0.1 s, at low "
		.. "confidence unless a trial measured it cold. Both times are the rule's own heuristics.",
	sources = SOURCES,
	settings = {"layout.files_per_dir"},
	needs = {"bench.metadata"},
	uses = {"bench.metadata.stat_per_s", "bench.metadata.create_per_s", "bench.metadata.cache",
		"bench.metadata.files_per_dir", "workload.files_per_dir_max"},
	check = check,
	tests = {
		{name = "350,000-entry spool directories, 100,000 stats/s warm: 3.5 s, suggest 10,000, low confidence",
			facts = {workload = {files_per_dir_max = 350000}, bench = md(100000), sources = src},
			expect = {{name = "measured_scan", severity = "suggest", recommended = 10000, confidence = 0.5}}},
		{name = "the same directories, 2,000,000 stats/s: 0.2 s, nothing",
			facts = {workload = {files_per_dir_max = 350000}, bench = md(2000000), sources = src},
			expect = {}},
		{name = "100,000 stats/s measured cold by a trial: the sample caps at 0.9",
			facts = {workload = {files_per_dir_max = 350000}, bench = md(100000, "cold"), sources = src},
			expect = {{name = "measured_scan", recommended = 10000, confidence = 0.9}}},
		{name = "the result flagged as a cache effect: nothing",
			facts = {workload = {files_per_dir_max = 350000},
				bench = {metadata = {stat_per_s = 100000, cache_suspect = true}}}, expect = {}},
		{name = "no workload: nothing", facts = {bench = md(100000)}, expect = {}},
		{name = "no metadata benchmark: not evaluated", facts = {workload = {files_per_dir_max = 350000}},
			expect = "not_evaluated"},
	},
}
