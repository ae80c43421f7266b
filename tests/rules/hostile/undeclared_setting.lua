-- expect: error queue.scheduler is not declared

local function check(facts)
  return { { name = "x", setting = "queue.scheduler", recommended = "none",
    severity = "warn", confidence = 0.5, title = "t", rationale = "r" } }
end
return { id = "h_undeclared_setting", title = "hostile", description = "a hostile rule for the sandbox tests",
  sources = { "tests/rules/hostile" }, settings = {}, needs = {}, check = check,
  tests = { { name = "runs check", facts = { fs = { type = "ext4" } }, expect = {} } } }
