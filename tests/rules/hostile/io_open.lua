-- expect: error global 'io'

local function check(facts)
  io.open("/tmp/fstune-rules-sentinel", "w"):write("x")
end
return { id = "h_io_open", title = "hostile", description = "a hostile rule for the sandbox tests",
  sources = { "tests/rules/hostile" }, settings = {}, needs = {}, check = check,
  tests = { { name = "runs check", facts = { fs = { type = "ext4" } }, expect = {} } } }
