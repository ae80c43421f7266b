-- expect: clean
-- Shell metacharacters in a recommended value and in facts, and terminal escapes (a raw ESC
-- byte in the source and one made at run time) in the text: the engine must quote the value as one
-- argument and strip the escapes.
local function check(facts)
  return {
    { name = "label", setting = "mkfs.label", recommended = "$(touch x)'\";#", fs = "ext4",
      severity = "info", confidence = 0.5, title = "label [31mred" .. "\27[2J",
      rationale = "quoted" },
    { name = "noatime", setting = "mount.option.noatime", recommended = true,
      severity = "info", confidence = 0.5, title = "noatime", rationale = "mount point quoting" },
    { name = "stride", setting = "mkfs.stride", recommended = 16, fs = "ext4",
      severity = "info", confidence = 0.5, title = "stride", rationale = "merged -E" },
    { name = "stripe", setting = "mkfs.stripe_width", recommended = 64, fs = "ext4",
      severity = "info", confidence = 0.5, title = "stripe", rationale = "merged -E" },
  }
end
return { id = "h_shell_meta", title = "shell metacharacters", description = "quoting test",
  sources = { "tests" }, settings = { "mkfs.label", "mount.option.noatime", "mkfs.stride",
  "mkfs.stripe_width" }, needs = {}, check = check,
  tests = { { name = "quoted", facts = { fs = { type = "ext4", mount_point = "/srv/a b;touch x" } },
    expect = { "label", "noatime", "stride", "stripe" } } } }
