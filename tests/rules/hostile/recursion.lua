-- expect: error stack overflow | not enough memory

local function check(facts)
  local function f(n) return f(n + 1) + 1 end
  return f(1)
end
return { id = "h_recursion", title = "hostile", description = "a hostile rule for the sandbox tests",
  sources = { "tests/rules/hostile" }, settings = {}, needs = {}, check = check,
  tests = { { name = "runs check", facts = { fs = { type = "ext4" } }, expect = {} } } }
