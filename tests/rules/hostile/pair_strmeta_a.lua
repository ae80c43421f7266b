-- expect: clean
-- Tampers with strings in its own state: the locked string metatable, then the string table.
local ok = pcall(function() getmetatable("").__index = { upper = function() return "PWNED" end } end)
assert(not ok, "string metatable was writable")
string.upper = function() return "PWNED" end
string.rep = nil
local function check(facts)
  return {}
end
return { id = "h_strmeta_a", title = "hostile", description = "tampers with the string metatable",
  sources = { "tests" }, settings = {}, needs = {}, check = check,
  tests = { { name = "runs check", facts = { fs = { type = "ext4" } }, expect = {} } } }
