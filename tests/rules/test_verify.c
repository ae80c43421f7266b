/* Unit tests of a trial's verdict on a recommendation (rules/verify.c): matching an mkfs spec to a
 * candidate spec, and the verified, verified_by and verified_note fields the engine sets from the
 * trial facts' comparisons with the baseline (contradicted, confirmed, unchanged, not settled, the
 * baseline itself), on the metrics the advice is about; forged facts mark nothing. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "rules/internal.h"
#include "tests/lib/check.h"

static void test_match(void)
{
	json_t *mkfs[] = {
		json_pack("{s:s, s:[s, s]}", "fs", "ext4", "args", "-b", "4096"),
		json_pack("{s:s, s:[s, s]}", "fs", "ext4", "args", "-E", "stride=16"),
		json_pack("{s:s, s:[]}", "fs", "xfs", "args"),
		json_pack("{s:s, s:[s]}", "fs", "xfs", "args", "-K"),
		NULL,
		json_pack("{s:s, s:[s, s, s, s, s, s]}", "fs", "ext4", "args", "-b", "4096", "-L", "root", "-U", "1b2c"),
		json_pack("{s:s, s:[s, s]}", "fs", "xfs", "args", "-m", "uuid=1b2c"),
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
		/* the target's label and UUID are left out of candidates, so they never decide a match */
		{"ext4:-b 4096", 5, 0}, {"xfs:", 6, 0},
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int got = rules_mkfs_match(cases[i].spec, mkfs[cases[i].mkfs]);

		if (got != cases[i].want) {
			fprintf(stderr, "%s:%d: '%s' against mkfs[%d]: %d, want %d\n", __FILE__, __LINE__,
				cases[i].spec, cases[i].mkfs, got, cases[i].want);
			check_failures++;
		}
	}
	for (size_t i = 0; i < sizeof mkfs / sizeof mkfs[0]; i++)
		json_decref(mkfs[i]);
}

/* A trial of ext4 block sizes and xfs on the tree's two metrics, as trial.* facts: c1 the baseline,
 * c2 merged into it, c3 (1 KiB) worse on writeback and tied on the cold read, c4 (xfs) better on
 * writeback and not settled on the cold read, c5 (an inode ratio) tied on both. */
static json_t *tree_trial(void)
{
	return json_pack(
		"{s:{s:s}, s:{s:s, s:s}, s:{s:s}, s:{s:s}, s:{s:s}, s:{s:s, s:s}, s:s, s:i,"
		" s:[{s:s, s:s, s:s, s:s, s:s}, {s:s, s:s, s:s, s:s, s:s}],"
		" s:[{s:s, s:s, s:s, s:s, s:f, s:[f, f], s:s, s:f}, {s:s, s:s, s:s, s:s, s:f, s:[f, f], s:s, s:f},"
		"    {s:s, s:s, s:s, s:s, s:f, s:[f, f], s:s, s:f}, {s:s, s:s, s:s, s:s, s:f, s:[f, f], s:s, s:i},"
		"    {s:s, s:s, s:s, s:s, s:f, s:[f, f], s:s, s:f}, {s:s, s:s, s:s, s:s, s:f, s:[f, f], s:s, s:f}]}",
		"c1", "spec", "ext4:", "c2", "spec", "ext4:-b 4096", "merged_into", "c1", "c3", "spec", "ext4:-b 1024",
		"c4", "spec", "xfs:", "c5", "spec", "ext4:-i 65536", "control", "candidate", "c1", "spec", "ext4:",
		"best", "c4", "rounds", 8,
		"metrics", "name", "writeback", "test", "tree", "what", "writeback of the tree", "unit", "s", "better", "lower",
		"name", "cold_read", "test", "tree", "what", "cold read of the tree", "unit", "s", "better", "lower",
		"comparisons",
		"a", "c3", "b", "c1", "kind", "candidate_vs_baseline", "metric", "writeback", "ratio", 1.6, "ci95", 1.5, 1.7,
		"verdict", "worse", "floor_pct", 5.0,
		"a", "c3", "b", "c1", "kind", "candidate_vs_baseline", "metric", "cold_read", "ratio", 1.0, "ci95", 0.98,
		1.02, "verdict", "tie", "floor_pct", 5.0,
		"a", "c4", "b", "c1", "kind", "candidate_vs_baseline", "metric", "writeback", "ratio", 0.8, "ci95", 0.75,
		0.85, "verdict", "better", "floor_pct", 5.0,
		"a", "c4", "b", "c1", "kind", "candidate_vs_baseline", "metric", "cold_read", "ratio", 0.9, "ci95", 0.7,
		1.1, "verdict", "not_settled", "more_rounds", 4,
		"a", "c5", "b", "c1", "kind", "candidate_vs_baseline", "metric", "writeback", "ratio", 1.01, "ci95", 0.99,
		1.03, "verdict", "tie", "floor_pct", 5.0,
		"a", "c5", "b", "c1", "kind", "candidate_vs_baseline", "metric", "cold_read", "ratio", 0.99, "ci95", 0.97,
		1.01, "verdict", "tie", "floor_pct", 5.0);
}

