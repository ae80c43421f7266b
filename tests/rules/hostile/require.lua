-- expect: error global 'require'

local function check(facts)
  require("os").execute("touch /tmp/fstune-rules-sentinel")
end
return { id = "h_require", title = "hostile", description = "a hostile rule for the sandbox tests",
  sources = { "tests/rules/hostile" }, settings = {}, needs = {}, check = check,
  tests = { { name = "runs check", facts = { fs = { type = "ext4" } }, expect = {} } } }
