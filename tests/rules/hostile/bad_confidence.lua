-- expect: error field confidence

local function check(facts)
  return { { name = "x", severity = "info", confidence = 1.5, title = "t", rationale = "r" } }
end
return { id = "h_bad_confidence", title = "hostile", description = "a hostile rule for the sandbox tests",
  sources = { "tests/rules/hostile" }, settings = {}, needs = {}, check = check,
  tests = { { name = "runs check", facts = { fs = { type = "ext4" } }, expect = {} } } }
