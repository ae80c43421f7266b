-- Translating old advice: the 2.2/2.4 /proc/sys/vm/bdflush parameters in hand-written facts, field by
-- field, to the vm.dirty_* sysctls that replaced them, and which ones have no successor.

-- Field layouts as documented or coded [L22-vmtxt], [L240-buffer], [L2427-buffer]. 2.4.10 dropped
-- nrefill; 2.4.19 (March 2002) added nfract_stop_bdflush and the 30/500/.../20 defaults.
local LAYOUTS = {
	["2.2"] = {"nfract", "ndirty", "nrefill", "nref_dirt", "dummy1", "age_buffer", "age_super", "dummy2",
		"dummy3"},
	["2.4.0"] = {"nfract", "ndirty", "nrefill", "dummy1", "interval", "age_buffer", "nfract_sync", "dummy2",
		"dummy3"},
	["2.4.10"] = {"nfract", "ndirty", "dummy2", "dummy3", "interval", "age_buffer", "nfract_sync", "dummy4",
		"dummy5"},
	["2.4.19"] = {"nfract", "ndirty", "dummy2", "dummy3", "interval", "age_buffer", "nfract_sync",
		"nfract_stop_bdflush", "dummy5"},
}
local ORDER = {"2.2", "2.4.0", "2.4.10", "2.4.19"}

-- Each layout's stock values (jiffies at HZ=100); a list equal to them in every non-dummy field was
-- never tuned, and today's defaults already carry its timers (5 s / 30 s).
local DEFAULTS = {
	["2.2"] = {40, 500, 64, 256, 15, 3000, 500, 1884, 2},
	["2.4.0"] = {30, 64, 64, 256, 500, 3000, 60, 0, 0},
	["2.4.10"] = {40, 0, 0, 0, 500, 3000, 60, 0, 0},
	["2.4.19"] = {30, 500, 0, 0, 500, 3000, 60, 20, 0},
}

-- What each field meant, and what took its place.
local FIELDS = {
	nfract = {meaning = "percent of the buffer cache dirty before bdflush starts writing",
		successor = "vm.dirty_background_ratio (or _bytes)"},
	ndirty = {meaning = "dirty buffers written per bdflush wake-up",
		successor = "none (per-device flusher threads size their own batches)"},
	nrefill = {meaning = "clean buffers obtained per refill",
		successor = "none"},
	nref_dirt = {meaning = "dirty-buffer threshold for refill",
		successor = "none"},
	interval = {meaning = "jiffies between kupdate flushes",
		successor = "vm.dirty_writeback_centisecs"},
	age_buffer = {meaning = "jiffies before a dirty data buffer must be written",
		successor = "vm.dirty_expire_centisecs"},
	age_super = {meaning = "jiffies before dirty metadata must be written",
		successor = "none (the ext4 journal's commit= bounds metadata age)"},
	nfract_sync = {meaning = "percent dirty at which writers flush synchronously",
		successor = "vm.dirty_ratio (or vm.dirty_bytes)"},
	nfract_stop_bdflush = {meaning = "percent dirty at which bdflush stops",
		successor = "none"},
}

local function layout_for(kernel)
	if type(kernel) ~= "string" then return "2.4.19", false end
	if kernel:match("^2%.2%.") or kernel == "2.2" then return "2.2", true end
	local minor = kernel:match("^2%.4%.(%d+)")
	if minor then
		minor = tonumber(minor)
		return minor >= 19 and "2.4.19" or minor >= 10 and "2.4.10" or "2.4.0", true
	end
	if kernel:match("^2%.4") then return "2.4.19", true end
	return "2.4.19", false
end

-- Whether `vals` are the stock values of layout `which`, dummy fields aside.
local function is_stock(vals, which)
	local names = LAYOUTS[which]
	if #vals ~= #names then return false end
	for i, name in ipairs(names) do
		if not name:match("^dummy") and vals[i] ~= DEFAULTS[which][i] then return false end
	end
	return true
