-- An admin's replacement of the built-in queue rule: it says nothing, ever.
return {
  id = "queue",
  title = "Local policy: schedulers are managed by configuration management",
  description = "Replaces the built-in queue rule on this site.",
  sources = { "site policy" },
  settings = {},
  needs = { "device.scheduler" },
  check = function() return {} end,
  tests = {
    { name = "silent on bfq", facts = { device = { scheduler = "bfq" } }, expect = {} },
    { name = "positive that must fail", facts = { device = { scheduler = "none" } },
      expect = { "never_produced" } },
  },
}
