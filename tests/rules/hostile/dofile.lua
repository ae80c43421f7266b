-- expect: error global 'dofile'

local function check(facts)
  dofile("/etc/passwd")
end
return { id = "h_dofile", title = "hostile", description = "a hostile rule for the sandbox tests",
  sources = { "tests/rules/hostile" }, settings = {}, needs = {}, check = check,
  tests = { { name = "runs check", facts = { fs = { type = "ext4" } }, expect = {} } } }
