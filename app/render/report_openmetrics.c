/* The report as metrics for node_exporter's textfile collector (`report --format openmetrics`):
 * findings by severity, probe failures, rule errors and the measured benchmark numbers and their
 * flags, in the OpenMetrics text format restricted to what the Prometheus text parser also reads (gauges only,
 * no # UNIT lines; "# EOF" is a comment to it), so one file serves both. Names and units follow
 * Prometheus conventions: base units (seconds, bytes), the unit as the name's suffix. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

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

static void findings(struct om_ctx *c, const struct session *s)
{
	static const char *const sev[] = {"critical", "warn", "suggest", "info"};
	size_t counts[4][2] = {{0}}, i, k;
	const json_t *rec;

	json_array_foreach(s->result.recommendations, i, rec) {
		int r = session_severity_rank(json_string_value(json_object_get(rec, "severity")));

		if (r >= 0)
			counts[3 - r][json_is_object(json_object_get(rec, "accepted")) ? 1 : 0]++;
	}
	family(c, "fstune_findings",
	       "Findings of the last report by severity; accepted=\"true\" counts those the admin accepted.");
	for (k = 0; k < 4; k++)
		for (i = 0; i < 2; i++) {
			char *extra = xasprintf("severity=\"%s\",accepted=\"%s\"", sev[k], i ? "true" : "false");

			sample(c, "fstune_findings", extra, (double)counts[k][i]);
			free(extra);
		}
	family(c, "fstune_rule_errors", "Rule files that failed to load or to run in the last report.");
	sample(c, "fstune_rule_errors", "", (double)json_array_size(s->result.errors));
	family(c, "fstune_rules_not_evaluated", "Rules not evaluated for lack of facts in the last report.");
	sample(c, "fstune_rules_not_evaluated", "", (double)json_array_size(s->result.not_evaluated));
}

/* Facts that could not be probed, by status; each one that failed (status 3) also by key. */
static void probe_failures(struct om_ctx *c, const struct session *s)
{
	static const char *const statuses[] = {"failed", "needs_root", "denied"};
	const json_t *un = json_object_get(s->facts->doc, "unavailable"), *v;
	const char *key;
	size_t n[3] = {0}, i;

	json_object_foreach((json_t *)un, key, v) {
		const char *st = json_string_value(json_object_get(v, "status"));

		for (i = 0; st && i < 3; i++)
			n[i] += strcmp(st, statuses[i]) == 0;
	}
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
	json_object_foreach((json_t *)un, key, v) {
		const char *st = json_string_value(json_object_get(v, "status"));

		if (st && strcmp(st, "failed") == 0) {
			char *extra = label_pair("key", key);

			sample(c, "fstune_probe_failed", extra, 1);
			free(extra);
		}
	}
}

/* A measured number of bench.<test>: its facts key, the metric, its help, the factor to base units
 * and the extra label. One table, so the names are declared once. */
