-- expect: error not enough memory

local function check(facts)
  local t = {}
  for i = 1, 1e9 do t[i] = string.rep("x", 1 << 20) .. i end
end
return { id = "h_membomb", title = "hostile", description = "a hostile rule for the sandbox tests",
  sources = { "tests/rules/hostile" }, settings = {}, needs = {}, check = check,
  tests = { { name = "runs check", facts = { fs = { type = "ext4" } }, expect = {} } } }
