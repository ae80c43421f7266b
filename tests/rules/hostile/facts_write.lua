-- expect: error facts are read-only

local function check(facts)
  facts.fs.type = "xfs"
end
return { id = "h_facts_write", title = "hostile", description = "a hostile rule for the sandbox tests",
  sources = { "tests/rules/hostile" }, settings = {}, needs = {}, check = check,
  tests = { { name = "runs check", facts = { fs = { type = "ext4" } }, expect = {} } } }
