-- FreeBSD targets: newfs block and fragment sizes from the workload's file sizes (with the 2001
-- Postmark table quoted row by row), kern.nbuf (auto-sized since long before the 1999 advice aged),
-- vfs.vmiodirenable and vfs.ufs.dirhash_maxmem for large directories.

local SOURCES = {
	"seed: 2001-freebsd-arch-postmark-16k-2k (Sheldon Hearn, Postmark TPS 16K/2K vs 8K/1K)",
	"seed: 1999-freebsd-fs-ffs-vs-ext2-block-sizes (Bruce Evans: 'Try increasing nbuf')",
	"newfs(8): -b default 32768, -f 4096, 8:1 optimal ratio, -i default 2 x frag; 'much wasted space "
		.. "... many small files' [FB-newfs8]",
	"newfs.h history: 16384/2048 up to FreeBSD 8, 32768/4096 from 9.0 [FB-newfs-h-8], [FB-newfs-h-cur], [FB-9]",
	"McKusick et al., A Fast File System for UNIX, Table 1 (45.6% waste with 4 KiB blocks) [FFS]",
	"tuning(7): vfs.vmiodirenable, 'We do not recommend modifying these values' [FB-tuning]",
	"sys/kern/subr_param.c kern.nbuf 'Cannot be changed after boot', kern.maxbcache; vfs_bio.c "
		.. "kern_vfs_bio_buffer_alloc(): nbuf capped at maxbcache / BKVASIZE [FB-subr_param], [FB-vfsbio]; "
		.. "BKVASIZE 16384 [FB-param]",
	"ufs_dirhash.c dirhash_maxmem sized in ufsdirhash_init() as max(roundup(hibufspace / 64, "
		.. "PAGE_SIZE), 2 MiB), dirhash_minsize 2560 [FB-dirhash]; commit 9b5ad47fb7 (hash ~ half "
		.. "the directory) [FB-dirhash-2001]; freebsd-fs 2008-10 (64 MB for a million maildir "
		.. "messages) [FB-dirhash-2008]",
}

local KiB, MiB, GiB = fstune.KiB, fstune.MiB, fstune.GiB

local fmt, commas = fstune.fmt_bytes, fstune.fmt_count

-- Sheldon Hearn, freebsd-arch, 27 Nov 2001: Postmark TPS with 16K/2K (CPG 89) and 8K/1K (CPG 22),
-- file sizes uniform in each range. Labels, TPS and gains exactly as posted ("8292-32KB" included).
local POSTMARK = {
	{"0.5KB-1KB", 512, 1024, 1041, 1136, "-8.36%"},
	{"0.5KB-2KB", 512, 2048, 1086, 961, "13.01%"},
	{"0.5KB-4KB", 512, 4096, 925, 862, "7.31%"},
	{"0.5KB-8KB", 512, 8192, 781, 735, "6.26%"},
	{"0.5KB-16KB", 512, 16384, 694, 555, "25.05%"},
	{"0.5KB-32KB", 512, 32768, 454, 333, "36.34%"},
	{"1KB-2KB", 1024, 2048, 781, 961, "-18.73%"},
	{"1KB-4KB", 1024, 4096, 781, 925, "-15.57%"},
	{"1KB-8KB", 1024, 8192, 735, 714, "2.94%"},
	{"1KB-16KB", 1024, 16384, 714, 510, "40.00%"},
	{"1KB-32KB", 1024, 32768, 454, 337, "34.72%"},
	{"2KB-4KB", 2048, 4096, 806, 781, "3.20%"},
	{"2KB-8KB", 2048, 8192, 781, 714, "9.38%"},
	{"2KB-16KB", 2048, 16384, 694, 531, "30.70%"},
	{"2KB-32KB", 2048, 32768, 446, 316, "41.14%"},
	{"4KB-8KB", 4096, 8192, 735, 657, "11.87%"},
	{"4KB-16KB", 4096, 16384, 657, 471, "39.49%"},
	{"4KB-32KB", 4096, 32768, 446, 312, "42.95%"},
	{"8KB-16KB", 8192, 16384, 641, 490, "30.82%"},
	{"8292-32KB", 8292, 32768, 431, 294, "46.60%"},
	{"16KB-32KB", 16384, 32768, 416, 312, "33.33%"},
	{"32KB-128KB", 32768, 131072, 124, 117, "5.00%"},
	{"128KB-128KB", 131072, 131072, 119, 109, "9.00%"},
}

