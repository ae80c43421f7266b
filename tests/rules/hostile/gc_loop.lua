-- expect: error __gc metamethods are not allowed

local function check(facts)
  setmetatable({}, { __gc = function() while true do end end })
end
return { id = "h_gc_loop", title = "hostile", description = "a hostile rule for the sandbox tests",
  sources = { "tests/rules/hostile" }, settings = {}, needs = {}, check = check,
  tests = { { name = "runs check", facts = { fs = { type = "ext4" } }, expect = {} } } }