end

-- The literal translations that still make sense: bdflush `field` (counted in `unit`) as the vm
-- sysctl `name`, when its value `fits` (given the other fields `p` and the current values `cur`).
local TRANSLATIONS = {
	{field = "nfract", unit = "", name = "dirty_background_ratio", confidence = 0.4,
		fits = function(v, p, cur) return v >= 1 and v < (p.nfract_sync or cur.dirty_ratio) end,
		why = function(v)
			return string.format("nfract started asynchronous "
				.. "writeback at %d%% of the buffer cache dirty; vm.dirty_background_ratio starts the flusher "
				.. "threads at a percentage of available memory (default 10). On a machine with gigabytes of "
				.. "RAM %d%% can be far more data than the old setting ever held: consider "
				.. "vm.dirty_background_bytes instead.", v, v)
		end},
	{field = "nfract_sync", unit = "", name = "dirty_ratio", confidence = 0.4,
		fits = function(v) return v >= 1 and v <= 100 end,
		why = function(v)
			return string.format("nfract_sync made writers flush "
				.. "synchronously at %d%% dirty; vm.dirty_ratio throttles writers at a percentage of available "
				.. "memory (default 20). Large values on large-RAM hosts mean long stalls when the limit is "
				.. "reached; vm.dirty_bytes is the absolute alternative.", v)
		end},
	{field = "interval", unit = " jiffies", name = "dirty_writeback_centisecs", confidence = 0.5,
		fits = function(v) return v > 0 end,
		why = function(v)
			return string.format("interval was the "
				.. "kupdate period, %d jiffies = %.1f s at HZ=100; vm.dirty_writeback_centisecs is the flusher "
				.. "wake-up period (default 500, the same 5 s as 2.4's default). 0 would disable periodic "
				.. "writeback entirely.", v, v / 100)
		end},
	{field = "age_buffer", unit = " jiffies", name = "dirty_expire_centisecs", confidence = 0.5,
		fits = function(v) return v > 0 end,
		why = function(v)
			return string.format("age_buffer let "
				.. "dirty data wait %d jiffies (%.0f s at HZ=100) before it had to be written; "
				.. "vm.dirty_expire_centisecs is the same age limit (default 3000, the 30 s of 2.2/2.4). The "
				.. "durability cost is the same as then: a crash can lose data written up to %.0f s earlier "
				.. "unless the application fsyncs.", v, v / 100, v / 100)
		end},
}

-- The translations, info only, each skipped when it equals the current (or default) value.
local function translate_fields(p, vm, ev, out)
	local cur = {
		dirty_background_ratio = vm.dirty_background_ratio or 10, dirty_ratio = vm.dirty_ratio or 20,
		dirty_writeback_centisecs = vm.dirty_writeback_centisecs or 500,
		dirty_expire_centisecs = vm.dirty_expire_centisecs or 3000,
	}
	for _, t in ipairs(TRANSLATIONS) do
		local v = p[t.field]
		if fstune.is_integer(v) and t.fits(v, p, cur) and v ~= cur[t.name] then
			out[#out + 1] = {name = t.name, setting = "sysctl.vm." .. t.name, recommended = v,
				severity = "info", confidence = t.confidence,
				title = string.format("bdflush %s=%d%s translates to vm.%s=%d", t.field, v, t.unit, t.name, v),
				rationale = t.why(v), evidence = ev}
		end
	end
end

