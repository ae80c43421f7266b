/* Unit tests of trial: candidates (the allow-list, the split without a shell, the identity left out),
 * the metric sets, and the statistics on fixed samples: the order design, the sign test and its
 * interval (a known tie, a known difference, too few rounds), Holm, the rounds a family needs and how
 * many more an undecided comparison would, and the judgement of a whole trial (the A/A floor, the
 * verdicts, the ranks, drift between rounds, a hog's outlier, specs that may be merged). Matching
 * advice to a candidate is the engine's: tests/rules/test_verify.c. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "app/trial/trial.h"
#include "app/trial/trial_run.h"
#include "fstune/status.h"
#include "fstune/trial_words.h"
#include "tests/lib/check.h"

#define NEAR(a, b) (fabs((a) - (b)) < 1e-9)

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
		"ext4:-b 4096 && reboot", "ext4:-L $(id)", "ext4:-E stride=$(id)", "ext4:-b `id`", "ext4:-b a|b",
		"ext4:-b 1000", "ext4:-b 131072", "ext4:-S", "ext4:-F", "ext4:-q", "ext4:/dev/sda",
		"ext4:-J device=/dev/sda", "ext4:-E offset=4096", "ext4:-O journal_dev", "ext4:-b",
		"xfs:-d file,name=/x", "xfs:-r rtdev=/dev/sda", "xfs:-l logdev=/dev/sdb", "xfs:-f",
		"btrfs:/dev/sdb", "ntfs:", "ext4", "ext4:-i 4k", "ext4:-E stride=4,,x", "ext4:-O a\tb;",
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
		CHECK(c.v[2].n_args == 0 && c.v[2].merged_into == -1 && !c.v[2].stripped);
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
	CHECK(parse("ext4:-b `id`", &c, &err) == FST_EXIT_USAGE);
	CHECK_CONTAINS(err.msg, "shell metacharacter '`'");
	CHECK(parse("ext4:-Z 1", &c, &err) == FST_EXIT_USAGE);
	CHECK_CONTAINS(err.msg, "'-Z' is not an option mke2fs takes");
	trial_candidates_remove(&c, 0);
	CHECK(c.n == 5);
	CHECK_STR(c.v[0].spec, "ext4:-b 4096");
	trial_candidates_free(&c);
}

/* The target's label and UUID never reach a candidate (reformat advice keeps them for the target). */
static void test_identity(void)
{
	struct trial_candidates c = {0};
	struct fst_error err = FST_ERROR_INIT;
	json_t *args = json_pack("[s,s,s,s,s,s]", "-b", "4096", "-L", "root", "-U", "5a3c9f4e-2d1b-4c47-9a0e-7f3b8d2e6c11");

	CHECK(trial_candidates_add_args(&c, "ext4", args, "rules:x", &err) == FST_EXIT_OK);
	CHECK(parse("xfs:-m crc=1,uuid=5a3c9f4e-2d1b-4c47-9a0e-7f3b8d2e6c11 -L data;xfs:-m uuid=abc;btrfs:-U abc -n 16k",
		    &c, &err) == FST_EXIT_OK);
	CHECK(c.n == 4);
	if (c.n == 4) {
		CHECK_STR(c.v[0].spec, "ext4:-b 4096");
		CHECK_STR(c.v[0].stripped, "-L root -U 5a3c9f4e-2d1b-4c47-9a0e-7f3b8d2e6c11");
		CHECK_STR(c.v[1].spec, "xfs:-m crc=1");
		CHECK_STR(c.v[1].stripped, "-m uuid=5a3c9f4e-2d1b-4c47-9a0e-7f3b8d2e6c11 -L data");
		CHECK_STR(c.v[2].spec, "xfs:");
		CHECK_STR(c.v[3].spec, "btrfs:-n 16k");
	}
	json_decref(args);
	trial_candidates_free(&c);
}

