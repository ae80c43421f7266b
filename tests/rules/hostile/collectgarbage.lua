-- expect: error global 'collectgarbage'

local function check(facts)
  collectgarbage("stop")
end
return { id = "h_collectgarbage", title = "hostile", description = "a hostile rule for the sandbox tests",
  sources = { "tests/rules/hostile" }, settings = {}, needs = {}, check = check,
  tests = { { name = "runs check", facts = { fs = { type = "ext4" } }, expect = {} } } }
