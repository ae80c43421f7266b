-- expect: error global 'os'

local function check(facts)
  os.execute("touch /tmp/fstune-rules-sentinel")
end
return { id = "h_os_execute", title = "hostile", description = "a hostile rule for the sandbox tests",
  sources = { "tests/rules/hostile" }, settings = {}, needs = {}, check = check,
  tests = { { name = "runs check", facts = { fs = { type = "ext4" } }, expect = {} } } }
