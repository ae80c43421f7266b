-- expect: error table expected

local function check(facts)
  rawset(facts, "fs", { type = "xfs" })
end
return { id = "h_facts_rawset", title = "hostile", description = "a hostile rule for the sandbox tests",
  sources = { "tests/rules/hostile" }, settings = {}, needs = {}, check = check,
  tests = { { name = "runs check", facts = { fs = { type = "ext4" } }, expect = {} } } }
