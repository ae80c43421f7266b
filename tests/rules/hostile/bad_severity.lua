-- expect: error field severity

local function check(facts)
  return { { name = "x", severity = "urgent", confidence = 0.5, title = "t", rationale = "r" } }
end
return { id = "h_bad_severity", title = "hostile", description = "a hostile rule for the sandbox tests",
  sources = { "tests/rules/hostile" }, settings = {}, needs = {}, check = check,
  tests = { { name = "runs check", facts = { fs = { type = "ext4" } }, expect = {} } } }
