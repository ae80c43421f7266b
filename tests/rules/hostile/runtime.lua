-- expect: error attempt to index a nil value

local function check(facts)
  return facts.nothing.here
end
return { id = "h_runtime", title = "hostile", description = "a hostile rule for the sandbox tests",
  sources = { "tests/rules/hostile" }, settings = {}, needs = {}, check = check,
  tests = { { name = "runs check", facts = { fs = { type = "ext4" } }, expect = {} } } }
