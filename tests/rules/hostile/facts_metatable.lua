-- expect: error table expected

local function check(facts)
  assert(getmetatable(facts) == "locked", "metatable not locked")
  setmetatable(facts, nil)
end
return { id = "h_facts_metatable", title = "hostile", description = "a hostile rule for the sandbox tests",
  sources = { "tests/rules/hostile" }, settings = {}, needs = {}, check = check,
  tests = { { name = "runs check", facts = { fs = { type = "ext4" } }, expect = {} } } }
