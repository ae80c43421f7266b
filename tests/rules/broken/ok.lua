-- A valid rule beside a broken one: it still loads, runs and passes.
return {
  id = "ok_rule",
  title = "Always fine",
  description = "Says something when fs.type is ext4.",
  sources = { "tests" },
  settings = {},
  needs = { "fs.type" },
  check = function(facts)
    if facts.fs.type == "ext4" then
      return { { name = "hello", severity = "info", confidence = 1, title = "ext4",
        rationale = "advice without a setting", evidence = { "fs.type" } } }
    end
  end,
  tests = {
    { name = "ext4", facts = { fs = { type = "ext4" } },
      expect = { { name = "hello", disruption = "advice" } } },
    { name = "xfs", facts = { fs = { type = "xfs" } }, expect = {} },
  },
}
