-- expect: error instruction budget

local function check(facts)
  while true do
    pcall(function() while true do end end)
    xpcall(function() while true do end end, function() while true do end end)
  end
end
return { id = "h_pcall_loop", title = "hostile", description = "a hostile rule for the sandbox tests",
  sources = { "tests/rules/hostile" }, settings = {}, needs = {}, check = check,
  tests = { { name = "runs check", facts = { fs = { type = "ext4" } }, expect = {} } } }
