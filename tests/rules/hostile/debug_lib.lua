-- expect: error global 'debug'

local function check(facts)
  debug.sethook()
end
return { id = "h_debug_lib", title = "hostile", description = "a hostile rule for the sandbox tests",
  sources = { "tests/rules/hostile" }, settings = {}, needs = {}, check = check,
  tests = { { name = "runs check", facts = { fs = { type = "ext4" } }, expect = {} } } }
