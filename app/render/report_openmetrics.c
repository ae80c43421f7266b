/* The report as metrics for node_exporter's textfile collector (`report --format openmetrics`):
 * findings by severity, probe failures, rule errors and the measured benchmark numbers, in the
 * OpenMetrics text format restricted to what the Prometheus text parser also reads (gauges only,
 * no # UNIT lines; "# EOF" is a comment to it), so one file serves both. Names and units follow
 * Prometheus conventions: base units (seconds, bytes), the unit as the name's suffix. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app/render/report_model.h"
#include "app/render/report_render.h"
#include "lib/xalloc.h"

/* The labels every sample carries, so that reports of several filesystems of one host can share the
 * textfile directory: device and mount point, as the facts name them ("" when unknown). */
struct om_ctx {
	FILE *out;
	char *base; /* device="...",mount_point="..." */
};

static void escape_into(char **buf, const char *s)
{
	size_t len = strlen(*buf), cap = len + 2 * strlen(s) + 1;
	char *p;

	*buf = xrealloc(*buf, cap);
	p = *buf + len;
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			*p++ = '\\', *p++ = *s;
		else if (*s == '\n')
			*p++ = '\\', *p++ = 'n';
		else
			*p++ = *s;
	}
	*p = '\0';
}

static char *label_pair(const char *name, const char *value)
{
	char *buf = xasprintf("%s=\"", name);

	escape_into(&buf, value ? value : "");
	buf = xrealloc(buf, strlen(buf) + 2);
	strcat(buf, "\"");
	return buf;
}

