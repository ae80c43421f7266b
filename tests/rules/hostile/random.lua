-- expect: error field 'random'

local function check(facts)
  return math.random(6)
end
return { id = "h_random", title = "hostile", description = "a hostile rule for the sandbox tests",
  sources = { "tests/rules/hostile" }, settings = {}, needs = {}, check = check,
  tests = { { name = "runs check", facts = { fs = { type = "ext4" } }, expect = {} } } }