local function check(facts)
	local out = {}
	local vm = facts.vm
	local list = vm.bdflush
	local host = facts.host or {}
	local vals = {}
	for i, v in ipairs(list) do vals[i] = v end
	local which, known = layout_for(host.kernel)
	local names = LAYOUTS[which]
	-- Stock values of any layout are stock: a list copied from another 2.x release's defaults was
	-- never tuning, whatever kernel the facts name.
	for _, l in ipairs(ORDER) do
		if is_stock(vals, l) then return out end
	end
	local p = {}
	local rows = {}
	for i, name in ipairs(names) do
		local v = vals[i]
		if v ~= nil then
			p[name] = v
			if not name:match("^dummy") then
				rows[#rows + 1] = string.format("%s=%d (%s) -> %s", name, v, FIELDS[name].meaning, FIELDS[name].successor)
			end
		end
	end
	local layout_note = known and string.format("Read with the %s field order (kernel %s).", which, host.kernel)
		or string.format("The kernel is not 2.2 or 2.4 (%s), so the values are read in the 2.4.19 order, "
			.. "the last one there was.", host.kernel or "unknown")
	local ev = fstune.present({"vm.bdflush", "host.kernel"})
	out[#out + 1] = {name = "translation", severity = "info", confidence = 0.6,
		title = "vm.bdflush is 2.2/2.4 advice; here is what each field became",
		rationale = string.format("%s %s. Jiffies are read as centiseconds (HZ=100 on 2.2/2.4 x86). bdflush "
			.. "percentages were of a buffer cache in 128 MB machines; vm.dirty_* percentages are of "
			.. "available memory today, so a literal copy is rarely right.%s", layout_note,
			table.concat(rows, "; "), #vals ~= 9 and string.format(" (%d values given; bdflush had 9.)", #vals) or ""),
		evidence = ev}

	translate_fields(p, vm, ev, out)
	return out
end

return fstune.rule {
	id = "legacy",
	title = "Translate old /proc/sys/vm/bdflush tuning to today's vm.dirty_* sysctls",
	description = [[
/proc/sys/vm/bdflush held 9 integers in Linux 2.2 and 2.4 (`bdflush -N value` set field N). The
field order changed between 2.2, 2.4.0, 2.4.10 (nrefill gone; stock 40 0 0 0 500 3000 60 0 0) and
2.4.19 (nfract_stop_bdflush added; stock 30 500 0 0 500 3000 60 20 0); host.kernel chooses the
layout (2.4.19's when the kernel is neither). When hand-written facts carry vm.bdflush, the rule lists every field with its
meaning and its successor, and offers the literal translations that still make sense (info only):

  nfract        -> vm.dirty_background_ratio (only when below the hard limit)
  nfract_sync   -> vm.dirty_ratio (2.4)
  interval      -> vm.dirty_writeback_centisecs (2.4; jiffies = centiseconds at HZ=100)
  age_buffer    -> vm.dirty_expire_centisecs
  ndirty, nrefill, nref_dirt, age_super, nfract_stop_bdflush -> no successor

Translations equal to the current (or default) value are not repeated, and a list equal to the
stock values of any layout (dummy fields aside) was never tuned and gets nothing. A 2000 report on
Linux 2.2.6 with 128 MB of RAM (rebuilding a C-ISAM index on ext2) tuned with
`bdflush -0 100 -1 5000 -2 2000 -3 32 -5 12000 -d`:
nfract=100 has no sensible modern equivalent (a background threshold at or above the hard one is
halved by the kernel), age_buffer=12000 is vm.dirty_expire_centisecs=12000, two minutes.
The semantic mapping is an inference from the definitions, not a documented equivalence.]],
	sources = {
		"Documentation/sysctl/vm.txt for 2.2.10: bdflush fields and defaults [L22-vmtxt]",
		"Linux 2.4.0 fs/buffer.c union bdflush_param [L240-buffer]; 2.4.17 fs/buffer.c (the 2.4.10-2.4.18 "
			.. "layout) and 2.4.27 fs/buffer.c (nfract_stop_bdflush since 2.4.19) [L2427-buffer]",
		"Documentation/admin-guide/sysctl/vm.rst: dirty_* [L-vm]; mm/page-writeback.c defaults 10/20, "
			.. "500/3000 cs, bg >= thresh halved [L-pw]",
		"Securing & Optimizing Linux RH 6.x: bdflush defaults and tuning [TLDP-bdflush]",
		"seed: 2000-lkml-ext2-1k-vs-4k-database ('bdflush -0 100 -1 5000 -2 2000 -3 32 -5 12000 -d')",
	},
	settings = {"sysctl.vm.dirty_background_ratio", "sysctl.vm.dirty_ratio",
		"sysctl.vm.dirty_writeback_centisecs", "sysctl.vm.dirty_expire_centisecs"},
	needs = {"vm.bdflush"},
	uses = {"host.kernel", "vm.dirty_ratio", "vm.dirty_background_ratio", "vm.dirty_writeback_centisecs",
		"vm.dirty_expire_centisecs"},
	check = check,
	tests = {
		{name = "the 2000 seed on 2.2.6: bdflush -0 100 -1 5000 -2 2000 -3 32 -5 12000",
			facts = {host = {kernel = "2.2.6"}, vm = {bdflush = {100, 5000, 2000, 32, 15, 12000, 500, 1884, 2}}},
			expect = {"translation", {name = "dirty_expire_centisecs", recommended = 12000}}},
		{name = "2.4.0 stock values were never tuned: nothing",
			facts = {host = {kernel = "2.4.5"}, vm = {bdflush = {30, 64, 64, 256, 500, 3000, 60, 0, 0}}},
			expect = {}},
		{name = "2.4.10-2.4.18 stock values on 2.4.18: nothing",
			facts = {host = {kernel = "2.4.18"}, vm = {bdflush = {40, 0, 0, 0, 500, 3000, 60, 0, 0}}},
			expect = {}},
		{name = "2.4.19 stock values (nfract_stop_bdflush 20) on 2.4.19: nothing",
			facts = {host = {kernel = "2.4.19"}, vm = {bdflush = {30, 500, 0, 0, 500, 3000, 60, 20, 0}}},
			expect = {}},
		{name = "2.4.19 stock values with no kernel named: nothing",
			facts = {vm = {bdflush = {30, 500, 0, 0, 500, 3000, 60, 20, 0}}},
			expect = {}},
		{name = "2.4.18 tuned: read in the 2.4.10 order (no nfract_stop_bdflush)",
			facts = {host = {kernel = "2.4.18"}, vm = {bdflush = {40, 0, 0, 0, 500, 3000, 80, 0, 0},
				dirty_ratio = 20, dirty_background_ratio = 10}},
			expect = {"translation", {name = "dirty_ratio", recommended = 80},
				{name = "dirty_background_ratio", recommended = 40}}},
		{name = "Red Hat 6.x default line on 2.2 (dummy fields differ): nothing",
			facts = {host = {kernel = "2.2.14"}, vm = {bdflush = {40, 500, 64, 256, 500, 3000, 500, 1884, 2}}},
			expect = {}},
		{name = "2.4 tuned for fewer, later flushes",
			facts = {host = {kernel = "2.4.8"}, vm = {bdflush = {30, 64, 64, 256, 500, 3000, 40, 0, 0},
				dirty_background_ratio = 10, dirty_ratio = 20}},
			expect = {"translation", {name = "dirty_ratio", recommended = 40}, {name = "dirty_background_ratio",
				recommended = 30}}},
		{name = "2.4.19 layout on 2.4.27 with an old kupdate interval",
			facts = {host = {kernel = "2.4.27"}, vm = {bdflush = {10, 500, 0, 0, 100, 3000, 20, 5, 0},
				dirty_ratio = 20, dirty_background_ratio = 10}},
			expect = {"translation", {name = "dirty_writeback_centisecs", recommended = 100}}},
		{name = "modern kernel, hand-written list: read in the 2.4.19 order",
			facts = {host = {kernel = "6.8.0"}, vm = {bdflush = {10, 500, 0, 0, 500, 3000, 20, 0, 0}}},
			expect = {"translation"}},
		{name = "no bdflush: not evaluated", facts = {vm = {dirty_ratio = 20}}, expect = "not_evaluated"},
	},
}
