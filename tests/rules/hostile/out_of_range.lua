-- expect: error out of range 0..100
local function check(facts)
  return { { name = "ratio", setting = "sysctl.vm.dirty_ratio", recommended = 150,
    severity = "warn", confidence = 0.5, title = "t", rationale = "r" } }
end
return { id = "h_out_of_range", title = "hostile", description = "out-of-range value",
  sources = { "tests" }, settings = { "sysctl.vm.dirty_ratio" }, needs = {}, check = check,
  tests = { { name = "runs check", facts = { fs = { type = "ext4" } }, expect = {} } } }
