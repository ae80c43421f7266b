-- The worked example of fstune-rules(5): vm.vfs_cache_pressure = 0 never reclaims dentries and
-- inodes. Kept here so that the example in the manual is tested.
local function check(facts)
  local p = facts.vm.vfs_cache_pressure
  if p ~= 0 then
    return {}
  end
  return {
    { name = "never_reclaim",
      setting = "sysctl.vm.vfs_cache_pressure",
      recommended = 100,
      severity = "warn",
      confidence = 0.9,
      title = "Let the kernel reclaim dentries and inodes again",
      rationale = "vm.vfs_cache_pressure = 0 means the kernel never reclaims dentry and " ..
        "inode caches, which can easily lead to out-of-memory conditions (vm.rst). 100 is " ..
        "the kernel's default, a fair balance with the page cache.",
      evidence = { "vm.vfs_cache_pressure" } },
  }
end

return {
  id = "cache_pressure",
  title = "vm.vfs_cache_pressure = 0",
  description = "Warns when dentry and inode caches are never reclaimed.",
  sources = { "Linux Documentation/admin-guide/sysctl/vm.rst, vfs_cache_pressure" },
  settings = { "sysctl.vm.vfs_cache_pressure" },
  needs = { "vm.vfs_cache_pressure" },
  check = check,
  tests = {
    { name = "pressure 0", facts = { vm = { vfs_cache_pressure = 0 } },
      expect = { { name = "never_reclaim", recommended = 100, severity = "warn" } } },
    { name = "default 100", facts = { vm = { vfs_cache_pressure = 100 } }, expect = {} },
    { name = "unknown", facts = {}, expect = "not_evaluated" },
  },
}
