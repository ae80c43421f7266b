/* The bench.* facts as tables: the I/O tests (test, IOPS, MB/s, p50, p99, ±%, direct and what the run
 * found about the figures), then the file tests (test, tps, create/s, read/s, stat/s, append/s,
 * delete/s, files, ±%, cache); tests that did not run with their reason, the parameters used, every
 * failed consistency check, and what each flag means (a cache, the hardware's limit, the CPU, a burst,
 * the rotational claim) under the tables. */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/render/bench_table.h"
#include "app/render/facts_render.h"
#include "lib/facts_schema.h"
#include "lib/xalloc.h"
#include "fstune/bench.h"
#include "fstune/units.h"

#define FILE_COLS 10 /* test, tps, create/s, read/s, stat/s, append/s, delete/s, files, ±%, cache */

static const char *lat(char *buf, double us)
{
	if (isnan(us))
		return "-";
	return units_duration_us(buf, UNITS_BUFSZ, us, true);
}

static void row(FILE *out, bool md, const char *c[7])
{
	if (md)
		fprintf(out, "| %s | %s | %s | %s | %s | %s | %s |\n", c[0], c[1], c[2], c[3], c[4], c[5], c[6]);
	else
		/* "±" is two bytes and one column: printf pads by bytes */
		fprintf(out, "%-20s %9s %9s %10s %10s %*s  %s\n", c[0], c[1], c[2], c[3], c[4],
			strcmp(c[5], "±%") ? 5 : 6, c[5], c[6]);
}

static enum units_kind param_unit(const char *name)
{
	char *k = xasprintf("bench.parameters.%s", name);
	enum units_kind u = facts_schema_unit(k);

	free(k);
	return u;
}

static void params_block(FILE *out, const struct facts *f, bool md)
{
	const json_t *p = facts_get(f, "bench.parameters");
	const char *k;
	json_t *v;
	char buf[UNITS_BUFSZ];

	if (!json_is_object(p))
		return;
	fprintf(out, md ? "\n**Parameters used**\n\n" : "\nParameters used:\n");
	json_object_foreach((json_t *)(uintptr_t)p, k, v) {
		char val[256];

		if (json_is_string(v) && !*json_string_value(v))
			continue;
		if (json_is_string(v))
			snprintf(val, sizeof val, "%s", json_string_value(v));
		else if (json_is_integer(v) && !json_integer_value(v) && !strcmp(k, "size_bytes"))
			snprintf(val, sizeof val, "auto");
		else if (json_is_number(v))
			snprintf(val, sizeof val, "%s", units_value(buf, sizeof buf, param_unit(k), json_number_value(v),
								   json_is_integer(v)));
		else
			continue;
		fprintf(out, md ? "- %s: %s\n" : "  %-18s %s\n", k, val);
	}
}

/* A test's row when bench.<test> holds no results: its reason when it did not run, else nothing.
 * True when the row was handled (written, or nothing to write). */
static bool unavailable_row(FILE *out, const struct facts *f, bool md, const char *name, size_t ncells,
			    void (*write)(FILE *, bool, const char **))
{
	char *k = xasprintf("bench.%s", name);
	const char *cells[FILE_COLS] = {0}, *reason;
	enum facts_status st;
	bool has = facts_has(f, k) && facts_get(f, k);
	size_t j;

	if (!has && facts_unavailable(f, k, &st, &reason) && reason) {
		char *text = facts_render_unavailable(facts_status_name(st), reason);
		char note[300];

		snprintf(note, sizeof note, "(%s)", text);
		free(text);
		cells[0] = name;
		for (j = 1; j + 1 < ncells; j++)
			cells[j] = "-";
		cells[ncells - 1] = note;
		write(out, md, cells);
	}
	free(k);
	return !has;
}

