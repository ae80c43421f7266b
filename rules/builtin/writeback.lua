-- Dirty-page limits in bytes on hosts whose percentage limits allow gigabytes of dirty data.
local fstune = fstune
local MiB, GiB = fstune.MiB, fstune.GiB

-- My heuristics, stated in every rationale:
local DRAIN_MAX_S = 10        -- seconds to write back a full dirty limit before it is "too long"
local DRAIN_TARGET_S = 5      -- seconds of measured write bandwidth the new limit should hold
local NO_BENCH_LIMIT = 8 * GiB -- without a measurement, a ratio limit this large is flagged
local FLOOR, CEIL = 64 * MiB, 4 * GiB

local function round_mib(x)
  return (x // MiB) * MiB
end

local function check(facts)
  local vm, mem = facts.vm, facts.host.mem_total_bytes
  if vm.dirty_bytes ~= 0 or vm.dirty_background_bytes ~= 0 then
    return {} -- limits are already absolute
  end
  -- The ratios apply to available (free + reclaimable) memory, which is below total memory, so
  -- this is an upper bound of the real limit.
  local limit = mem * vm.dirty_ratio // 100
  local bw = fstune.get("bench.seq_write_1m.bw_bytes_per_s")
  local target, why, conf, evidence
  evidence = { "host.mem_total_bytes", "vm.dirty_ratio", "vm.dirty_bytes",
    "vm.dirty_background_bytes" }
  if bw and bw > 0 then
    local drain = limit / bw
    if drain <= DRAIN_MAX_S then
      return {}
    end
    target = math.max(FLOOR, math.min(CEIL, round_mib(math.floor(bw * DRAIN_TARGET_S))))
    if target >= limit then
      return {}
    end
    why = string.format("vm.dirty_ratio = %d%% of up to %s of memory lets up to %s of dirty " ..
      "pages build up; at the measured sequential write rate of %s/s that takes %.0f s to " ..
      "write back, and a process that hits the limit, or an fsync behind it, stalls for that " ..
      "long. Byte limits do not grow with RAM (the reason the kernel added them). %s holds " ..
      "about %d s of writes. The %d s threshold and the %d s target are this rule's own " ..
      "heuristics; tuned's postgresql profile uses 512 MiB / 64 MiB for the same reason.",
      vm.dirty_ratio, fstune.fmt_bytes(mem), fstune.fmt_bytes(limit), fstune.fmt_bytes(bw), drain,
      fstune.fmt_bytes(target), DRAIN_TARGET_S, DRAIN_MAX_S, DRAIN_TARGET_S)
    conf = 0.8
    evidence[#evidence + 1] = "bench.seq_write_1m.bw_bytes_per_s"
  else
    if limit < NO_BENCH_LIMIT then
      return {}
    end
    target = 1 * GiB
    why = string.format("vm.dirty_ratio = %d%% of up to %s of memory lets up to %s of dirty " ..
      "pages build up before writers are throttled; writing that back can stall fsync and " ..
      "writers for many seconds on most disks. Byte limits do not grow with RAM (the reason " ..
      "the kernel added them). Flagging limits of %s or more, and the values 1 GiB / 256 MiB, " ..
      "are this rule's own heuristics; run with benchmarks to size them from the measured " ..
      "write rate (tuned's postgresql profile uses 512 MiB / 64 MiB).",
      vm.dirty_ratio, fstune.fmt_bytes(mem), fstune.fmt_bytes(limit),
      fstune.fmt_bytes(NO_BENCH_LIMIT))
    conf = 0.5
  end
  local bg = math.max(16 * MiB, round_mib(target // 4))
  return {
    { name = "dirty_bytes",
      setting = "sysctl.vm.dirty_bytes",
      recommended = target,
      severity = "suggest",
      confidence = conf,
      title = "Cap dirty page cache at " .. fstune.fmt_bytes(target) .. " (vm.dirty_bytes)",
      rationale = why,
      evidence = evidence },
    { name = "dirty_background_bytes",
      setting = "sysctl.vm.dirty_background_bytes",
      recommended = bg,
      severity = "suggest",
      confidence = conf,
      title = "Start background writeback at " .. fstune.fmt_bytes(bg) ..
        " (vm.dirty_background_bytes)",
      rationale = "Goes with the dirty_bytes cap: background writeback starts at a quarter " ..
        "of it (this rule's heuristic; the kernel's defaults are a half, 10% of 20%), so " ..
        "flushing begins long before writers are throttled. Setting a byte value zeroes the " ..
        "matching ratio, and the revert sets the ratio back.",
      evidence = evidence },
  }
end

local function host(mem_gib)
  return { mem_total_bytes = mem_gib * GiB, virtualization = "none" }
end
local defaults = { dirty_ratio = 20, dirty_background_ratio = 10, dirty_bytes = 0,
  dirty_background_bytes = 0, dirty_expire_centisecs = 3000, dirty_writeback_centisecs = 500 }

return {
  id = "writeback",
  title = "Dirty-page limits in bytes on large-memory hosts",
  description = "With percentage limits, the amount of dirty page cache grows with RAM: 20% of " ..
    "256 GiB is 51 GiB waiting to be written. When the measured sequential write rate would " ..
    "need more than 10 s to write back the whole limit (or, without a measurement, the limit " ..
    "exceeds 8 GiB), the rule recommends vm.dirty_bytes and vm.dirty_background_bytes instead. " ..
    "Both thresholds are the rule's own heuristics.",
  sources = {
    "Linux Documentation/admin-guide/sysctl/vm.rst (dirty_bytes, dirty_ratio: writing one zeroes the other)",
    "Linux commit 2da02997e08d: mm: add dirty_background_bytes and dirty_bytes sysctls",
    "Linux mm/page-writeback.c: defaults 20/10, background >= limit is halved",
    "tuned profiles/postgresql/tuned.conf: dirty_bytes 512 MiB, dirty_background_bytes 64 MiB",
  },
  settings = { "sysctl.vm.dirty_bytes", "sysctl.vm.dirty_background_bytes" },
  needs = { "host.mem_total_bytes", "vm.dirty_ratio", "vm.dirty_background_ratio",
    "vm.dirty_bytes", "vm.dirty_background_bytes" },
  uses = { "bench.seq_write_1m.bw_bytes_per_s" },
  check = check,
  tests = {
    { name = "256 GiB, defaults, disk writes 500 MB/s",
      facts = { host = host(256), vm = defaults,
        bench = { seq_write_1m = { bw_bytes_per_s = 500000000 } },
        sources = { ["bench.seq_write_1m.bw_bytes_per_s"] = "bench",
          ["host.mem_total_bytes"] = "procfs", ["vm.dirty_ratio"] = "procfs",
          ["vm.dirty_bytes"] = "procfs", ["vm.dirty_background_bytes"] = "procfs" } },
      expect = { { name = "dirty_bytes", recommended = 2499805184, current = 0 },
        { name = "dirty_background_bytes", recommended = 624951296 } } },
    { name = "64 GiB, no benchmark",
      facts = { host = host(64), vm = defaults },
      expect = { { name = "dirty_bytes", recommended = 1073741824, confidence = 0.5 },
        { name = "dirty_background_bytes", recommended = 268435456 } } },
    { name = "16 GiB, no benchmark: 3.2 GiB limit is fine",
      facts = { host = host(16), vm = defaults },
      expect = {} },
    { name = "64 GiB but an NVMe that drains 12.8 GiB in under 10 s",
      facts = { host = host(64), vm = defaults,
        bench = { seq_write_1m = { bw_bytes_per_s = 3000000000 } } },
      expect = {} },
    { name = "already in bytes",
      facts = { host = host(256), vm = { dirty_ratio = 0, dirty_background_ratio = 0,
        dirty_bytes = 536870912, dirty_background_bytes = 67108864 } },
      expect = {} },
    { name = "vm facts missing: not evaluated",
      facts = { host = host(256) },
      expect = "not_evaluated" },
  },
}
