-- expect: clean
-- Not hostile: the fstune helpers that replaced the shipped rules' local copies, on odd input too.

local function eq(got, want, what)
  if got ~= want then error(what .. ": got " .. tostring(got) .. ", want " .. tostring(want), 0) end
end

local function check(facts)
  eq(fstune.is_integer(4096), true, "is_integer 4096")
  eq(fstune.is_integer(4096.0), false, "is_integer 4096.0")
  eq(fstune.is_integer("1"), false, "is_integer string")
  eq(fstune.positive(512), 512, "positive 512")
  eq(fstune.positive(0), nil, "positive 0")
  eq(fstune.positive(-4), nil, "positive -4")
  eq(fstune.positive(1.5), nil, "positive 1.5")
  eq(fstune.positive(nil), nil, "positive nil")
  eq(fstune.is_assumed("fs.type"), false, "is_assumed of an ext2fs fact")
  eq(fstune.is_assumed("workload.files_total"), true, "is_assumed of an absent fact")
  eq(fstune.is_assumed("sources"), true, "is_assumed of the hidden sources map")
  local p = fstune.present({"workload.files_total", "fs.type", "sources", "vm.dirty_ratio"})
  eq(#p, 2, "present count")
  eq(p[1], "fs.type", "present 1")
  eq(p[2], "vm.dirty_ratio", "present 2")
  eq(#fstune.present({}), 0, "present of nothing")
  eq(fstune.fmt_count(0), "0", "fmt_count 0")
  eq(fstune.fmt_count(999), "999", "fmt_count 999")
  eq(fstune.fmt_count(1000), "1,000", "fmt_count 1000")
  eq(fstune.fmt_count(1234567), "1,234,567", "fmt_count 1234567")
  eq(fstune.fmt_count(-123456), "-123,456", "fmt_count -123456")
  eq(fstune.fmt_count(2.0), "2", "fmt_count 2.0")
  eq(fstune.fmt_count(math.mininteger), "-9,223,372,036,854,775,808", "fmt_count mininteger")
  eq(pcall(fstune.fmt_count, 1.5), false, "fmt_count 1.5 raises")
  local S = {"a", "b", "c"}
  local recs = fstune.attach_sources({{name = "x"}, {name = "y"}, {name = "z", sources = {"own"}}, {}},
    S, {x = {3, 1, 9}, y = {}})
  eq(table.concat(recs[1].sources, ","), "c,a", "attach_sources x")
  eq(#recs[2].sources, 0, "attach_sources y")
  eq(recs[3].sources[1], "own", "attach_sources keeps a rule's own")
  eq(recs[4].sources, nil, "attach_sources without a name")
  eq(pcall(fstune.attach_sources, {1}, S, {}), false, "attach_sources on a non-table raises")
  eq(pcall(fstune.present, nil), false, "present of nil raises")
  local ok, msg = pcall(fstune.present, {"fs.type", {}})
  eq(ok, false, "present of a table entry raises")
  eq(msg:match("entry 2 of the list is a table") ~= nil, true, "present's message: " .. tostring(msg))
  local r = fstune.rule({sources = S, rec_sources = {x = {2}},
    check = function() return {{name = "x"}, {name = "y"}} end})
  eq(r.rec_sources, nil, "rule takes rec_sources out of the table")
  local got = r.check({})
  eq(table.concat(got[1].sources, ","), "b", "rule attaches x's sources")
  eq(got[2].sources, nil, "rule leaves y the file's sources")
  local plain = {sources = S, check = check}
  eq(fstune.rule(plain), plain, "rule without rec_sources: the same table")
  eq(plain.check, check, "rule without rec_sources keeps check")
  eq(fstune.rule({sources = S, rec_sources = {}}).check, nil, "rule without check: left for the loader")
  eq(pcall(fstune.rule, {rec_sources = {}}), false, "rule with rec_sources but no sources raises")
  local m = fstune.merge({a = 1, b = 2}, {b = 3, c = 4})
  eq(m.a * 100 + m.b * 10 + m.c, 134, "merge")
  eq(fstune.merge({a = 1}).a, 1, "merge of nothing")
  eq(pcall(fstune.merge, nil, {}), false, "merge into nil raises")
  eq(fstune.pow2_floor(0), 1, "pow2_floor 0")
  eq(fstune.pow2_floor(-5), 1, "pow2_floor -5")
  eq(fstune.pow2_floor(3), 2, "pow2_floor 3")
  eq(fstune.pow2_floor(4096), 4096, "pow2_floor 4096")
  eq(fstune.pow2_floor(4097), 4096, "pow2_floor 4097")
  eq(fstune.pow2_floor(2.5), 2, "pow2_floor 2.5")
  eq(math.type(fstune.pow2_floor(1e9)), "integer", "pow2_floor of a float is an integer")
  eq(fstune.pow2_floor(1e9), 536870912, "pow2_floor 1e9")
  eq(fstune.pow2_floor((1 << 60) - 1), 1 << 59, "pow2_floor 2^60-1, above a double's precision")
  eq(fstune.pow2_floor(math.huge), 1 << 62, "pow2_floor inf")
  eq(fstune.pow2_floor(0 / 0), 1, "pow2_floor nan")
  eq(fstune.is_freebsd(), false, "is_freebsd of a Linux server's facts")
  local big = {}
  for i = 1, 100000 do big[i] = "fs.type" end
  eq(#fstune.present(big), 100000, "present of a long list")
  return {}
end
return { id = "h_helpers", title = "helpers", description = "the fstune helper module on odd input",
  sources = { "tests/rules/hostile" }, settings = {}, needs = {}, check = check,
  tests = { { name = "runs check", facts = { fs = { type = "ext4" } }, expect = {} } } }