/* A reformat recommendation for `setting` with the mkfs spec FS:ARGS (blank-separated, at most 2
 * words), judged by `trial` (not freed). */
static json_t *judged(const char *setting, const char *fs, const char *a1, const char *a2, const json_t *trial)
{
	json_t *rec = json_pack("{s:s, s:s, s:{s:s, s:[]}}", "id", "test.advice", "setting", setting, "mkfs", "fs", fs, "args");
	json_t *args = json_object_get(json_object_get(rec, "mkfs"), "args");

	if (a1)
		json_array_append_new(args, json_string(a1));
	if (a2)
		json_array_append_new(args, json_string(a2));
	rules_verify(rec, trial);
	return rec;
}

static const char *field(const json_t *rec, const char *key)
{
	return json_string_value(json_object_get(rec, key));
}

static void test_verdicts(void)
{
	json_t *trial = tree_trial(), *rec, *by;

	/* 1 KiB blocks: worse on writeback, however the cold read went */
	rec = judged("mkfs.block_size", "ext4", "-b", "1024", trial);
	CHECK_STR(field(rec, "verified"), "contradicted");
	CHECK_CONTAINS(field(rec, "verified_note"), "ext4:-b 1024 against ext4: (the trial's baseline): writeback of "
						   "the tree 1.60x slower (1.50-1.70)");
	CHECK_CONTAINS(field(rec, "verified_note"), "cold read of the tree the same within the floor of 5.0%");
	by = json_object_get(rec, "verified_by");
	CHECK_STR(field(by, "candidate"), "c3");
	CHECK_STR(field(by, "baseline_spec"), "ext4:");
	CHECK_STR(field(by, "metric"), "writeback of the tree");
	CHECK_STR(field(by, "unit"), "s");
	CHECK(json_real_value(json_object_get(by, "ratio")) == 1.6);
	CHECK(json_array_size(json_object_get(by, "ci95")) == 2 && json_array_size(json_object_get(by, "sentences")) == 2);
	json_decref(rec);

	/* 4 KiB blocks make the baseline (merged): xfs beat it on writeback, so keeping it is contradicted */
	rec = judged("mkfs.block_size", "ext4", "-b", "4096", trial);
	CHECK_STR(field(rec, "verified"), "contradicted");
	CHECK_CONTAINS(field(rec, "verified_note"), "ext4: (the trial's baseline) was beaten beyond the A/A floor: "
						   "c4 (xfs:) writeback of the tree 1.25x faster (1.18-1.33)");
	CHECK_STR(field(json_object_get(rec, "verified_by"), "candidate"), "c1");
	json_decref(rec);

	/* xfs: better on writeback, the cold read not settled: confirmed */
	rec = judged("mkfs.fs_type", "xfs", NULL, NULL, trial);
	CHECK_STR(field(rec, "verified"), "confirmed");
	CHECK_CONTAINS(field(rec, "verified_note"), "cold read of the tree not settled (0.91-1.43 as a speed ratio): "
						   "about 4 more rounds would be needed at this noise");
	json_decref(rec);

	/* capacity advice with its speed the same: unchanged */
	rec = judged("mkfs.inode_ratio", "ext4", "-i", "65536", trial);
	CHECK_STR(field(rec, "verified"), "unchanged");
	json_decref(rec);
	/* the same spec as speed advice: ties everywhere are unchanged too */
	rec = judged("mkfs.features", "ext4", "-i", "65536", trial);
	CHECK_STR(field(rec, "verified"), "unchanged");
	json_decref(rec);
	json_decref(trial);
}

/* Not settled: the numbers and the note, no verdict; a baseline all settled and unbeaten: confirmed. */
static void test_not_settled_and_baseline(void)
{
	json_t *trial = tree_trial(), *rec, *cmps = json_object_get(trial, "comparisons");

	/* xfs with writeback not settled either */
	json_object_set_new(json_array_get(cmps, 2), "verdict", json_string("not_settled"));
	rec = judged("mkfs.fs_type", "xfs", NULL, NULL, trial);
	CHECK(!json_object_get(rec, "verified"));
	CHECK_CONTAINS(field(rec, "verified_note"), "xfs: against ext4: (the trial's baseline): writeback of the tree not settled");
	CHECK(json_is_object(json_object_get(rec, "verified_by")));
	json_decref(rec);
	/* the baseline: c4 not settled, so neither confirmed nor contradicted */
	rec = judged("mkfs.block_size", "ext4", "-b", "4096", trial);
	CHECK(!json_object_get(rec, "verified"));
	CHECK_CONTAINS(field(rec, "verified_note"), "ext4: (the trial's baseline), not settled:");
	json_decref(rec);
	/* every other candidate settled and none better: keeping the defaults is confirmed */
	json_object_set_new(json_array_get(cmps, 2), "verdict", json_string("worse"));
	json_object_set_new(json_array_get(cmps, 3), "verdict", json_string("tie"));
	rec = judged("mkfs.block_size", "ext4", "-b", "4096", trial);
	CHECK_STR(field(rec, "verified"), "confirmed");
	CHECK_CONTAINS(field(rec, "verified_note"), "ext4: (the trial's baseline): nothing beat it beyond the A/A floor: c3 (ext4:-b 1024) writeback");
	json_decref(rec);
	json_decref(trial);
}

