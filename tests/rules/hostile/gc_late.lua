-- expect: clean

local function check(facts)
  local mt = {}
  local t = setmetatable({}, mt)
  mt.__gc = function() while true do end end
  t = nil
  return {}
end
return { id = "h_gc_late", title = "hostile", description = "a hostile rule for the sandbox tests",
  sources = { "tests/rules/hostile" }, settings = {}, needs = {}, check = check,
  tests = { { name = "runs check", facts = { fs = { type = "ext4" } }, expect = {} } } }