static void family_typed(struct om_ctx *c, const char *name, const char *type, const char *help)
{
	fprintf(c->out, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void family(struct om_ctx *c, const char *name, const char *help)
{
	family_typed(c, name, "gauge", help);
}

/* One sample: `extra` is "" or more labels ("severity=\"warn\"") after the common ones. */
static void sample(struct om_ctx *c, const char *name, const char *extra, double value)
{
	/* Whole numbers (counts, the timestamp) in full; measured values to 9 digits. */
	if (value == (double)(long long)value && value < 1e15 && value > -1e15)
		fprintf(c->out, "%s{%s%s%s} %lld\n", name, c->base, *extra ? "," : "", extra, (long long)value);
	else
		fprintf(c->out, "%s{%s%s%s} %.9g\n", name, c->base, *extra ? "," : "", extra, value);
}

static void findings(struct om_ctx *c, const struct report_model *m)
{
	static const char *const sev[] = {"critical", "warn", "suggest", "info"};
	size_t counts[4][2] = {{0}}, i, k;

	for (i = 0; i < m->n_recs; i++)
		if (m->recs[i].severity_rank >= 0)
			counts[3 - m->recs[i].severity_rank][m->recs[i].accepted ? 1 : 0]++;
	family(c, "fstune_findings",
	       "Findings of the last report by severity; accepted=\"true\" counts those the admin accepted.");
	for (k = 0; k < 4; k++)
		for (i = 0; i < 2; i++) {
			char *extra = xasprintf("severity=\"%s\",accepted=\"%s\"", sev[k], i ? "true" : "false");

			sample(c, "fstune_findings", extra, (double)counts[k][i]);
			free(extra);
		}
	family(c, "fstune_rule_errors", "Rule files that failed to load or to run in the last report.");
	sample(c, "fstune_rule_errors", "", (double)m->n_errors);
	family(c, "fstune_rules_not_evaluated", "Rules not evaluated for lack of facts in the last report.");
	sample(c, "fstune_rules_not_evaluated", "", (double)m->n_not_evaluated);
}

/* One series per recommendation, so an alert can name the finding: its id, severity, setting ("" for
 * advice with nothing to change) and whether the admin accepted it. Two recommendations with the
 * same labels (a hostile facts file can repeat one) would be a duplicate series: the first is kept. */
static char *rec_labels(const struct report_rec *r)
{
	char *id = label_pair("id", r->id), *sev = label_pair("severity", r->severity);
	char *set = label_pair("setting", r->setting);
	char *all = xasprintf("%s,%s,%s,accepted=\"%s\"", id, sev, set, r->accepted ? "true" : "false");

	free(id);
	free(sev);
	free(set);
	return all;
}

static void recommendations(struct om_ctx *c, const struct report_model *m)
{
	char **seen = xcalloc(m->n_recs + 1, sizeof(*seen));
	size_t n_seen = 0;

	family(c, "fstune_recommendation",
	       "1 for each recommendation of the last report, by id, severity, setting and acceptance.");
	for (size_t i = 0; i < m->n_recs; i++) {
		char *labels = rec_labels(&m->recs[i]);
		bool is_repeat = false;

		for (size_t k = 0; k < n_seen && !is_repeat; k++)
			is_repeat = strcmp(seen[k], labels) == 0;
		if (is_repeat) {
			free(labels);
			continue;
		}
		sample(c, "fstune_recommendation", labels, 1);
		seen[n_seen++] = labels;
	}
	while (n_seen)
		free(seen[--n_seen]);
	free(seen);
}

/* Facts that could not be probed, by status; each one that failed (status 3) also by key. */
static void probe_failures(struct om_ctx *c, const struct report_model *m)
{
	static const char *const statuses[] = {"failed", "needs_root", "denied"};
	size_t n[3] = {0}, i, k;

	for (k = 0; k < m->n_unknown; k++)
		for (i = 0; m->unknown[k].status && i < 3; i++)
			n[i] += strcmp(m->unknown[k].status, statuses[i]) == 0;
	family(c, "fstune_probe_failures",
	       "Facts the last report could not probe, by status (failed makes the report partial).");
	for (i = 0; i < 3; i++) {
		char *extra = xasprintf("status=\"%s\"", statuses[i]);

		sample(c, "fstune_probe_failures", extra, (double)n[i]);
		free(extra);
	}
	if (!n[0])
		return;
	family(c, "fstune_probe_failed", "1 for each fact whose probe failed in the last report.");
	for (k = 0; k < m->n_unknown; k++)
		if (m->unknown[k].status && strcmp(m->unknown[k].status, "failed") == 0) {
			char *extra = label_pair("key", m->unknown[k].key);

			sample(c, "fstune_probe_failed", extra, 1);
			free(extra);
		}
}

/* A measured value in the base unit Prometheus names use: seconds for the schema's microseconds, a
 * ratio for its percentages. */
static double base_unit(const struct report_bench_value *v)
{
	if (v->unit == UNITS_PERCENT)
		return v->value / 100;
	return v->unit == UNITS_US ? v->value * 1e-6 : v->value;
}

/* A measured number of bench.<test>: its facts key, the metric, its help and the extra label (the
 * value is converted to the metric's base unit from the unit the facts schema gives the key). One
 * table, so the names are declared once. */
static const struct bench_metric {
	const char *key;
	const char *name;
	const char *help;
	const char *label; /* NULL: none */
} bench_metrics[] = {
	{"iops", "fstune_bench_iops", "I/O operations per second measured by the test.", NULL},
	{"bw_bytes_per_s", "fstune_bench_throughput_bytes_per_second", "Throughput measured by the test.", NULL},
	{"lat_max_us", "fstune_bench_latency_max_seconds", "Highest completion latency seen by the test.", NULL},
	{"ci95_pct", "fstune_bench_ci95_ratio",
	 "Half-width of the 95% confidence interval of the test's rate, as a share of it (0.03: within 3%).", NULL},
	{"tps", "fstune_bench_operations_per_second",
	 "File operations per second of the file tests, by operation.", "op=\"transaction\""},
	{"create_per_s", "fstune_bench_operations_per_second", NULL, "op=\"create\""},
	{"read_per_s", "fstune_bench_operations_per_second", NULL, "op=\"read\""},
	{"append_per_s", "fstune_bench_operations_per_second", NULL, "op=\"append\""},
	{"delete_per_s", "fstune_bench_operations_per_second", NULL, "op=\"delete\""},
	{"stat_per_s", "fstune_bench_operations_per_second", NULL, "op=\"stat\""},
	{"unlink_per_s", "fstune_bench_operations_per_second", NULL, "op=\"unlink\""},
};

/* The rows of bench_metrics[] from `first` up to the next row with a help text: one family. */
static size_t family_end(size_t first)
{
	size_t j = first + 1;

	while (j < sizeof(bench_metrics) / sizeof(bench_metrics[0]) && !bench_metrics[j].help)
		j++;
	return j;
}

/* All samples of one family are written together, after its header, as the format requires. */
static void bench(struct om_ctx *c, const struct report_model *m)
{
	size_t i, j, k, end;

	for (i = 0; i < sizeof(bench_metrics) / sizeof(bench_metrics[0]); i = end) {
		bool has_any = false;

		end = family_end(i);
		for (j = i; j < end; j++)
			for (k = 0; k < m->n_bench; k++)
				has_any = has_any || report_bench_find(&m->bench[k], bench_metrics[j].key);
		if (!has_any)
			continue;
		family(c, bench_metrics[i].name, bench_metrics[i].help);
		for (j = i; j < end; j++)
			for (k = 0; k < m->n_bench; k++) {
				const struct bench_metric *bm = &bench_metrics[j];
				const struct report_bench_value *v = report_bench_find(&m->bench[k], bm->key);
				char *tl, *extra;

				if (!v)
					continue;
				tl = label_pair("test", m->bench[k].name);
				extra = bm->label ? xasprintf("%s,%s", tl, bm->label) : xstrdup(tl);
				sample(c, bm->name, extra, base_unit(v));
				free(extra);
				free(tl);
			}
	}
}

/* Latency percentiles as a summary, one test after the other: the quantiles measured, and _sum and
 * _count from the mean and the number of completions, so rate-free averages work as usual. */
static void latency(struct om_ctx *c, const struct report_model *m)
{
	static const struct {
		const char *key, *quantile;
	} q[] = {{"lat_p50_us", "0.5"}, {"lat_p99_us", "0.99"}, {"lat_p999_us", "0.999"}};
	bool has_header = false;

	for (size_t k = 0; k < m->n_bench; k++) {
		const struct report_bench_test *t = &m->bench[k];
		const struct report_bench_value *mean = report_bench_find(t, "lat_mean_us");
		const struct report_bench_value *n = report_bench_find(t, "samples");
		char *tl = label_pair("test", t->name);
		bool has_any = false;

		for (size_t i = 0; i < sizeof(q) / sizeof(q[0]); i++) {
			const struct report_bench_value *v = report_bench_find(t, q[i].key);
			char *extra;

			if (!v)
				continue;
			if (!has_header)
				family_typed(c, "fstune_bench_latency_seconds", "summary",
					     "Completion latency of the test, by percentile (fsync p99: "
					     "test=\"fsync_4k_overwrite\",quantile=\"0.99\").");
			has_header = has_any = true;
			extra = xasprintf("%s,quantile=\"%s\"", tl, q[i].quantile);
			sample(c, "fstune_bench_latency_seconds", extra, base_unit(v));
			free(extra);
		}
		if (has_any && mean && n) {
			sample(c, "fstune_bench_latency_seconds_sum", tl, base_unit(mean) * n->value);
			sample(c, "fstune_bench_latency_seconds_count", tl, n->value);
		}
		free(tl);
	}
}

int report_write_openmetrics(const struct session *s, FILE *out)
{
	struct report_model *m = report_model_new(s);
	struct om_ctx c = {out, NULL};
	char *dev = label_pair("device", m->device_name);
	char *mnt = label_pair("mount_point", m->mount_point);

	c.base = xasprintf("%s,%s", dev, mnt);
	free(dev);
	free(mnt);
	findings(&c, m);
	recommendations(&c, m);
	probe_failures(&c, m);
	bench(&c, m);
	latency(&c, m);
	family(&c, "fstune_report_timestamp_seconds", "When the report was made, in seconds since the epoch.");
	sample(&c, "fstune_report_timestamp_seconds", "", (double)time(NULL));
	fputs("# EOF\n", out);
	free(c.base);
	report_model_free(m);
	return report_finish(out);
}
