-- A rule that cannot run without a measurement: the report and wizard tests load it with --rules-dir
-- to see a finding that rests on bench.* keys, and that is not evaluated without them.
return {
	id = "needs_bench",
	title = "needs a benchmark (report and wizard tests)",
	description = "Reports the measured QD1 random read rate, so that the tests see a rule that needs bench keys.",
	sources = {"tests/report/report-bench.sh", "tests/wizard/ui-bench.sh"},
	settings = {},
	needs = {"bench.rand_read_4k_qd1.iops"},
	check = function(facts)
		return {{name = "measured", severity = "info", confidence = 1,
			title = "a measured rate", rationale = string.format("%.0f IOPS.", facts.bench.rand_read_4k_qd1.iops),
			evidence = {"bench.rand_read_4k_qd1.iops"}}}
	end,
	tests = {{name = "measured", facts = {bench = {rand_read_4k_qd1 = {iops = 100}}}, expect = {"measured"}}},
}