static void test_metrics(void)
{
	struct trial_metric_set set;
	struct facts *f = facts_new();

	trial_metrics_for(f, &set); /* nothing said: general, the 1999 experiment */
	CHECK(set.n == 2 && set.has_tree && !*set.tests);
	CHECK_STR(set.m[set.primary]->name, "writeback");
	facts_set_string(f, "workload.profile", "smallfiles", "preset");
	facts_set_bool(f, "workload.sync_heavy", false, "user");
	trial_metrics_for(f, &set);
	CHECK_STR(set.m[set.primary]->name, "smallfile");
	CHECK_STR(set.tests, "smallfile,smallfile_fsync");
	facts_set_bool(f, "workload.sync_heavy", true, "preset");
	trial_metrics_for(f, &set);
	CHECK_STR(set.m[set.primary]->name, "smallfile_fsync");
	facts_set_string(f, "workload.profile", "database", "preset");
	facts_set_int(f, "workload.io_size_bytes", 8192, "user");
	trial_metrics_for(f, &set);
	CHECK(set.n == 3);
	CHECK_STR(set.m[0]->test, "rand_read_8k_qd1");
	CHECK_STR(set.m[set.primary]->name, "fsync_iops");
	CHECK(!set.m[2]->higher_better && !strcmp(set.m[2]->leaf, "lat_p99_us"));
	CHECK_STR(set.tests, "rand_read_8k_qd1,fsync_4k_overwrite");
	facts_set_int(f, "workload.io_size_bytes", 12288, "user");
	trial_metrics_for(f, &set);
	CHECK_STR(set.m[0]->test, "rand_read_4k_qd1");
	CHECK(trial_metric_index(&set, "fsync_p99") == 2 && trial_metric_index(&set, "nosuch") == -1);
	facts_free(f);
}

/* Each slot in each position once in every k rounds; each ordered pair of neighbours equally often
 * over a full cycle (k rounds for even k, 2k for odd). */
static void check_design(size_t k)
{
	unsigned cycle = (unsigned)(k % 2 ? 2 * k : k);
	size_t *order = calloc(k, sizeof *order);
	unsigned *pos = calloc(k * k, sizeof *pos), *next = calloc(k * k, sizeof *next);

	for (unsigned r = 0; r < cycle; r++) {
		trial_design_order(k, r, order);
		for (size_t p = 0; p < k; p++) {
			if (r < k)
				pos[order[p] * k + p]++;
			if (p + 1 < k)
				next[order[p] * k + order[p + 1]]++;
		}
	}
	for (size_t i = 0; i < k; i++)
		for (size_t j = 0; j < k; j++) {
			CHECK(pos[i * k + j] == 1);
			if (i != j)
				CHECK(next[i * k + j] == next[1]);
		}
	CHECK(next[1] >= 1);
	free(order);
	free(pos);
	free(next);
}

static void test_design(void)
{
	size_t order[4];

	trial_design_order(4, 0, order);
	CHECK(order[0] == 0 && order[1] == 1 && order[2] == 3 && order[3] == 2);
	trial_design_order(4, 5, order); /* the cycle repeats: round 5 is round 1 */
	CHECK(order[0] == 1 && order[1] == 2 && order[2] == 0 && order[3] == 3);
	for (size_t k = 2; k <= 9; k++)
		check_design(k);
}

