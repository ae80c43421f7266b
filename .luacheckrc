-- luacheck's settings for fstune's rule files (luacheck reads the nearest .luacheckrc from the current
-- directory up). A rule runs in the sandbox of rules/sandbox.c: Lua 5.4's base, string, table, math and
-- utf8 libraries without what could reach outside, load code or break determinism, plus the `fstune`
-- helper module of rules/lua_host.c. All are read globals here: a rule reads them and sets none (its
-- file returns one table). Keep the lists in step with those two files.
local sandbox_base = {
	"_G", "_VERSION", "assert", "error", "getmetatable", "ipairs", "next", "pairs", "pcall", "rawequal",
	"rawget", "rawlen", "rawset", "select", "setmetatable", "tonumber", "tostring", "type", "xpcall",
}

local function fields(names)
	local t = {}
	for _, n in ipairs(names) do
		t[n] = {}
	end
	return {fields = t}
end

local read_globals = {
	string = fields {
		"byte", "char", "find", "format", "gmatch", "gsub", "len", "lower", "match", "pack", "packsize",
		"rep", "reverse", "sub", "unpack", "upper",
	},
	table = fields {"concat", "insert", "move", "pack", "remove", "sort", "unpack"},
	math = fields {
		"abs", "ceil", "cos", "deg", "exp", "floor", "fmod", "huge", "log", "max", "maxinteger", "min",
		"mininteger", "modf", "pi", "rad", "sin", "sqrt", "tan", "tointeger", "type", "ult", "atan",
		"asin", "acos",
	},
	utf8 = fields {"char", "charpattern", "codepoint", "codes", "len", "offset"},
	fstune = fields {
		"has", "get", "source", "unavailable", "contains", "fmt_bytes", "fmt_rate", "measured",
		"fmt_us", "is_power_of_two", "is_integer", "is_ext", "is_blank", "is_freebsd", "zoned",
		"positive", "is_assumed", "present", "fmt_count", "attach_sources", "rule", "merge",
		"pow2_floor", "KiB", "MiB", "GiB", "TiB", "FULL_SHARE",
	},
}
for _, n in ipairs(sandbox_base) do
	read_globals[n] = {}
end

stds.fstune_rules = {read_globals = read_globals}
std = "fstune_rules"

-- A description in a long bracket string is printed line for line as written (fstune rules show):
-- its lines are prose, not code, and are left as long as the text needs.
max_string_line_length = false
