-- expect: error not enough memory | instruction budget | wall-clock limit

local function check(facts)
  local t
  while true do
    pcall(function() t = {} for i = 1, 1e9 do t[i] = string.rep("y", 4096) .. i end end)
    t = nil
  end
end
return { id = "h_membomb_pcall", title = "hostile", description = "a hostile rule for the sandbox tests",
  sources = { "tests/rules/hostile" }, settings = {}, needs = {}, check = check,
  tests = { { name = "runs check", facts = { fs = { type = "ext4" } }, expect = {} } } }
