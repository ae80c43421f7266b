-- Metadata caching, the successor of "try increasing nbuf": keep dentries and inodes cached longer
-- (vm.vfs_cache_pressure below 100) for metadata-heavy workloads on hosts with memory to spare.

local SOURCES = {
	"Linux Documentation/admin-guide/sysctl/vm.rst: vfs_cache_pressure, 100 'fair', lower prefers to "
		.. "retain dentry and inode caches, 0 can lead to out-of-memory [L-vm]",
	"seed: 1999-freebsd-fs-ffs-vs-ext2-block-sizes ('try increasing nbuf' to keep directories cached); "
		.. "FreeBSD tuning(7): the VM system tunes its caches itself [FB-tuning]",
}

local commas, fmt = fstune.fmt_count, fstune.fmt_bytes

-- All of these are fstune's own heuristics (no upstream document recommends a value below 100):
-- a cached file costs about 1 KiB of dentry and inode slab (a dentry is 192 bytes, an ext4 or XFS
-- in-memory inode about 1 KiB); a workload of a million files or more is metadata-heavy; memory is
-- "ample" when twice the whole tree's cache fits in what is available; 50 halves the pressure.
local PER_FILE = 1200
local MANY = 1000000
local RECOMMENDED = 50

local function check(facts)
	local vm, w, h = facts.vm, facts.workload, facts.host
	if w == nil or vm.vfs_cache_pressure ~= 100 then return {} end
	local files = w.files_total
	if not fstune.is_integer(files) or files < MANY then return {} end
	local avail, akey, aword = h and h.mem_available_bytes, "host.mem_available_bytes", "available"
	if not fstune.is_integer(avail) then
		avail, akey, aword = h and h.mem_total_bytes, "host.mem_total_bytes", "in total (MemAvailable unknown)"
	end
	if not fstune.is_integer(avail) then return {} end
	local need = files * PER_FILE
	if avail < 2 * need then return {} end
	local weak = fstune.is_assumed("workload.files_total")
	return {{name = "keep_metadata", setting = "sysctl.vm.vfs_cache_pressure",
		recommended = RECOMMENDED, severity = weak and "info" or "suggest", confidence = 0.6,
		title = string.format("%s files and %s of memory: keep their dentries and inodes cached "
			.. "(vfs_cache_pressure %d)", commas(files), fmt(avail), RECOMMENDED),
		rationale = string.format("The workload has %s files; caching all their dentries and inodes takes "
			.. "about %s (at about %s per file), and the host has %s of memory %s, more than twice that. "
			.. "Below 100 the kernel prefers keeping dentries and inodes over page cache, so directory "
			.. "walks (find, rsync, backups, mail folders) stay in memory: today's form of 1999's 'increase "
			.. "nbuf'. The value %d and the thresholds are fstune's own heuristic, not an upstream "
			.. "recommendation; never 0, which can exhaust memory.%s", commas(files), fmt(need),
			fmt(PER_FILE), fmt(avail), aword, RECOMMENDED,
			weak and " The file count is a preset's, not yours: info only." or ""),
		evidence = fstune.present({"workload.files_total", akey, "vm.vfs_cache_pressure"})}}
end

local GiB = fstune.GiB
local sampled = {["workload.files_total"] = "sample", ["host.mem_available_bytes"] = "procfs",
	["vm.vfs_cache_pressure"] = "procfs"}

return fstune.rule {
	id = "dcache",
	title = "Metadata caching: vfs_cache_pressure for metadata-heavy workloads",
	description = "For a workload of a million files or more whose dentries and inodes fit twice in the "
		.. "available memory, suggests vm.vfs_cache_pressure = 50 (info when the file count is a "
		.. "preset's). fstune's own heuristic: no upstream document recommends a value below 100.",
	sources = SOURCES,
	settings = {"sysctl.vm.vfs_cache_pressure"},
	needs = {"vm.vfs_cache_pressure"},
	uses = {"workload.files_total", "host.mem_available_bytes", "host.mem_total_bytes"},
	check = check,
	tests = {
		{name = "sampled 5 M files, 60 GiB available: suggest 50 at the probe's cap",
			facts = {vm = {vfs_cache_pressure = 100}, workload = {files_total = 5000000},
				host = {mem_available_bytes = 60 * GiB}, sources = sampled},
			expect = {{name = "keep_metadata", severity = "suggest", recommended = 50, confidence = 0.6}}},
		{name = "the same host, the sample found 200,000 files: nothing",
			facts = {vm = {vfs_cache_pressure = 100}, workload = {files_total = 200000},
				host = {mem_available_bytes = 60 * GiB}, sources = sampled},
			expect = {}},
		{name = "sampled 50 M files, 60 GiB available: not ample, nothing",
			facts = {vm = {vfs_cache_pressure = 100}, workload = {files_total = 50000000},
				host = {mem_available_bytes = 60 * GiB}, sources = sampled},
			expect = {}},
		{name = "5 M files from a preset: info",
			facts = {vm = {vfs_cache_pressure = 100}, workload = {files_total = 5000000},
				host = {mem_available_bytes = 60 * GiB}, sources = {["workload.files_total"] = "preset"}},
			expect = {{name = "keep_metadata", severity = "info"}}},
		{name = "inside a container: the sysctl is the whole host's, marked host_wide",
			facts = {vm = {vfs_cache_pressure = 100}, workload = {files_total = 5000000},
				host = {container = true, mem_available_bytes = 60 * GiB}, sources = sampled},
			expect = {{name = "keep_metadata", host_wide = true,
				apply = {"sysctl -w vm.vfs_cache_pressure=50"}, revert = {"sysctl -w vm.vfs_cache_pressure=100"}}}},
		{name = "already tuned: nothing",
			facts = {vm = {vfs_cache_pressure = 50}, workload = {files_total = 5000000},
				host = {mem_available_bytes = 60 * GiB}}, expect = {}},
		{name = "no vm facts: not evaluated", facts = {workload = {files_total = 5000000}}, expect = "not_evaluated"},
	},
}