static void test_sign(void)
{
	/* a known difference: 0.58x in every one of 7 rounds, a floor of 6% */
	static const double worse[] = {-0.54, -0.52, -0.56, -0.55, -0.53, -0.57, -0.545};
	/* a known tie: within 2%, a floor of 6% */
	static const double tie[] = {0.01, -0.015, 0.02, 0.0, -0.01, 0.005, -0.02};
	/* a hog slowed the baseline once (a 3x "win"); the other rounds are inside the floor */
	static const double hog[] = {1.1, 0.01, -0.01, 0.02, -0.02, 0.0, 0.015};
	double f = log(1.06);
	struct trial_sign s;

	trial_sign_test(worse, 7, f, &s);
	CHECK(s.below == 7 && s.above == 0 && !s.is_up);
	CHECK(NEAR(s.p, 2.0 / 128));
	CHECK(s.has_ci && NEAR(s.lo, -0.57) && NEAR(s.hi, -0.52) && NEAR(s.median, -0.545));
	CHECK(trial_sign_verdict(&s, f, s.p, true) == TRIAL_WORSE);
	CHECK(trial_sign_verdict(&s, f, s.p, false) == TRIAL_BETTER); /* seconds: lower is better */
	/* Holm over 3 makes p 0.047: still a verdict; over 4, 0.0625: not settled, not a tie */
	CHECK(trial_sign_verdict(&s, f, 3 * s.p, true) == TRIAL_WORSE);
	CHECK(trial_sign_verdict(&s, f, 4 * s.p, true) == TRIAL_NOT_SETTLED);
	/* the interval must clear the floor too: a floor of 70% */
	CHECK(trial_sign_verdict(&s, log(1.7), s.p, true) == TRIAL_NOT_SETTLED);

	trial_sign_test(tie, 7, f, &s);
	CHECK(s.above == 0 && s.below == 0 && NEAR(s.p, 1));
	CHECK(trial_sign_verdict(&s, f, 1, true) == TRIAL_TIE);
	trial_sign_test(hog, 7, f, &s);
	CHECK(s.above == 1 && s.is_up && s.p > 0.05);
	CHECK(trial_sign_verdict(&s, f, s.p, true) == TRIAL_NOT_SETTLED);

	/* five rounds, all beyond: no 95% interval exists, p = 2/32 */
	trial_sign_test(worse, 5, f, &s);
	CHECK(!s.has_ci && NEAR(s.p, 2.0 / 32));
	CHECK(trial_sign_verdict(&s, f, s.p, true) == TRIAL_NOT_SETTLED);
	/* six: p = 2/64, the least rounds for a verdict */
	trial_sign_test(worse, 6, f, &s);
	CHECK(s.has_ci && trial_sign_verdict(&s, f, s.p, true) == TRIAL_WORSE);
	/* nine rounds: the interval is the 2nd smallest to the 2nd largest */
	{
		static const double nine[] = {0.9, 0.1, 0.5, 0.3, 0.7, 0.2, 0.8, 0.4, 0.6};

		trial_sign_test(nine, 9, 0, &s);
		CHECK(NEAR(s.lo, 0.2) && NEAR(s.hi, 0.8) && NEAR(s.median, 0.5));
	}
}

static void test_holm_and_rounds(void)
{
	static const double p[] = {0.01, 0.04, 0.03, 0.005};
	double adj[4];

	trial_holm(p, 4, adj);
	CHECK(NEAR(adj[3], 0.02) && NEAR(adj[0], 0.03) && NEAR(adj[2], 0.06) && NEAR(adj[1], 0.06));
	/* 2/2^n × m < 0.05: 6 rounds for one comparison, about log2(40·m) for m */
	CHECK(trial_min_rounds(0) == 0);
	CHECK(trial_min_rounds(1) == 6);
	CHECK(trial_min_rounds(2) == 7 && trial_min_rounds(3) == 7);
	CHECK(trial_min_rounds(4) == 8 && trial_min_rounds(6) == 8);
	CHECK(trial_min_rounds(12) == 9 && trial_min_rounds(13) == 10);
	for (size_t m = 1; m < 200; m++)
		CHECK(trial_min_rounds(m) == (unsigned)floor(log2(40.0 * (double)m)) + 1);
	{
		/* 5 of 7 rounds beyond the floor: more rounds at that share would settle it */
		static const double d[] = {0.2, 0.2, 0.2, 0.2, 0.2, 0.0, 0.01};
		/* half above, half below: no number of rounds settles it */
		static const double e[] = {0.2, -0.2, 0.2, -0.2, 0.2, -0.2};
		static const double f[] = {0.01, -0.01, 0.02, 0.0, -0.02, 0.01};
		struct trial_sign s;
		unsigned more;

		trial_sign_test(d, 7, 0.05, &s);
		more = trial_more_rounds(&s, 1, true, 100);
		CHECK(more > 0 && more < 30);
		trial_sign_test(e, 6, 0.05, &s);
		CHECK(trial_more_rounds(&s, 1, true, 100) == 0);
		/* inside the floor in every round: a tie in a few rounds, unless a tie cannot be */
		trial_sign_test(f, 6, 0.05, &s);
		CHECK(trial_more_rounds(&s, 1, true, 100) > 0);
		CHECK(trial_more_rounds(&s, 1, false, 100) == 0);
		/* no paired round at all (a p99 no run had samples for): no estimate */
		trial_sign_test(f, 0, 0.05, &s);
		CHECK(trial_more_rounds(&s, 1, true, 100) == 0);
	}
}

