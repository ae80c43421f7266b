/* Unit tests of trial candidates (the allow-list, the split without a shell) and of the ranking
 * (medians, spreads, ranks shared inside the noise). Matching advice to a candidate is the engine's:
 * tests/rules/test_verify.c. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "app/trial/trial.h"
#include "app/trial/trial_run.h"
#include "fstune/status.h"
#include "tests/unit/check.h"

static int parse(const char *text, struct trial_candidates *c, struct fst_error *err)
{
	fst_error_clear(err);
	return trial_candidates_parse(text, "test", c, err);
}

static void test_parse(void)
{
	struct trial_candidates c = {0};
	struct fst_error err = FST_ERROR_INIT;
	static const char *const refused[] = {
		"ext4:-b 4096 && reboot", "ext4:-L $(id)", "ext4:-L `id`", "ext4:-L a|b", "ext4:-L a>b",
		"ext4:-b 1000", "ext4:-b 131072", "ext4:-S", "ext4:-F", "ext4:-q", "ext4:/dev/sda",
		"ext4:-J device=/dev/sda", "ext4:-E offset=4096", "ext4:-O journal_dev", "ext4:-b",
		"xfs:-d file,name=/x", "xfs:-r rtdev=/dev/sda", "xfs:-l logdev=/dev/sdb", "xfs:-f",
		"btrfs:/dev/sdb", "ntfs:", "ext4", "ext4:-i 4k", "ext4:-E stride=4,,x", "ext4:-L a\tb;",
		"ext4:-E ,stride=4", ";;", "ext4:-m -1",
	};

	CHECK(parse("ext4:-b 1024;ext4:-b 4096;xfs:", &c, &err) == FST_EXIT_OK);
	CHECK(c.n == 3);
	if (c.n == 3) {
		CHECK_STR(c.v[0].spec, "ext4:-b 1024");
		CHECK_STR(c.v[1].fs, "ext4");
		CHECK(c.v[1].n_args == 2);
		CHECK_STR(c.v[1].args[1], "4096");
		CHECK_STR(c.v[2].spec, "xfs:");
		CHECK(c.v[2].n_args == 0);
	}
	/* blanks are separators; a spec already present is not added twice */
	CHECK(parse("  ext4:  -b   1024 ; ext2:-I 128 -O ^dir_index,has_journal -E stride=16", &c, &err) == FST_EXIT_OK);
	CHECK(c.n == 4);
	CHECK_STR(c.v[3].spec, "ext2:-I 128 -O ^dir_index,has_journal -E stride=16");
	CHECK(parse("xfs:-b size=4096 -d su=64k,sw=4 -K;btrfs:-n 16k -m single --csum xxhash", &c, &err) == FST_EXIT_OK);
	CHECK(c.n == 6);
	for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
		size_t before = c.n;

		if (parse(refused[i], &c, &err) != FST_EXIT_USAGE) {
			fprintf(stderr, "accepted: %s\n", refused[i]);
			check_failures++;
		}
		CHECK(c.n == before);
	}
	CHECK(parse("ext4:-L `id`", &c, &err) == FST_EXIT_USAGE);
	CHECK_CONTAINS(err.msg, "shell metacharacter '`'");
	CHECK(parse("ext4:-Z 1", &c, &err) == FST_EXIT_USAGE);
	CHECK_CONTAINS(err.msg, "'-Z' is not an option mke2fs takes");
	trial_candidates_remove(&c, 0);
	CHECK(c.n == 5);
	CHECK_STR(c.v[0].spec, "ext4:-b 4096");
	trial_candidates_free(&c);
}

static void add(struct trial *t, const char *spec, const double *v, size_t n)
{
	struct fst_error err = FST_ERROR_INIT;
	struct trial_candidate *c;

	trial_candidates_parse(spec, "test", &t->cands, &err);
	c = &t->cands.v[t->cands.n - 1];
	c->values = malloc((n ? n : 1) * sizeof *v);
	c->rounds = malloc((n ? n : 1) * sizeof *c->rounds);
	memcpy(c->values, v, n * sizeof *v);
	for (size_t i = 0; i < n; i++)
		c->rounds[i] = (unsigned)i + 1;
	c->n_values = n;
}

static void test_rank(void)
{
	struct trial t;
	static const double a[] = {100, 104, 102}, b[] = {150, 149, 151}, c[] = {101, 103, 99}, d[] = {10};

	memset(&t, 0, sizeof t);
	trial_scratch_init(&t.scratch);
	t.metric = trial_metric_for("smallfiles", 0); /* higher is better */
	add(&t, "ext4:-b 1024", a, 3);
	add(&t, "ext4:-b 4096", b, 3);
	add(&t, "ext4:-b 2048", c, 3);
	add(&t, "xfs:", d, 0);
	trial_rank(&t);
	CHECK(t.order[0] == 1);
	CHECK(t.cands.v[1].rank == 1 && fabs(t.cands.v[1].median - 150) < 1e-9);
	CHECK(fabs(t.cands.v[1].spread_pct - 2.0 / 150 * 100) < 1e-9);
	/* 102 and 101 are inside each other's noise: they share rank 2 */
	CHECK(t.cands.v[0].rank == 2 && t.cands.v[2].rank == 2);
	CHECK(t.cands.v[3].rank == 0 && t.order[3] == 3);
	/* lower is better for the cold tree */
	t.metric = trial_metric_for("source-tree", 0);
	trial_rank(&t);
	CHECK(t.cands.v[1].rank == 3 && t.cands.v[0].rank == 1);
	trial_free(&t);

	/* a drift between rounds spreads every candidate's runs, but one that wins every round by more
	 * than the floor is ranked ahead (paired by round); one that does not in some round is not */
	static const double e[] = {10, 20, 40, 80}, f[] = {12, 25, 48, 100}, g[] = {9, 24, 44, 90};

	memset(&t, 0, sizeof t);
	trial_scratch_init(&t.scratch);
	t.metric = trial_metric_for("smallfiles", 0);
	add(&t, "ext4:-b 1024", e, 4);
	add(&t, "ext4:-b 4096", f, 4);
	add(&t, "ext4:-b 2048", g, 4);
	trial_rank(&t);
	CHECK(t.cands.v[1].spread_pct > 100);
	CHECK(t.cands.v[1].rank == 1);
	CHECK(t.cands.v[0].rank == 3);
	CHECK(t.cands.v[2].rank == 1); /* f beat g by only 4% in round 2 */
	CHECK_STR(trial_metric_for("database", 8192)->test, "rand_read_8k_qd1");
	CHECK_STR(trial_metric_for("database", 4096)->test, "rand_read_4k_qd1");
	CHECK_STR(trial_metric_for(NULL, 0)->preset, "general");
	trial_free(&t);
}

int main(void)
{
	test_parse();
	test_rank();
	return CHECK_DONE();
}