/* The test's name, with " !" when one of its consistency checks failed (listed under the table). */
static bool test_name(const struct facts *f, const char *name, char *buf, size_t size)
{
	char *k = xasprintf("bench.%s.checks_ok", name);
	bool ok = true;

	facts_get_bool(f, k, &ok);
	free(k);
	snprintf(buf, size, "%s%s", name, ok ? "" : " !");
	return ok;
}

const struct bench_flag_mark bench_flag_marks[] = {
	{"implausible", "implausible"},
	{"cache_suspect", "cache?"},
	{"cpu_bound", "cpu-bound"},
};
const size_t bench_n_flag_marks = sizeof bench_flag_marks / sizeof bench_flag_marks[0];

const char *bench_flag_mark_of(const char *leaf)
{
	for (size_t i = 0; i < bench_n_flag_marks; i++)
		if (!strcmp(bench_flag_marks[i].leaf, leaf))
			return bench_flag_marks[i].mark;
	return !strcmp(leaf, "burst") ? "burst" : NULL;
}

/* The direct column: how the figures were taken, and what the run found about them (explained under
 * the table): "yes cache?", "yes implausible", "memory cpu-bound", "yes burst". */
static void direct_cell(const struct facts *f, const char *name, char *buf, size_t size)
{
	char *k = xasprintf("bench.%s.direct", name), *kb = xasprintf("bench.%s.burst", name);
	const char *direct = facts_get_string(f, k);
	size_t i, n;

	n = (size_t)snprintf(buf, size, "%s", direct ? direct : "?");
	for (i = 0; i < bench_n_flag_marks && n < size; i++)
		if (bench_flagged(f, name, bench_flag_marks[i].leaf))
			n += (size_t)snprintf(buf + n, size - n, " %s", bench_flag_marks[i].mark);
	if (n < size && json_is_object(facts_get(f, kb)))
		snprintf(buf + n, size - n, " %s", bench_flag_mark_of("burst"));
	free(k);
	free(kb);
}

static void io_row(FILE *out, const struct facts *f, bool md, const char *name, size_t *n_failed)
{
	char c1[32], c2[32], c3[UNITS_BUFSZ], c4[UNITS_BUFSZ], c5[32], c6[96], tname[64];
	const char *cells[7];

	*n_failed += !test_name(f, name, tname, sizeof tname);
	snprintf(c1, sizeof c1, "%.0f", bench_figure(f, name, "iops"));
	snprintf(c2, sizeof c2, "%.1f", bench_figure(f, name, "bw_bytes_per_s") / 1e6);
	/* ±%: the half-width of the rate's 95% confidence interval, the figure's own uncertainty */
	if (isnan(bench_figure(f, name, "ci95_pct")))
		snprintf(c5, sizeof c5, "-");
	else
		snprintf(c5, sizeof c5, "%.1f", bench_figure(f, name, "ci95_pct"));
	direct_cell(f, name, c6, sizeof c6);
	cells[0] = tname;
	cells[1] = c1;
	cells[2] = c2;
	cells[3] = lat(c3, bench_figure(f, name, "lat_p50_us"));
	cells[4] = lat(c4, bench_figure(f, name, "lat_p99_us"));
	cells[5] = c5;
	cells[6] = c6;
	row(out, md, cells);
}

static void io_row_write(FILE *out, bool md, const char **c)
{
	row(out, md, c);
}

/* The file tests' block. Each column lists the bench.<test>.* keys it shows, first present wins: a
 * tree's files written and read per second are its create/s and read/s, an unlink is a delete; ±% is
 * the widest 95% confidence interval of the test's phases. */
static const char *const file_head[FILE_COLS] = {"test", "tps", "create/s", "read/s", "stat/s",
						 "append/s", "delete/s", "files", "±%", "cache"};
#define FILE_CI_COL 8
static const char *const file_keys[FILE_COLS][3] = {
	{NULL},
	{"tps"},
	{"create_per_s", "write_files_per_s"},
	{"read_per_s", "read_files_per_s"},
	{"stat_per_s"},
	{"append_per_s"},
	{"delete_per_s", "unlink_per_s"},
	{"files"},
	{"ci95_pct"},
	{"cache"},
};