/* Candidate `c` gets one run per round: base[r] × factor (× a second factor for the baseline's copy). */
static void runs(struct trial *t, size_t ci, const double *base, size_t rounds, double factor,
		 const double *copy2)
{
	struct trial_candidate *c = &t->cands.v[ci];

	for (size_t r = 0; r < rounds; r++)
		for (unsigned k = 0; k < (copy2 ? 2u : 1u); k++) {
			struct trial_obs o = {.round = (unsigned)r + 1, .position = k + 1, .copy = k};

			for (size_t m = 0; m < TRIAL_METRICS_MAX; m++)
				o.v[m] = m < t->metrics.n ? base[r] * factor * (k ? copy2[r] : 1) : NAN;
			c->obs = realloc(c->obs, (c->n_obs + 1) * sizeof *c->obs);
			c->obs[c->n_obs++] = o;
		}
}

static void trial_with(struct trial *t, const char *specs, const char *profile)
{
	struct fst_error err = FST_ERROR_INIT;

	memset(t, 0, sizeof *t);
	trial_scratch_init(&t->scratch);
	t->workload = facts_new();
	facts_set_string(t->workload, "workload.profile", profile, "preset");
	trial_metrics_for(t->workload, &t->metrics);
	trial_candidates_parse(specs, "test", &t->cands, &err);
}

static const struct trial_comparison *find(const struct trial *t, size_t a, size_t b, size_t m)
{
	for (size_t k = 0; k < t->n_cmp; k++)
		if (t->cmp[k].a == a && t->cmp[k].b == b && t->cmp[k].metric == m)
			return &t->cmp[k];
	return NULL;
}

/* The judgement's rounds: the host drifts fourfold over them (paired by round, it cancels), and the
 * baseline's second run of each round against its first. */
static const double drift[] = {100, 150, 220, 300, 400, 300, 250, 200};
static const double aa[] = {1.03, 0.97, 1.05, 0.98, 1.02, 0.96, 1.04, 1.0};

static void test_judge(void)
{
	static const double near[] = {1.01, 0.99, 1.0, 1.005, 0.995, 1.0, 1.0, 0.99};
	const struct trial_comparison *c;
	struct trial t;

	trial_with(&t, "ext4:;ext4:-b 1024;ext4:-G 32", "smallfiles");
	/* 6 comparisons: 8 rounds are the fewest for a verdict (2/2^8 × 6 < 0.05) */
	CHECK(trial_family_size(&t) == 2 * (2 + 1) && trial_min_rounds(trial_family_size(&t)) == 8);
	runs(&t, 0, drift, 8, 1, aa);
	runs(&t, 1, drift, 8, 0.58, NULL);
	for (size_t r = 0; r < 8; r++) { /* the twin: within 1% of the baseline's geometric mean */
		double g = drift[r] * sqrt(aa[r]) * near[r];

		runs(&t, 2, &g, 1, 1, NULL);
		t.cands.v[2].obs[r].round = (unsigned)r + 1;
	}
	trial_judge(&t);
	/* the A/A floor: the largest |ln| of the baseline's ratios, 1.05 */
	CHECK(t.control[0].n == 8 && NEAR(t.control[0].floor, log(1.05)));
	CHECK(NEAR(t.control[0].lo, 1 / 1.05) && NEAR(t.control[0].hi, 1 / 0.96));
	c = find(&t, 1, 0, 0);
	CHECK(c && c->verdict == TRIAL_WORSE && c->sign.below == 8);
	CHECK(c && fabs(exp(c->sign.median) - 0.58 / sqrt(1.0)) < 0.03);
	c = find(&t, 2, 0, 0);
	CHECK(c && c->verdict == TRIAL_TIE);
	/* ranks: the 1 KiB candidate behind both, the twin beside the baseline */
	CHECK(t.cands.v[0].sum[0].rank == 1 && t.cands.v[2].sum[0].rank == 1 && t.cands.v[1].sum[0].rank == 2);
	CHECK(trial_best(&t, 0) == 0 || trial_best(&t, 0) == 2);
	/* spread of a drifting candidate is large, yet the paired verdict stands */
	CHECK(t.cands.v[1].sum[0].spread_pct > 100);
	/* one round fewer: the same ratios reach no verdict after Holm over 6 */
	t.cands.v[0].n_obs -= 2;
	t.cands.v[1].n_obs--;
	t.cands.v[2].n_obs--;
	trial_judge(&t);
	c = find(&t, 1, 0, 0);
	CHECK(c && c->verdict == TRIAL_NOT_SETTLED && c->sign.below == 7 && c->more_rounds == 1);
	/* the family: 2 against the baseline, and the best against the runner-up where it is neither */
	CHECK(t.n_cmp == 4 || t.n_cmp == 6);
	for (size_t k = 0; k < t.n_cmp; k++)
		CHECK(t.cmp[k].p_adjusted >= t.cmp[k].sign.p);
	trial_free(&t);
}

