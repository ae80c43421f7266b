-- A rule that fails at run time, for the report's tests: the report lists the error with file and
-- line, every other rule still runs, and --strict makes the status 3.
return {
	id = "broken_for_tests",
	title = "a rule that fails (report tests)",
	description = "Indexes a nil value in check(), to test how the report shows a rule error.",
	sources = {"tests/report/report-errors.sh"},
	settings = {},
	needs = {"fs.type"},
	check = function(facts)
		local missing = nil
		return missing.field -- line 12: attempt to index a nil value
	end,
	tests = {},
}