static void file_row_write(FILE *out, bool md, const char **c)
{
	if (md)
		fprintf(out, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", c[0], c[1], c[2], c[3], c[4],
			c[5], c[6], c[7], c[8], c[9]);
	else
		/* "±" is two bytes and one column: printf pads by bytes */
		fprintf(out, "%-17s %7s %8s %8s %8s %8s %8s %7s %*s  %s\n", c[0], c[1], c[2], c[3], c[4], c[5],
			c[6], c[7], strcmp(c[8], "±%") ? 5 : 6, c[8], c[9]);
}

static void file_row(FILE *out, const struct facts *f, bool md, const char *name, size_t *n_failed)
{
	char vals[FILE_COLS][64];
	const char *cells[FILE_COLS];
	size_t c, j;

	*n_failed += !test_name(f, name, vals[0], sizeof vals[0]);
	cells[0] = vals[0];
	for (c = 1; c < FILE_COLS; c++) {
		snprintf(vals[c], sizeof vals[c], "-");
		for (j = 0; j < 3 && file_keys[c][j]; j++) {
			char *k = xasprintf("bench.%s.%s", name, file_keys[c][j]);
			const char *s = facts_get_string(f, k);
			double v = NAN;

			if (s)
				snprintf(vals[c], sizeof vals[c], "%s", s);
			else if (facts_get_real(f, k, &v), !isnan(v))
				snprintf(vals[c], sizeof vals[c], c == FILE_CI_COL ? "%.1f" : "%.0f", v);
			free(k);
			if (s || !isnan(v))
				break;
		}
		cells[c] = vals[c];
	}
	file_row_write(out, md, cells);
}

static bool is_file_test(size_t i)
{
	return bench_tests[i].pattern == BENCH_PATTERN_FILES;
}

/* True when the facts hold bench.<test> for a test of this block, measured or not. */
static bool block_present(const struct facts *f, bool files)
{
	size_t i;

	for (i = 0; i < bench_n_tests; i++) {
		char *k = xasprintf("bench.%s", bench_tests[i].name);
		enum facts_status st;
		const char *reason;
		bool has = is_file_test(i) == files &&
			   ((facts_has(f, k) && facts_get(f, k)) || facts_unavailable(f, k, &st, &reason));

		free(k);
		if (has)
			return true;
	}
	return false;
}

/* What "cache?", "implausible" and "cpu-bound" mean for each test so marked: each distinct reason once
 * under its label. */