/* Twins beside a hog: the baseline's copies differ by up to 40%; one twin round is 35% better. Never a
 * winner; and with a floor above 25% not a tie either: too noisy to call them the same. */
static void test_judge_hogged_twins(void)
{
	static const double hogged[] = {1.4, 0.75, 1.2, 0.8, 1.3, 0.9, 1.1};
	struct trial t;
	double g;

	trial_with(&t, "ext4:;ext4:-G 32", "source-tree");
	runs(&t, 0, drift, 7, 1, hogged);
	for (size_t r = 0; r < 7; r++) {
		g = drift[r] * sqrt(hogged[r]) * (r == 3 ? 1.35 : 1.0 + 0.01 * (double)r);
		runs(&t, 1, &g, 1, 1, NULL);
		t.cands.v[1].obs[r].round = (unsigned)r + 1;
	}
	trial_judge(&t);
	CHECK(t.n_cmp == 2 && !trial_floor_allows_tie(&t, 0));
	for (size_t k = 0; k < t.n_cmp; k++)
		CHECK(t.cmp[k].verdict == TRIAL_NOT_SETTLED);
	CHECK(t.cands.v[0].sum[0].rank == 1 && t.cands.v[1].sum[0].rank == 1);
	trial_free(&t);
}

/* Twelve rounds, one of them a 2.7x outlier: the floor is the interval of the A/A median, not the
 * outlier. */
static void test_judge_outlier(void)
{
	static const double base[12] = {100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100};
	static const double aa12[12] = {1.02, 0.98, 1.03, 0.97, 2.7, 1.01, 0.99, 1.04, 0.96, 1.0, 1.05, 0.95};
	struct trial t;

	trial_with(&t, "ext4:;ext4:-b 1024", "smallfiles");
	runs(&t, 0, base, 12, 1, aa12);
	runs(&t, 1, base, 12, 0.8, NULL);
	trial_judge(&t);
	/* the 3rd smallest and largest of ln(1/aa): -ln(1.04) and ln(1/0.97); the outlier's -ln(2.7)
	 * and the next ones lie outside the interval */
	CHECK(NEAR(t.control[0].floor, log(1.04)));
	CHECK(NEAR(t.control[0].hi, 1 / 0.95) && NEAR(t.control[0].lo, 1 / 2.7));
	CHECK(find(&t, 1, 0, 0)->verdict == TRIAL_WORSE);
	trial_free(&t);
}

/* Too few rounds: nothing is decided, and more rounds are named. */
static void test_judge_few_rounds(void)
{
	struct trial t;

	trial_with(&t, "ext4:;ext4:-b 1024", "smallfiles");
	runs(&t, 0, drift, 3, 1, aa);
	runs(&t, 1, drift, 3, 0.58, NULL);
	trial_judge(&t);
	CHECK(t.n_cmp == 2 && t.cmp[0].verdict == TRIAL_NOT_SETTLED && t.cmp[0].more_rounds > 0);
	CHECK(trial_more_rounds_needed(&t) > 0);
	trial_free(&t);
}

/* The baseline runs twice a round, every other active candidate once; a merged one not at all. */
static void test_round_order(void)
{
	struct trial t;
	size_t order[8];
	unsigned copy[8];

	trial_with(&t, "ext4:;ext4:-b 4096;ext4:-b 1024;xfs:", "general");
	t.cands.v[1].merged_into = 0;
	CHECK(trial_family_size(&t) == 2 * (2 + 1));
	for (unsigned r = 0; r < 8; r++) {
		size_t k = trial_round_order(&t, r, order, copy), seen[4] = {0}, copies = 0;

		CHECK(k == 4);
		for (size_t p = 0; p < k; p++) {
			seen[order[p]]++;
			copies += copy[p];
		}
		CHECK(seen[0] == 2 && seen[1] == 0 && seen[2] == 1 && seen[3] == 1 && copies == 1);
	}
	trial_free(&t);
}

