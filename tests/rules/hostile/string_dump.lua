-- expect: error field 'dump'

local function check(facts)
  return string.dump(check)
end
return { id = "h_string_dump", title = "hostile", description = "a hostile rule for the sandbox tests",
  sources = { "tests/rules/hostile" }, settings = {}, needs = {}, check = check,
  tests = { { name = "runs check", facts = { fs = { type = "ext4" } }, expect = {} } } }