static const struct bench_metric {
	const char *key;
	const char *name;
	const char *help;
	double scale;
	const char *label; /* NULL: none */
} bench_metrics[] = {
	{"iops", "fstune_bench_iops", "I/O operations per second measured by the test.", 1, NULL},
	{"bw_bytes_per_s", "fstune_bench_throughput_bytes_per_second", "Throughput measured by the test.", 1, NULL},
	{"lat_max_us", "fstune_bench_latency_max_seconds", "Highest completion latency seen by the test.", 1e-6, NULL},
	{"tps", "fstune_bench_operations_per_second",
	 "File operations per second of the file tests, by operation.", 1, "op=\"transaction\""},
	{"create_per_s", "fstune_bench_operations_per_second", NULL, 1, "op=\"create\""},
	{"read_per_s", "fstune_bench_operations_per_second", NULL, 1, "op=\"read\""},
	{"append_per_s", "fstune_bench_operations_per_second", NULL, 1, "op=\"append\""},
	{"delete_per_s", "fstune_bench_operations_per_second", NULL, 1, "op=\"delete\""},
	{"stat_per_s", "fstune_bench_operations_per_second", NULL, 1, "op=\"stat\""},
	{"unlink_per_s", "fstune_bench_operations_per_second", NULL, 1, "op=\"unlink\""},
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
static void bench(struct om_ctx *c, const struct session *s)
{
	const json_t *b = json_object_get(s->facts->doc, "bench"), *t, *v;
	const char *test;
	size_t i, j, end;

	for (i = 0; i < sizeof(bench_metrics) / sizeof(bench_metrics[0]); i = end) {
		bool has_any = false;

		end = family_end(i);
		for (j = i; j < end; j++)
			json_object_foreach((json_t *)b, test, t)
				has_any = has_any || json_is_number(json_object_get(t, bench_metrics[j].key));
		if (!has_any)
			continue;
		family(c, bench_metrics[i].name, bench_metrics[i].help);
		for (j = i; j < end; j++)
			json_object_foreach((json_t *)b, test, t) {
				const struct bench_metric *m = &bench_metrics[j];
				char *tl, *extra;

				v = json_object_get(t, m->key);
				if (!json_is_number(v))
					continue;
				tl = label_pair("test", test);
				extra = m->label ? xasprintf("%s,%s", tl, m->label) : xstrdup(tl);
				sample(c, m->name, extra, json_number_value(v) * m->scale);
				free(extra);
				free(tl);
			}
	}
}

/* What the run found about a test's figures (bench table's marks): 1 per flag set, so an alert can
 * catch a fleet's cache-served or implausible numbers. */
static void bench_flags(struct om_ctx *c, const struct session *s)
{
	static const char *const flags[] = {"implausible", "cache_suspect", "cpu_bound", "burst"};
	const json_t *b = json_object_get(s->facts->doc, "bench"), *t;
	const char *test;
	bool has_header = false;

	json_object_foreach((json_t *)b, test, t)
		for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
			const json_t *v = json_object_get(t, flags[i]);
			char *tl, *extra;

			if (!json_is_true(v) && !(i == 3 && json_is_object(v)))
				continue;
			if (!has_header)
				family(c, "fstune_bench_flag", "A flag on the test's figures: implausible (beyond the "
				       "hardware), cache_suspect, cpu_bound, burst (a write cache filled).");
			has_header = true;
			tl = label_pair("test", test);
			extra = xasprintf("%s,flag=\"%s\"", tl, flags[i]);
			sample(c, "fstune_bench_flag", extra, 1);
			free(extra);
			free(tl);
		}
}

/* Latency percentiles as a summary, one test after the other: the quantiles measured, and _sum and
 * _count from the mean and the number of completions, so rate-free averages work as usual. */
static void latency(struct om_ctx *c, const struct session *s)
{
	static const struct {
		const char *key, *quantile;
	} q[] = {{"lat_p50_us", "0.5"}, {"lat_p99_us", "0.99"}, {"lat_p999_us", "0.999"}};
	const json_t *b = json_object_get(s->facts->doc, "bench"), *t;
	const char *test;
	bool has_header = false;

	json_object_foreach((json_t *)b, test, t) {
		const json_t *mean = json_object_get(t, "lat_mean_us"), *n = json_object_get(t, "samples");
		char *tl = label_pair("test", test);
		bool has_any = false;

		for (size_t i = 0; i < sizeof(q) / sizeof(q[0]); i++) {
			const json_t *v = json_object_get(t, q[i].key);
			char *extra;

			if (!json_is_number(v))
				continue;
			if (!has_header)
				family_typed(c, "fstune_bench_latency_seconds", "summary",
					     "Completion latency of the test, by percentile (fsync p99: "
					     "test=\"fsync_4k_overwrite\",quantile=\"0.99\").");
			has_header = has_any = true;
			extra = xasprintf("%s,quantile=\"%s\"", tl, q[i].quantile);
			sample(c, "fstune_bench_latency_seconds", extra, json_number_value(v) * 1e-6);
			free(extra);
		}
		if (has_any && json_is_number(mean) && json_is_number(n)) {
			sample(c, "fstune_bench_latency_seconds_sum", tl,
			       json_number_value(mean) * 1e-6 * json_number_value(n));
			sample(c, "fstune_bench_latency_seconds_count", tl, json_number_value(n));
		}
		free(tl);
	}
}

int report_write_openmetrics(const struct session *s, FILE *out)
{
	struct om_ctx c = {out, NULL};
	char *dev = label_pair("device", facts_get_string(s->facts, "device.name"));
	char *mnt = label_pair("mount_point", facts_get_string(s->facts, "fs.mount_point"));

	c.base = xasprintf("%s,%s", dev, mnt);
	free(dev);
	free(mnt);
	findings(&c, s);
	probe_failures(&c, s);
	bench(&c, s);
	bench_flags(&c, s);
	latency(&c, s);
	family(&c, "fstune_report_timestamp_seconds", "When the report was made, in seconds since the epoch.");
	sample(&c, "fstune_report_timestamp_seconds", "", (double)time(NULL));
	fputs("# EOF\n", out);
	free(c.base);
	return report_finish(out);
}