/* Specs that may be made and compared for a merge: differing only in options the fingerprint shows. */
static void test_could_merge(void)
{
	static const struct {
		const char *a, *b;
		bool yes;
	} cases[] = {
		{"ext4:", "ext4:-b 4096", true},
		{"ext4:-b 4096 -i 16384", "ext4:-i 16384 -b 4096", true},
		{"ext4:-b 1024", "ext4:-b 4096", true}, /* may: the fingerprints then differ */
		{"ext4:", "ext4:-G 32", false},
		{"ext4:", "ext4:-E stride=16", false},
		{"ext4:-b 1024", "xfs:", false},
		{"ext2:", "ext4:", false},
		{"xfs:", "xfs:-n size=8192", false},
		{"xfs:", "xfs:-b size=4096", true},
		{"btrfs:", "btrfs:-m single", false},
	};
	struct trial_candidates c = {0};
	struct fst_error err = FST_ERROR_INIT;

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		trial_candidates_parse(cases[i].a, "a", &c, &err);
		trial_candidates_parse(cases[i].b, "b", &c, &err);
		if (c.n != 2 || trial_could_merge(&c.v[0], &c.v[1]) != cases[i].yes) {
			fprintf(stderr, "could_merge(%s, %s): want %d\n", cases[i].a, cases[i].b, cases[i].yes);
			check_failures++;
		}
		trial_candidates_free(&c);
	}
}

/* A comparison in words: a verdict with its interval as a speed, a tie with its floor, and why one is
 * not settled (more rounds would do, the floor is too wide, no round gave the figure at all). */
static void test_words(void)
{
	json_t *tps = json_pack("{s:s, s:s}", "what", "small-file transactions", "better", "higher");
	json_t *p99 = json_pack("{s:s, s:s}", "what", "the commit's p99 latency", "better", "lower");
	static const struct {
		const char *cmp, *want;
		bool is_latency;
	} cases[] = {
		{"{\"verdict\": \"worse\", \"ratio\": 0.25, \"ci95\": [0.2, 0.5], \"rounds\": 9}",
		 "small-file transactions 4.00x slower (2.00-5.00)", false},
		{"{\"verdict\": \"better\", \"ratio\": 0.5, \"ci95\": [0.25, 0.8], \"rounds\": 9}",
		 "the commit's p99 latency 2.00x faster (1.25-4.00)", true},
		{"{\"verdict\": \"tie\", \"ratio\": 1.01, \"ci95\": [0.98, 1.03], \"floor_pct\": 5, \"rounds\": 9}",
		 "small-file transactions the same within the floor of 5.0% (0.98-1.03 as a speed ratio)", false},
		{"{\"verdict\": \"not_settled\", \"ratio\": 0.9, \"ci95\": [0.7, 1.1], \"more_rounds\": 4, \"rounds\": 9}",
		 "small-file transactions not settled (0.70-1.10 as a speed ratio): about 4 more rounds", false},
		{"{\"verdict\": \"not_settled\", \"ratio\": 0.9, \"ci95\": [0.5, 1.6], \"floor_pct\": 80, \"rounds\": 9}",
		 "small-file transactions not settled (0.50-1.60 as a speed ratio): the baseline against itself differed by up to 80.0%", false},
		{"{\"verdict\": \"not_settled\", \"floor_pct\": 1, \"more_rounds\": 0, \"rounds\": 0}",
		 "the commit's p99 latency not measured: no round gave the figure for both", true},
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		json_t *c = json_loads(cases[i].cmp, 0, NULL);
		char *words = c ? trial_comparison_words(c, cases[i].is_latency ? p99 : tps) : NULL;

		CHECK_CONTAINS(words, cases[i].want);
		free(words);
		json_decref(c);
	}
	json_decref(tps);
	json_decref(p99);
}

int main(void)
{
	test_parse();
	test_identity();
	test_metrics();
	test_design();
	test_sign();
	test_holm_and_rounds();
	test_judge();
	test_judge_hogged_twins();
	test_judge_outlier();
	test_judge_few_rounds();
	test_round_order();
	test_could_merge();
	test_words();
	return CHECK_DONE();
}
