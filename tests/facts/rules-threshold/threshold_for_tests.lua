-- Deterministic findings for the report's --fail-on tests, independent of the shipped rules: a
-- warn on every ext4 filesystem, and a critical when the median directory holds over 10,000 files.
return {
	id = "threshold_for_tests",
	title = "fixed findings (report tests)",
	description = "Gives a warn for ext4 and a critical for crowded directories, so that the tests "
		.. "of --fail-on know what to expect.",
	sources = {"tests/report/report-errors.sh"},
	settings = {},
	needs = {"fs.type"},
	uses = {"workload.files_per_dir"},
	check = function(facts)
		local out = {}
		if facts.fs.type == "ext4" then
			out[#out + 1] = {name = "ext4_seen", severity = "warn", confidence = 1,
				title = "an ext4 filesystem", rationale = "The test rule warns on every ext4.",
				evidence = {"fs.type"}}
		end
		local fpd = facts.workload and facts.workload.files_per_dir
		if fpd and fpd > 10000 then
			out[#out + 1] = {name = "crowded", severity = "critical", confidence = 1,
				title = "crowded directories",
				rationale = string.format("The median directory holds %d files.", fpd),
				evidence = {"workload.files_per_dir"}}
		end
		return out
	end,
	tests = {
		{name = "ext4 warns", facts = {fs = {type = "ext4"}}, expect = {"ext4_seen"}},
		{name = "xfs is quiet", facts = {fs = {type = "xfs"}}, expect = {}},
	},
}