/* Under the table, one line each; a list item in Markdown, where lines would run together. */
static void note_line(FILE *out, bool md, bool *is_first, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void note_line(FILE *out, bool md, bool *is_first, const char *fmt, ...)
{
	va_list ap;

	fprintf(out, "%s%s", *is_first ? "\n" : "", md ? "- " : "");
	va_start(ap, fmt);
	vfprintf(out, fmt, ap);
	va_end(ap);
	fputc('\n', out);
	*is_first = false;
}

static void reasons_block(FILE *out, bool md, const struct facts *f, const char *leaf, const char *label,
			  bool *is_first)
{
	const char *said[32];
	size_t i, j, n = 0;

	for (i = 0; i < bench_n_tests && n < sizeof said / sizeof said[0]; i++) {
		char *k = xasprintf("bench.%s.%s_reason", bench_tests[i].name, leaf);
		const char *why = bench_flagged(f, bench_tests[i].name, leaf) ? facts_get_string(f, k) : NULL;

		free(k);
		for (j = 0; why && j < n; j++)
			if (!strcmp(said[j], why))
				why = NULL;
		if (!why)
			continue;
		note_line(out, md, is_first, "%s %s: %s", label, bench_tests[i].name, why);
		said[n++] = why;
	}
}

/* Each write test's burst, or what no burst says: a cache larger than what the test wrote would not
 * show. The fsync tests are left out: nothing fills when every write is flushed. */
static void burst_block(FILE *out, bool md, const struct facts *f, bool *is_first)
{
	char r1[UNITS_BUFSZ], r2[UNITS_BUFSZ], b[UNITS_BUFSZ];
	uint64_t most = 0;
	size_t i;

	for (i = 0; i < bench_n_tests; i++) {
		const struct bench_test_def *t = &bench_tests[i];
		char *k = xasprintf("bench.%s.burst", t->name);
		const json_t *burst = facts_get(f, k);
		double written = bench_figure(f, t->name, "bytes_written");

		free(k);
		if (!t->is_write || t->is_fsync || t->pattern == BENCH_PATTERN_FILES || isnan(written))
			continue;
		if (!json_is_object(burst)) {
			most = (uint64_t)written > most ? (uint64_t)written : most;
			continue;
		}
		note_line(out, md, is_first, "burst %s: %s for the first %s, then %s sustained", t->name,
			  units_rate(r1, sizeof r1, json_number_value(json_object_get(burst, "burst_rate"))),
			  units_bytes(b, sizeof b, (uint64_t)json_integer_value(json_object_get(burst, "burst_bytes"))),
			  units_rate(r2, sizeof r2, json_number_value(json_object_get(burst, "sustained_rate"))));
	}
	if (most)
		note_line(out, md, is_first, "no burst in the other writes: a write cache larger than what a test "
			  "wrote (at most %s here) would not show", units_bytes(b, sizeof b, most));
}

static void notes_block(FILE *out, bool md, const struct facts *f)
{
	const char *claim = facts_get_string(f, "bench.rotational_claim.reason");
	bool is_first = true;
	size_t i;

	for (i = 0; i < bench_n_flag_marks; i++)
		reasons_block(out, md, f, bench_flag_marks[i].leaf, bench_flag_marks[i].mark, &is_first);
	burst_block(out, md, f, &is_first);
	if (claim)
		note_line(out, md, &is_first, "rotational? %s", claim);
}

bool bench_table_has_rows(const struct facts *f)
{
	return block_present(f, false) || block_present(f, true);
}

int bench_table_write(FILE *out, const struct facts *f, bool md, bool with_parameters)
{
	static const char *const head[7] = {"test", "IOPS", "MB/s", "p50", "p99", "±%", "direct"};
	bool has_files = block_present(f, true), has_io = block_present(f, false);
	size_t i, n_failed = 0;

	/* the I/O block unless the facts hold file tests only */
	if (has_io || !has_files) {
		row(out, md, (const char **)head);
		if (md)
			fprintf(out, "|---|---:|---:|---:|---:|---:|---|\n");
		for (i = 0; i < bench_n_tests; i++)
			if (!is_file_test(i) && !unavailable_row(out, f, md, bench_tests[i].name, 7, io_row_write))
				io_row(out, f, md, bench_tests[i].name, &n_failed);
	}
	if (has_files) {
		if (has_io)
			fputc('\n', out);
		file_row_write(out, md, (const char **)file_head);
		if (md)
			fprintf(out, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
		for (i = 0; i < bench_n_tests; i++)
			if (is_file_test(i) && !unavailable_row(out, f, md, bench_tests[i].name, FILE_COLS, file_row_write))
				file_row(out, f, md, bench_tests[i].name, &n_failed);
	}
	if (n_failed) {
		fprintf(out, "\n! a consistency check failed for this test:\n");
		for (i = 0; i < bench_n_tests; i++) {
			char *k = xasprintf("bench.%s.checks_failed", bench_tests[i].name);
			const json_t *a = facts_get(f, k);
			size_t j;

			for (j = 0; json_is_array(a) && j < json_array_size(a); j++)
				fprintf(out, "  %s: %s\n", bench_tests[i].name,
					json_string_value(json_array_get(a, j)));
			free(k);
		}
	}
	notes_block(out, md, f);
	if (with_parameters)
		params_block(out, f, md);
	return ferror(out) ? -1 : 0;
}