/* Advice whose evidence names a benchmark is judged on that metric only. */
static void test_metrics_about(void)
{
	json_t *trial = json_pack(
		"{s:{s:s}, s:{s:s}, s:{s:s}, s:[{s:s, s:s, s:s, s:s}, {s:s, s:s, s:s, s:s}],"
		" s:[{s:s, s:s, s:s, s:f, s:[f, f], s:s}, {s:s, s:s, s:s, s:f, s:[f, f], s:s}]}",
		"c1", "spec", "ext4:", "c2", "spec", "btrfs:", "control", "candidate", "c1", "metrics", "name",
		"fsync_iops", "test", "fsync_4k_overwrite", "what", "commits (fsync IOPS)", "better", "higher", "name",
		"rand_read", "test", "rand_read_8k_qd1", "what", "random 8 KiB reads", "better", "higher", "comparisons",
		"a", "c2", "b", "c1", "metric", "fsync_iops", "ratio", 0.2, "ci95", 0.15, 0.25, "verdict", "worse", "a",
		"c2", "b", "c1", "metric", "rand_read", "ratio", 1.3, "ci95", 1.2, 1.4, "verdict", "better");
	json_t *rec = json_pack("{s:s, s:{s:s, s:[]}, s:[{s:s}]}", "setting", "mkfs.fs_type", "mkfs", "fs", "btrfs", "args",
				"evidence", "key", "bench.rand_read_8k_qd1.iops");

	rules_verify(rec, trial);
	CHECK_STR(field(rec, "verified"), "confirmed");
	CHECK(json_array_size(json_object_get(json_object_get(rec, "verified_by"), "comparisons")) == 1);
	json_decref(rec);
	rec = json_pack("{s:s, s:{s:s, s:[]}, s:[{s:s}]}", "setting", "mkfs.fs_type", "mkfs", "fs", "btrfs", "args",
			"evidence", "key", "fs.type");
	rules_verify(rec, trial);
	CHECK_STR(field(rec, "verified"), "contradicted");
	CHECK_CONTAINS(field(rec, "verified_note"), "commits (fsync IOPS) 5.00x slower (4.00-6.67)");
	json_decref(rec);
	json_decref(trial);
}

/* Nothing is marked where the trial did not measure what the recommendation asks, and forged facts
 * (no baseline, a cycle of merges, members that are not candidates) mark nothing. */
static void test_unmarked(void)
{
	json_t *trial = tree_trial(), *rec;
	json_t *advice = json_pack("{s:s}", "id", "mount.noatime");

	rec = judged("mkfs.block_size", "ext4", "-b", "2048", trial);
	CHECK(json_object_size(rec) == 3);
	json_decref(rec);
	rules_verify(advice, trial);
	CHECK(json_object_size(advice) == 1);
	rules_verify(advice, NULL);
	CHECK(json_object_size(advice) == 1);
	json_decref(advice);
	/* the control's own spec is no candidate: without c1 nothing matches ext4: */
	json_object_del(trial, "c1");
	rec = judged("mkfs.block_size", "ext4", "-b", "4096", trial);
	CHECK(!json_object_get(rec, "verified_by"));
	json_decref(rec);
	json_object_set_new(trial, "c1", json_pack("{s:s, s:s}", "spec", "ext4:", "merged_into", "c2"));
	rec = judged("mkfs.block_size", "ext4", "-b", "4096", trial); /* c2 -> c1 -> c2 ... */
	CHECK(!json_object_get(rec, "verified"));
	json_decref(rec);
	json_object_set_new(trial, "control", json_string("c1"));
	rec = judged("mkfs.block_size", "ext4", "-b", "1024", trial);
	CHECK(!json_object_get(rec, "verified_by"));
	json_decref(rec);
	json_object_set_new(trial, "control", json_pack("{s:s}", "candidate", "c1"));
	json_object_set_new(trial, "comparisons", json_pack("[i, {s:i}, {s:s, s:s, s:s, s:i}]", 1, "a", 2, "a", "c3",
							    "b", "c1", "metric", "writeback", "verdict", 3));
	rec = judged("mkfs.block_size", "ext4", "-b", "1024", trial);
	CHECK(!json_object_get(rec, "verified"));
	json_decref(rec);
	json_decref(trial);
}

int main(void)
{
	test_match();
	test_verdicts();
	test_not_settled_and_baseline();
	test_metrics_about();
	test_unmarked();
	return CHECK_DONE();
}
