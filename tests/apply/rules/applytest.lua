-- Test-only rules for tests/apply/apply-*.sh (loaded with --rules-dir, never shipped): settings the
-- shipped rules have no reason to recommend on a loop device, chosen from the facts so that each
-- recommendation differs from the value the machine has now: the loop's bdi limits, a host sysctl
-- one centisecond away from its value, and a read-ahead the kernel rounds to whole pages (130 KiB
-- reads back as 128: a value that does not take).

local function rec(name, setting, value, key)
	return {name = name, setting = setting, recommended = value, severity = "info", confidence = 0.5,
		title = "apply test: " .. setting, rationale = "A test of fstune apply.", evidence = {key}}
end

local function check(facts)
	local out, bdi, vm, d = {}, (facts.vm or {}).bdi or {}, facts.vm or {}, facts.device or {}
	if math.type(bdi.max_ratio) == "integer" then
		out[#out + 1] = rec("bdi_cap", "bdi.max_ratio", bdi.max_ratio == 60 and 70 or 60, "vm.bdi.max_ratio")
	end
	if math.type(bdi.strict_limit) == "integer" then
		out[#out + 1] = rec("bdi_strict", "bdi.strict_limit", bdi.strict_limit == 0, "vm.bdi.strict_limit")
	end
	local e = vm.dirty_expire_centisecs
	if math.type(e) == "integer" then
		out[#out + 1] = rec("expire", "sysctl.vm.dirty_expire_centisecs", e > 100 and e - 1 or e + 1,
			"vm.dirty_expire_centisecs")
	end
	if math.type(d.read_ahead_kb) == "integer" and d.read_ahead_kb ~= 130 then
		out[#out + 1] = rec("odd_readahead", "queue.read_ahead_kb", 130, "device.read_ahead_kb")
	end
	return out
end

return {
	id = "applytest",
	title = "fstune apply's test settings",
	description = "Test-only: bdi limits, a sysctl one step away, a read-ahead that does not take.",
	sources = {"tests/lib/apply.sh"},
	settings = {"bdi.max_ratio", "bdi.strict_limit", "sysctl.vm.dirty_expire_centisecs", "queue.read_ahead_kb"},
	needs = {},
	uses = {"vm.bdi.max_ratio", "vm.bdi.strict_limit", "vm.dirty_expire_centisecs", "device.read_ahead_kb"},
	check = check,
	tests = {
		{name = "a loop device's defaults", facts = {vm = {bdi = {max_ratio = 100, strict_limit = 0},
			dirty_expire_centisecs = 3000}, device = {read_ahead_kb = 128}},
			expect = {{name = "bdi_cap", recommended = 60}, {name = "bdi_strict", recommended = true},
				{name = "expire", recommended = 2999}, {name = "odd_readahead", recommended = 130}}},
		{name = "nothing known: nothing", facts = {device = {name = "loop0"}}, expect = {}},
	},
}
