-- expect: error wall-clock limit

local function check(facts)
  return { string.find(string.rep('a', 3000), '.-.-.-b') }
end
return { id = "h_pattern", title = "hostile", description = "a hostile rule for the sandbox tests",
  sources = { "tests/rules/hostile" }, settings = {}, needs = {}, check = check,
  tests = { { name = "runs check", facts = { fs = { type = "ext4" } }, expect = {} } } }