local CONFOUND = "The two columns also differ in cylinders per group (CPG 89 vs 22), so block and fragment "
	.. "size are not the only variable; the runs are Postmark on a 2001 disk with 512-byte sectors, "
	.. "and today's default, 32K/4K, was not in the table."

local function row_text(r)
	return string.format("%s: 16/2 %d TPS, 8/1 %d TPS, 16/2 gain %s", r[1], r[4], r[5], r[6])
end

-- Rows whose range lies inside [lo, hi] (with 10% slack), closest first; at least the single closest.
local function matching_rows(lo, hi)
	local scored = {}
	for _, r in ipairs(POSTMARK) do
		local d = math.abs(math.log(r[2] / lo)) + math.abs(math.log(r[3] / hi))
		scored[#scored + 1] = {r = r, d = d, inside = r[2] >= lo * 0.9 and r[3] <= hi * 1.1}
	end
	table.sort(scored, function(a, b) return a.d < b.d end)
	local out = {}
	for _, s in ipairs(scored) do
		if s.inside or #out == 0 then out[#out + 1] = s.r end
		if #out >= 4 then break end
	end
	return out
end

-- The workload's file size range and the keys it came from; nil when unknown.
local function size_range(w)
	if w == nil then return nil end
	local lo, hi = w.file_size_min_bytes, w.file_size_max_bytes
	if fstune.is_integer(lo) and fstune.is_integer(hi) and hi > 0 then
		return math.max(lo, 1), hi, {"workload.file_size_min_bytes", "workload.file_size_max_bytes"}
	end
	local p50, p90 = w.file_size_p50_bytes, w.file_size_p90_bytes
	if fstune.is_integer(p50) and fstune.is_integer(p90) and p90 > 0 then
		return math.max(p50 // 2, 1), p90, {"workload.file_size_p50_bytes", "workload.file_size_p90_bytes"}
	end
	return nil
end

local function rec_newfs(facts, out)
	if facts.fs ~= nil and facts.fs.member_of ~= nil then return end
	local w = facts.workload
	local lo, hi, keys = size_range(w)
	if lo == nil then return end
	local is_weak = fstune.is_assumed(keys[1]) or fstune.is_assumed(keys[2])
	local fb = facts.freebsd or {}
	local cur_b = fstune.positive(fb.newfs_block_size) or 32768
	local cur_f = fstune.positive(fb.newfs_fragment_size) or 4096
	local d = facts.device or {}
	local pbs = d.physical_block_size
	local rows = matching_rows(lo, hi)
	local quoted = {}
	for _, r in ipairs(rows) do quoted[#quoted + 1] = row_text(r) end
	local table_text = "Postmark 2001, rows for this size range: " .. table.concat(quoted, "; ") .. ". " .. CONFOUND
	local ev = fstune.present({keys[1], keys[2], "device.physical_block_size", "freebsd.newfs_block_size",
		"freebsd.newfs_fragment_size"})
	local sev = is_weak and "info" or "suggest"

	if hi <= 4 * KiB then
		if fstune.is_integer(pbs) and pbs >= 4096 then
			out[#out + 1] = {name = "small_frags_below_sector", severity = "info", confidence = 0.6,
				title = string.format("files of %s-%s, but %s physical sectors: keep 4 KiB fragments",
					fmt(lo), fmt(hi), fmt(pbs)),
				rationale = string.format("Fragments smaller than the disk's %d-byte physical sector would make "
					.. "every fragment write a read-modify-write inside the drive, so a 2001 Postmark "
					.. "measurement on FreeBSD favouring small fragments for small files does not carry over to "
					.. "this disk. Keep -f 4096 and give the space back "
					.. "with a lower -i instead (see the inodes rules). %s", pbs, table_text),
				evidence = ev}
			return
		end
		-- The best-matching row decides between the two layouts the table measured.
		local best = rows[1]
		local b, f = 16384, 2048
		if best[6]:sub(1, 1) == "-" then b, f = 8192, 1024 end
		if b == cur_b and f == cur_f then return end
		local why = string.format("All files are %s-%s. With %s fragments each file's tail wastes most of a "
			.. "fragment (a 1 KiB file in a 4 KiB fragment wastes 75%%; FFS's own measurements: 45.6%% "
			.. "waste with 4 KiB blocks before fragments, the reason fragments exist). newfs keeps "
			.. "block:fragment at 8:1 at most. %s On this range the closest row favours %s.%s",
			fmt(lo), fmt(hi), fmt(cur_f), table_text, b == 8192 and "8K/1K" or "16K/2K",
			pbs == nil and " The disk's physical sector size is unknown: check it is 512 bytes first." or "")
		out[#out + 1] = {name = "newfs_block_size", setting = "freebsd.newfs.block_size", recommended = b,
			current = fb.newfs_block_size, severity = sev, confidence = 0.5,
			title = string.format("newfs -b %d -f %d for files of %s-%s", b, f, fmt(lo), fmt(hi)),
			rationale = why, evidence = ev}
		out[#out + 1] = {name = "newfs_fragment_size", setting = "freebsd.newfs.fragment_size", recommended = f,
			current = fb.newfs_fragment_size, severity = sev, confidence = 0.5,
			title = string.format("newfs -f %d (fragment) to go with -b %d", f, b),
			rationale = why, evidence = ev}
		return
	end
	if lo >= 8 * KiB and (cur_b < 32768 or cur_f < 4096) then
		out[#out + 1] = {name = "newfs_default_sizes", setting = "freebsd.newfs.block_size", recommended = 32768,
			current = fb.newfs_block_size, severity = sev, confidence = 0.5,
			title = string.format("files of %s and up: the %d/%d layout is older than today's 32K/4K default",
				fmt(lo), cur_b, cur_f),
			rationale = string.format("The planned newfs uses %d-byte blocks and %d-byte fragments. For files "
				.. "of %s-%s the larger layout won every row that covers them in a 2001 Postmark comparison on "
				.. "FreeBSD (16K/2K against 8K/1K). %s FreeBSD "
				.. "9.0 moved the default from 16K/2K to 32K/4K; use it (newfs -b 32768 -f 4096, or no -b/-f).",
				cur_b, cur_f, fmt(lo), fmt(hi), table_text),
			evidence = ev}
	end
end

-- kern.nbuf as kern_vfs_bio_buffer_alloc() sizes it, before the maxbcache cap of some platforms:
-- 50 + 1/4 of the first 64 MiB + 1/10 of the rest, in 16 KiB (BKVASIZE) buffers.
local function nbuf_auto(mem)
	local kb = mem // 1024
	local a = math.min((kb - 4096) // 64, 65536 // 64)
	local b = math.min(((kb - 65536) * 2) // 320, (32 * 1024 * 1024) // 320)
	return 50 + math.max(a, 0) + math.max(b, 0)
end

-- vfs.ufs.dirhash_maxmem as ufsdirhash_init() sizes it at boot: hibufspace / 64 rounded up to a
-- page, at least 2 MiB; hibufspace is about 3/4 of nbuf 16 KiB buffers (vfs_bio.c).
local function dirhash_auto(mem)
	local hibuf = nbuf_auto(mem) * 16 * 1024 * 3 // 4
	local v = (hibuf // 64 + 4095) // 4096 * 4096
	return math.max(v, 2 * MiB)
end

local function rec_nbuf(facts, out)
	local fb = facts.freebsd or {}
	local host = facts.host or {}
	local w = facts.workload or {}
	local mem = fstune.positive(host.mem_total_bytes)
	if fstune.is_integer(fb.nbuf) and fb.nbuf > 0 then
		if not mem then return end
		local auto = nbuf_auto(mem)
		if fb.nbuf * 2 >= auto and fb.nbuf <= auto * 2 then return end
		out[#out + 1] = {name = "nbuf_override", setting = "freebsd.kern.nbuf", recommended = 0,
			severity = "suggest", confidence = 0.5,
			title = string.format("kern.nbuf=%s is %s the %s buffers FreeBSD would size for %s of RAM",
				commas(fb.nbuf), fb.nbuf < auto and "well below" or "well above", commas(auto), fmt(mem)),
			rationale = string.format("kern.nbuf is a boot-time tunable that defaults to 0, which sizes the "
				.. "buffer cache from RAM at boot: 1/4 of the first 64 MiB plus 1/10 of the rest in 16 KiB "
				.. "buffers, about %s here (before the maxbcache cap some platforms apply). The facts say "
				.. "%s, more than a factor of 2 off (a heuristic), which looks like a value carried over "
				.. "from old advice such as 1999's 'try increasing nbuf'. Directories are cached in the "
				.. "VM page cache since vfs.vmiodirenable=1, and tuning(7) advises against changing "
				.. "buffer-cache sysctls. Remove the override (kern.nbuf = 0: the loader.conf line goes) "
				.. "and reboot; the kernel sizes the buffer cache again. To cap the buffer cache, set "
				.. "kern.maxbcache, the supported cap (nbuf is derived from it), not kern.nbuf.",
				commas(auto), commas(fb.nbuf)),
			evidence = fstune.present({"freebsd.nbuf", "host.mem_total_bytes"})}
		return
	end
	local dirs = (fstune.is_integer(w.files_per_dir) and w.files_per_dir >= 1000)
		or (fstune.is_integer(w.files_total) and w.files_total >= 1000000)
	if dirs then
		out[#out + 1] = {name = "nbuf_auto", severity = "info", confidence = 0.5,
			title = "kern.nbuf needs no tuning: the 1999 'try increasing nbuf' advice is obsolete",
			rationale = "In 1999 Bruce Evans advised 'Try increasing nbuf. I think effective caching of "
				.. "directories still requires 1 buffer per directory.' Today kern.nbuf is sized at boot "
				.. "from RAM, directories are cached in the VM page cache (vfs.vmiodirenable=1, the "
				.. "default), and large directories get an in-memory hash (vfs.ufs.dirhash_maxmem). tuning(7): "
				.. "'We do not recommend modifying these values.' Leave kern.nbuf unset; if the buffer "
				.. "cache must be capped, kern.maxbcache is the supported tunable for that.",
			evidence = fstune.present({"workload.files_per_dir", "workload.files_total", "host.mem_total_bytes"})}
	end
end

local function rec_dirs(facts, out)
	local fb = facts.freebsd or {}
	local w = facts.workload or {}
	if fb.vmiodirenable == 0 or fb.vmiodirenable == false then
		out[#out + 1] = {name = "vmiodirenable_off", setting = "freebsd.vfs.vmiodirenable", recommended = true,
			severity = "suggest", confidence = 0.7,
			title = "vfs.vmiodirenable is 0: directories are cached in scarce buffers, not the page cache",
			rationale = "With vfs.vmiodirenable=1 (the default) directories live in the VM page cache; "
				.. "tuning(7): it 'will substantially improve the performance of services that manipulate "
				.. "a large number of files', turn it off only on memory-starved systems. The sysctl takes "
				.. "effect at once; /etc/sysctl.conf keeps it.",
			evidence = fstune.present({"freebsd.vmiodirenable"})}
	end
	local per_dir = w.files_per_dir_max or w.files_per_dir
	local key = w.files_per_dir_max and "workload.files_per_dir_max" or "workload.files_per_dir"
	if not fstune.is_integer(per_dir) or per_dir < 1000 or not fstune.is_integer(w.files_total) then return end
	-- About 32 bytes of hash per entry (half an on-disk entry of ~64 bytes with its name; a heuristic).
	local need = w.files_total * 32
	local cur = fb.dirhash_maxmem_bytes
	if not fstune.is_integer(cur) or cur < 0 or need <= cur then return end
	local want = 2 * MiB
	while want < need do want = want * 2 end
	local mem = fstune.positive((facts.host or {}).mem_total_bytes)
	if mem and want > mem // 16 then want = mem // 16 // MiB * MiB end
	if want <= cur then return end
	local is_weak = fstune.is_assumed(key) or fstune.is_assumed("workload.files_total")
	local auto = mem and dirhash_auto(mem)
	local sized
	if auto then
		sized = string.format("Current FreeBSD sizes this limit at boot (ufsdirhash_init: a 64th of the "
			.. "buffer space, at least 2 MiB), about %s with %s of RAM; %s", fmt(auto), fmt(mem),
			cur < auto and string.format("the %s here is below that, an override carried over from "
				.. "older advice (the limit was a fixed 2 MiB before): removing it gives %s.", fmt(cur), fmt(auto))
				or "the value here is that size or above it, so raising it is the step left.")
	else
		sized = "Current FreeBSD sizes this limit at boot from the buffer space (ufsdirhash_init: a 64th "
			.. "of it, at least 2 MiB), so check 'sysctl vfs.ufs.dirhash_maxmem' on the host before raising it."
	end
	out[#out + 1] = {name = "dirhash_maxmem", setting = "freebsd.vfs.ufs.dirhash_maxmem", recommended = want,
		current = cur, severity = is_weak and "info" or "suggest", confidence = 0.5,
		title = string.format("raise vfs.ufs.dirhash_maxmem to %s for %s files in directories of up to %s",
			fmt(want), commas(w.files_total), commas(per_dir)),
		rationale = string.format("UFS speeds lookups in directories over 2560 bytes with an in-memory hash "
			.. "of about half the directory's size, within vfs.ufs.dirhash_maxmem (%s now). %s files in "
			.. "directories of up to %s entries need about %s (32 bytes an entry, a heuristic); beyond the "
			.. "limit lookups fall back to linear scans. A 2008 test found 64 MB 'more than enough ... for a "
			.. "million email messages in maildirs' on a 1 GB machine. Capped at 1/16 of RAM. %s Check "
			.. "vfs.ufs.dirhash_mem against the limit under load first: a hash that never reaches it "
			.. "needs no more.", fmt(cur), commas(w.files_total), commas(per_dir), fmt(need), sized),
		evidence = fstune.present({key, "workload.files_total", "freebsd.dirhash_maxmem_bytes",
			"host.mem_total_bytes"})}
end

local function check(facts)
	local out = {}
	if not fstune.is_freebsd() then return out end
	rec_newfs(facts, out)
	rec_nbuf(facts, out)
	rec_dirs(facts, out)
	return out
end

local rows = {}
for _, r in ipairs(POSTMARK) do rows[#rows + 1] = "  " .. row_text(r) end

local FB = {target_os = "freebsd", mem_total_bytes = 8 * GiB}

return fstune.rule {
	id = "freebsd",
	title = "FreeBSD targets: newfs block/fragment sizes, kern.nbuf, dirhash and directory caching",
	description = [[
For facts describing a FreeBSD host (host.target_os = freebsd):

- newfs -b/-f from the workload's file sizes. Today's default is 32K/4K (since FreeBSD 9.0;
  16K/2K before, 8K/1K historically); newfs keeps block:fragment between 8:1 and 1:1. When every file
  is 4 KiB or less and the disk has 512-byte sectors, the 2001 Postmark table's closest row picks
  16K/2K or 8K/1K; on 4 KiB-sector disks fragments stay 4 KiB (info). Files of 8 KiB and up on an
  older smaller layout: back to 32K/4K. The whole table, as posted (TPS, 16K/2K vs 8K/1K):
]] .. table.concat(rows, "\n") .. "\n  " .. CONFOUND .. [[


- kern.nbuf is auto-sized at boot (1/4 of the first 64 MiB, 1/10 of the rest, in 16 KiB buffers):
  info only, unless the facts carry an nbuf more than 2x off that size (suggest removing it).
- vfs.vmiodirenable=0: suggest 1. vfs.ufs.dirhash_maxmem below what directories of 1000+ entries
  need (about 32 bytes an entry, a heuristic): suggest a power of two above it, at most RAM/16,
  saying first that current releases size it at boot (ufsdirhash_init: hibufspace/64, at least
  2 MiB) and whether the value found is that size or an old override. kern.maxbcache, not
  kern.nbuf, is the supported cap on the buffer cache.]],
	sources = SOURCES,
	-- Each recommendation cites the sources it rests on (indices into SOURCES), not the whole list.
	rec_sources = {
		newfs_block_size = {1, 3, 4, 5},
		newfs_fragment_size = {1, 3, 4, 5},
		small_frags_below_sector = {1, 3, 5},
		newfs_default_sizes = {1, 3, 4},
		nbuf_override = {7, 6, 2},
		nbuf_auto = {2, 7, 6},
		vmiodirenable_off = {6},
		dirhash_maxmem = {8},
	},
	settings = {"freebsd.newfs.block_size", "freebsd.newfs.fragment_size", "freebsd.vfs.ufs.dirhash_maxmem",
		"freebsd.kern.nbuf", "freebsd.vfs.vmiodirenable"},
	needs = {"host.target_os"},
	uses = {"workload.file_size_min_bytes", "workload.file_size_max_bytes", "workload.file_size_p50_bytes",
		"workload.file_size_p90_bytes", "workload.files_total", "workload.files_per_dir",
		"workload.files_per_dir_max", "device.physical_block_size", "host.mem_total_bytes", "freebsd.nbuf",
		"freebsd.dirhash_maxmem_bytes", "freebsd.vmiodirenable", "freebsd.newfs_block_size",
		"freebsd.newfs_fragment_size"},
	check = check,
	tests = {
		{name = "news spool 0.5-2 KB on a 512-byte-sector disk: 16K/2K (row 0.5KB-2KB)",
			facts = {host = FB, device = {physical_block_size = 512},
				workload = {file_size_min_bytes = 500, file_size_max_bytes = 2000}},
			expect = {{name = "newfs_block_size", recommended = 16384, severity = "suggest"},
				{name = "newfs_fragment_size", recommended = 2048}}},
		{name = "1-2 KB files: the 8K/1K row",
			facts = {host = FB, device = {physical_block_size = 512},
				workload = {file_size_min_bytes = 1024, file_size_max_bytes = 2048}},
			expect = {{name = "newfs_block_size", recommended = 8192}, {name = "newfs_fragment_size", recommended = 1024}}},
		{name = "small files on a 4K-sector disk: keep 4K fragments",
			facts = {host = FB, device = {physical_block_size = 4096},
				workload = {file_size_min_bytes = 500, file_size_max_bytes = 2000}},
			expect = {{name = "small_frags_below_sector", severity = "info"}}},
		{name = "small files from a preset: info",
			facts = {host = FB, device = {physical_block_size = 512},
				workload = {file_size_min_bytes = 500, file_size_max_bytes = 2000},
				sources = {["workload.file_size_min_bytes"] = "preset", ["workload.file_size_max_bytes"] = "preset"}},
			expect = {{name = "newfs_block_size", severity = "info"}, {name = "newfs_fragment_size", severity = "info"}}},
		{name = "large files on an old 8K/1K plan",
			facts = {host = FB, freebsd = {newfs_block_size = 8192, newfs_fragment_size = 1024},
				workload = {file_size_min_bytes = 8192, file_size_max_bytes = 32768}},
			expect = {{name = "newfs_default_sizes", recommended = 32768}}},
		{name = "mixed sizes on the default: nothing",
			facts = {host = FB, workload = {file_size_min_bytes = 4096, file_size_max_bytes = 1048576}},
			expect = {}},
		{name = "nbuf far below auto-size",
			facts = {host = FB, freebsd = {nbuf = 4096}},
			expect = {{name = "nbuf_override", severity = "suggest"}}},
		{name = "nbuf far above auto-size: kern.nbuf 0 removes the override, 400000 is the revert",
			facts = {host = FB, freebsd = {nbuf = 400000}},
			expect = {{name = "nbuf_override", setting = "freebsd.kern.nbuf", recommended = 0, current = 400000,
				disruption = "reboot"}}},
		{name = "nbuf as auto-sized: nothing",
			facts = {host = FB, freebsd = {nbuf = 52000}},
			expect = {}},
		{name = "no nbuf fact, a million files: info only",
			facts = {host = FB, workload = {files_total = 2000000, files_per_dir = 20000}},
			expect = {{name = "nbuf_auto", severity = "info"}}},
		{name = "maildirs over the dirhash limit",
			facts = {host = FB, freebsd = {dirhash_maxmem_bytes = 2 * MiB, vmiodirenable = 1},
				workload = {files_total = 2000000, files_per_dir = 20000}},
			expect = {"nbuf_auto", {name = "dirhash_maxmem", recommended = 64 * MiB, severity = "suggest"}}},
		{name = "maildirs within the auto-sized dirhash limit: no dirhash advice",
			facts = {host = {target_os = "freebsd", mem_total_bytes = 16 * 1024 * MiB},
				freebsd = {dirhash_maxmem_bytes = 20 * MiB, vmiodirenable = 1},
				workload = {files_total = 500000, files_per_dir = 5000}},
			expect = {"nbuf_auto"}},
		{name = "vmiodirenable off",
			facts = {host = FB, freebsd = {vmiodirenable = 0}},
			expect = {{name = "vmiodirenable_off", severity = "suggest"}}},
		{name = "vmiodirenable 0: the sysctl back to 1 at once (current 0 reads as false)",
			facts = {host = FB, freebsd = {vmiodirenable = 0}},
			expect = {{name = "vmiodirenable_off", setting = "freebsd.vfs.vmiodirenable", recommended = true,
				current = false, disruption = "runtime"}}},
		{name = "a Linux host: nothing",
			facts = {host = {target_os = "linux"}, workload = {file_size_min_bytes = 500, file_size_max_bytes = 2000}},
			expect = {}},
		{name = "no target_os", facts = {workload = {files_total = 1}}, expect = "not_evaluated"},
	},
}
