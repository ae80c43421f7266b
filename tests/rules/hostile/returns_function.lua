-- expect: error a function cannot be returned

local function check(facts)
  return { { name = "x", severity = "info", confidence = 0.5, title = "t", rationale = "r",
    evidence = { check } } }
end
return { id = "h_returns_function", title = "hostile", description = "a hostile rule for the sandbox tests",
  sources = { "tests/rules/hostile" }, settings = {}, needs = {}, check = check,
  tests = { { name = "runs check", facts = { fs = { type = "ext4" } }, expect = {} } } }
