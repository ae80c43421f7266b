/* The metric sets of the workloads (trial_metrics.h). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "app/trial/trial_metrics.h"

static const struct trial_metric smallfile = {
	"smallfile", TRIAL_METRIC_BENCH, "smallfile", "tps", "tps", true,
	"small-file transactions/s (Postmark, no fsync)", "small-file transactions"};
static const struct trial_metric smallfile_fsync = {
	"smallfile_fsync", TRIAL_METRIC_BENCH, "smallfile_fsync", "tps", "tps", true,
	"small-file transactions/s with an fsync per file", "small-file transactions with fsync"};
static const struct trial_metric writeback = {
	"writeback", TRIAL_METRIC_TREE, "tree", "writeback_s", "s", false,
	"tree write + unmount (the writeback), seconds", "writeback of the tree"};
static const struct trial_metric cold_read = {
	"cold_read", TRIAL_METRIC_TREE, "tree", "cold_read_s", "s", false,
	"cold read-back of the tree after a mount, seconds", "cold read of the tree"};
static const struct trial_metric fsync_iops = {
	"fsync_iops", TRIAL_METRIC_BENCH, "fsync_4k_overwrite", "iops", "IOPS", true,
	"4 KiB overwrites + fdatasync per second (commits)", "commits (fsync IOPS)"};
static const struct trial_metric fsync_p99 = {
	"fsync_p99", TRIAL_METRIC_BENCH, "fsync_4k_overwrite", "lat_p99_us", "us", false,
	"p99 latency of a 4 KiB overwrite + fdatasync, microseconds", "the commit's p99 latency"};
static const struct trial_metric seq_write = {
	"seq_write", TRIAL_METRIC_BENCH, "seq_write_1m", "bw_bytes_per_s", "B/s", true,
	"1 MiB sequential write bandwidth", "sequential writes"};
static const struct trial_metric seq_read = {
	"seq_read", TRIAL_METRIC_BENCH, "seq_read_1m", "bw_bytes_per_s", "B/s", true,
	"1 MiB sequential read bandwidth", "sequential reads"};

/* Random reads at each I/O size the bench table has (4 KiB for any other size). */
#define RAND_READ(kib)                                                                            \
	{"rand_read", TRIAL_METRIC_BENCH, "rand_read_" #kib "k_qd1", "iops", "IOPS", true,      \
	 #kib " KiB random reads per second, one at a time", "random " #kib " KiB reads"}
static const struct trial_metric rand_reads[] = {RAND_READ(1), RAND_READ(2), RAND_READ(4), RAND_READ(8),
						 RAND_READ(16), RAND_READ(64)};
static const unsigned rand_read_kib[] = {1, 2, 4, 8, 16, 64};

static const struct trial_metric *rand_read_at(long long io_size)
{
	for (size_t i = 0; i < sizeof rand_read_kib / sizeof rand_read_kib[0]; i++)
		if (io_size == (long long)rand_read_kib[i] * 1024)
			return &rand_reads[i];
	return &rand_reads[2];
}

static void add(struct trial_metric_set *set, const struct trial_metric *m, bool is_primary)
{
	if (is_primary)
		set->primary = set->n;
	set->m[set->n++] = m;
	if (m->kind == TRIAL_METRIC_TREE) {
		set->has_tree = true;
		return;
	}
	for (size_t i = 0; i + 1 < set->n; i++)
		if (!strcmp(set->m[i]->test, m->test))
			return;
	snprintf(set->tests + strlen(set->tests), sizeof set->tests - strlen(set->tests), "%s%s",
		 *set->tests ? "," : "", m->test);
}

void trial_metrics_for(const struct facts *workload, struct trial_metric_set *set)
{
	const char *profile = facts_get_string(workload, "workload.profile");
	bool sync = false;
	long long io = 0;

	memset(set, 0, sizeof *set);
	facts_get_bool(workload, "workload.sync_heavy", &sync);
	facts_get_int(workload, "workload.io_size_bytes", &io);
	if (!profile)
		profile = "general";
	if (!strcmp(profile, "smallfiles")) {
		add(set, &smallfile, !sync);
		add(set, &smallfile_fsync, sync);
	} else if (!strcmp(profile, "database")) {
		add(set, rand_read_at(io), !sync);
		add(set, &fsync_iops, sync);
		add(set, &fsync_p99, false);
	} else if (!strcmp(profile, "largefiles")) {
		add(set, &seq_write, true);
		add(set, &seq_read, false);
	} else {
		/* source-tree and general: a tree written, then read back cold; the writeback and the cold
		 * read are two metrics, since a filesystem can win one and lose the other */
		add(set, &writeback, true);
		add(set, &cold_read, false);
	}
}

double trial_metric_value(const struct trial_metric *m, const json_t *run)
{
	const json_t *v;

	if (m->kind == TRIAL_METRIC_TREE) {
		const json_t *tree = json_object_get(run, "tree");

		if (!json_is_number(json_object_get(tree, "read_s")))
			return NAN;
		if (!strcmp(m->leaf, "cold_read_s"))
			return json_number_value(json_object_get(tree, "read_s"));
		return json_number_value(json_object_get(tree, "write_s")) +
		       json_number_value(json_object_get(tree, "umount_s"));
	}
	v = json_object_get(json_object_get(json_object_get(run, "bench"), m->test), m->leaf);
	return json_is_number(v) && json_number_value(v) > 0 ? json_number_value(v) : NAN;
}

int trial_metric_index(const struct trial_metric_set *set, const char *name)
{
	for (size_t i = 0; i < set->n; i++)
		if (!strcmp(set->m[i]->name, name))
			return (int)i;
	return -1;
}
