-- expect: error unknown setting 'sysctl.vm.bogus'

local function check(facts)
  return { { name = "x", setting = "sysctl.vm.bogus", recommended = 1,
    severity = "warn", confidence = 0.5, title = "t", rationale = "r" } }
end
return { id = "h_unknown_setting", title = "hostile", description = "a hostile rule for the sandbox tests",
  sources = { "tests/rules/hostile" }, settings = {}, needs = {}, check = check,
  tests = { { name = "runs check", facts = { fs = { type = "ext4" } }, expect = {} } } }
