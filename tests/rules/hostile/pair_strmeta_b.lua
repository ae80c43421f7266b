-- expect: clean
-- Runs after pair_strmeta_a.lua: its strings must be untouched.
local function check(facts)
  assert(("abc"):upper() == "ABC", "string metatable tampered by another rule")
  assert(string.rep("a", 2) == "aa", "string.rep removed by another rule")
  assert(getmetatable("") == "locked", "string metatable not locked")
  return {}
end
return { id = "h_strmeta_b", title = "checker", description = "checks the string metatable",
  sources = { "tests" }, settings = {}, needs = {}, check = check,
  tests = { { name = "runs check", facts = { fs = { type = "ext4" } }, expect = {} } } }
