/* Unit tests of a trial's verdict on a recommendation (rules/verify.c): matching an mkfs spec to a
 * candidate spec, and the verified, verified_by and verified_note fields the engine sets from the
 * trial facts. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "rules/internal.h"
#include "tests/unit/check.h"

static void test_match(void)
{
	json_t *mkfs[] = {
		json_pack("{s:s, s:[s, s]}", "fs", "ext4", "args", "-b", "4096"),
		json_pack("{s:s, s:[s, s]}", "fs", "ext4", "args", "-E", "stride=16"),
		json_pack("{s:s, s:[]}", "fs", "xfs", "args"),
		json_pack("{s:s, s:[s]}", "fs", "xfs", "args", "-K"),
		NULL,
	};
	/* the candidate's spec, the recommendation's mkfs (an index of mkfs[]), the answer (-1: no match) */
	static const struct {
		const char *spec;
		int mkfs, want;
	} cases[] = {
		{"ext4:-b 4096", 0, 0}, {"ext4:-b 4096 -m 1", 0, 2}, {"ext4:-m 1 -b 4096", 0, 2},
		{"  ext4 :  -b\t4096", 0, 0}, {"ext4:-b 1024", 0, -1}, {"ext4:-b", 0, -1},
		{"ext4:4096 -b", 0, -1}, {"ext2:-b 4096", 0, -1},
		{"ext4:-E stride=16,stripe_width=64", 1, 0}, {"ext4:-E stripe_width=64,stride=16", 1, 0},
		{"ext4:-E stripe_width=64", 1, -1}, {"ext4:-E stride=160", 1, -1},
		{"xfs:", 2, 0}, {"xfs:-K", 2, 1}, {"xfs:-K", 3, 0}, {"xfs:", 3, -1},
		{"not a spec", 2, -1}, {"xfs:;xfs:-K", 2, -1}, {"xfs:", 4, -1},
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int got = rules_mkfs_match(cases[i].spec, mkfs[cases[i].mkfs]);

		if (got != cases[i].want) {
			fprintf(stderr, "%s:%d: '%s' against mkfs[%d]: %d, want %d\n", __FILE__, __LINE__,
				cases[i].spec, cases[i].mkfs, got, cases[i].want);
			check_failures++;
		}
	}
	for (size_t i = 0; mkfs[i]; i++)
		json_decref(mkfs[i]);
}

/* A reformat recommendation asking for -b 1024, verified by `trial`; `trial` is freed. */
static json_t *verified(json_t *trial)
{
	json_t *rec = json_pack("{s:s, s:{s:s, s:[s, s]}}", "id", "blocksize.small", "mkfs", "fs", "ext4", "args",
				"-b", "1024");

	rules_verify(rec, trial);
	json_decref(trial);
	return rec;
}

static json_t *candidate(const char *spec, double median, int rank)
{
	return json_pack("{s:s, s:s, s:f, s:s, s:f, s:i}", "spec", spec, "metric", "smallfile.tps", "median", median,
			 "unit", "files/s", "spread_pct", 3.0, "rank", rank);
}

static void test_verdicts(void)
{
	json_t *rec, *by;

	/* ranked first, and the best */
	rec = verified(json_pack("{s:s, s:o, s:o}", "best", "c2", "c1", candidate("ext4:-b 4096", 900, 2), "c2",
				 candidate("ext4:-b 1024", 1200, 1)));
	CHECK_STR(json_string_value(json_object_get(rec, "verified")), "confirmed");
	CHECK_STR(json_string_value(json_object_get(rec, "verified_note")), "ext4:-b 1024 ranked first: median 1200 files/s");
	by = json_object_get(rec, "verified_by");
	CHECK_STR(json_string_value(json_object_get(by, "candidate")), "c2");
	CHECK_STR(json_string_value(json_object_get(by, "best_spec")), "ext4:-b 1024");
	CHECK_STR(json_string_value(json_object_get(by, "metric")), "smallfile.tps");
	CHECK(json_integer_value(json_object_get(by, "rank")) == 1);
	json_decref(rec);

	/* inside the noise of the best: rank 1 shared, confirmed */
	rec = verified(json_pack("{s:s, s:o, s:o}", "best", "c1", "c1", candidate("ext4:-b 4096", 1210, 1), "c2",
				 candidate("ext4:-b 1024", 1200, 1)));
	CHECK_STR(json_string_value(json_object_get(rec, "verified")), "confirmed");
	CHECK_CONTAINS(json_string_value(json_object_get(rec, "verified_note")), "is inside the noise of the best, ext4:-b 4096");
	json_decref(rec);

	/* another candidate ranked better */
	rec = verified(json_pack("{s:s, s:o, s:o}", "best", "c1", "c1", candidate("ext4:-b 4096", 1500, 1), "c2",
				 candidate("ext4:-b 1024", 1200, 2)));
	CHECK_STR(json_string_value(json_object_get(rec, "verified")), "contradicted");
	CHECK_STR(json_string_value(json_object_get(rec, "verified_note")),
		  "ext4:-b 1024 ranked 2: median 1200 against 1500 for ext4:-b 4096");
	json_decref(rec);

	/* the exact candidate wins over one with more options */
	rec = verified(json_pack("{s:s, s:o, s:o}", "best", "c1", "c1", candidate("ext4:-b 1024 -m 1", 1500, 1), "c2",
				 candidate("ext4:-b 1024", 1200, 2)));
	CHECK_STR(json_string_value(json_object_get(json_object_get(rec, "verified_by"), "candidate")), "c2");
	json_decref(rec);
}

/* Nothing is marked where the trial did not measure what the recommendation asks. */
static void test_unmarked(void)
{
	json_t *rec, *advice = json_pack("{s:s}", "id", "mount.noatime");
	json_t *trial = json_pack("{s:s, s:o}", "best", "c1", "c1", candidate("ext4:-b 1024", 900, 1));

	rec = verified(json_pack("{s:s, s:o}", "best", "c1", "c1", candidate("ext4:-b 4096", 900, 1)));
	CHECK(!json_object_get(rec, "verified"));
	json_decref(rec);
	/* an unranked candidate, a best that is not there, no trial at all */
	rec = verified(json_pack("{s:s, s:{s:s, s:f}}", "best", "c1", "c1", "spec", "ext4:-b 1024", "median", 900.0));
	CHECK(!json_object_get(rec, "verified"));
	json_decref(rec);
	rec = verified(json_pack("{s:s, s:o}", "best", "c9", "c1", candidate("ext4:-b 1024", 900, 1)));
	CHECK(!json_object_get(rec, "verified"));
	json_decref(rec);
	rec = verified(json_pack("{s:o}", "c1", candidate("ext4:-b 1024", 900, 1)));
	CHECK(!json_object_get(rec, "verified"));
	json_decref(rec);
	rec = verified(NULL);
	CHECK(json_object_size(rec) == 2);
	json_decref(rec);
	rules_verify(advice, trial);
	CHECK(json_object_size(advice) == 1);
	json_decref(advice);
	json_decref(trial);
}

int main(void)
{
	test_match();
	test_verdicts();
	test_unmarked();
	return CHECK_DONE();
}
