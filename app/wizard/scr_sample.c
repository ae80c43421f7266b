/* What a sample of a directory showed (opened from Workload after sampling): the counts, the size
 * histogram drawn as bars, and the tail waste (the space lost in files' last blocks) per block size,
 * all read from the workload facts the sampler wrote. Enter goes on to Detected. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/wizard/ui_int.h"
#include "fstune/units.h"

enum { S_ON = UI_ACT_SCREEN };

static const struct ui_key sample_keys[] = {
	UI_KEYS_ENTER_OR(KEY_RIGHT, S_ON, "go on to what was detected"),
	{0, 0, NULL, false},
};

static void sample_init(struct ui_wizard *w) { (void)w; }

/* A point of the size distribution: the share of files of at most `bytes`. */
struct point {
	double bytes, share;
};

static int by_bytes(const void *a, const void *b)
{
	double x = ((const struct point *)a)->bytes, y = ((const struct point *)b)->bytes;

	return x < y ? -1 : x > y;
}

/* The distribution's known points, from the shares under 1, 2, 4 KiB and the percentiles, in
 * size order, each share at least the one before (the nearest-rank percentiles can tie). */
static size_t points_of(const struct facts *f, struct point *p)
{
	static const struct { const char *key; double bytes; } shares[] = {
		{"workload.share_under_1k", 1024}, {"workload.share_under_2k", 2048}, {"workload.share_under_4k", 4096}};
	double max, v;
	size_t n = 0;

	if (!facts_get_real(f, "workload.file_size_max_bytes", &max))
		return 0;
	for (size_t i = 0; i < sizeof(shares) / sizeof(shares[0]); i++)
		if (shares[i].bytes < max && facts_get_real(f, shares[i].key, &v))
			p[n++] = (struct point){shares[i].bytes, v};
	if (facts_get_real(f, "workload.file_size_p50_bytes", &v) && v < max)
		p[n++] = (struct point){v, 0.5};
	if (facts_get_real(f, "workload.file_size_p90_bytes", &v) && v < max)
		p[n++] = (struct point){v, 0.9};
	p[n++] = (struct point){max, 1.0};
	qsort(p, n, sizeof(*p), by_bytes);
	/* in order, and a range no file falls in merged into the next */
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		if (k && p[i].share < p[k - 1].share)
			p[i].share = p[k - 1].share;
		if (k && p[i].share == p[k - 1].share && i + 1 < n)
			continue;
		p[k++] = p[i];
	}
	return k;
}

static int draw_histogram(const struct facts *f, int y, const struct ui_area *a, int max_rows)
{
	struct point p[8];
	size_t n = points_of(f, p);
	double files = 0, top = 0;
	char lo[UNITS_BUFSZ], hi[UNITS_BUFSZ], label[96], count[48];

	facts_get_real(f, "workload.files_total", &files);
	for (size_t i = 0; i < n; i++)
		if (p[i].share - (i ? p[i - 1].share : 0) > top)
			top = p[i].share - (i ? p[i - 1].share : 0);
	ui_put(y++, a->left, a->cols, ui_attr(UI_HEADING), "File sizes (share of the files in each range)");
	for (size_t i = 0; i < n && max_rows-- > 1; i++) {
		double share = p[i].share - (i ? p[i - 1].share : 0);

		units_bytes(hi, sizeof(hi), (uint64_t)p[i].bytes);
		if (i)
			snprintf(label, sizeof(label), "%s %s %s", units_bytes(lo, sizeof(lo), (uint64_t)p[i - 1].bytes),
				 ui_glyph->arrow, hi);
		else
			snprintf(label, sizeof(label), "up to %s", hi);
		snprintf(count, sizeof(count), "%5.1f%%  %.0f", share * 100, share * files);
		ui_put(y, a->left + 2, 26, ui_attr(UI_NORMAL), label);
		ui_hbar(y, a->left + 28, a->cols - 50, ui_attr(UI_OK), share, top);
		ui_put(y++, a->left + a->cols - 20, 20, ui_attr(UI_NORMAL), count);
	}
	return y;
}

/* Tail waste per block size, in columns of 26 cells, as many to a row as fit. */
static int draw_tail_waste(const struct facts *f, int y, const struct ui_area *a)
{
	int per_row = (a->cols - 2) / 26, col = 0;
	double bytes = 0;
	char part[64], b[UNITS_BUFSZ];

	facts_get_real(f, "workload.bytes_total", &bytes);
	ui_put(y++, a->left, a->cols, ui_attr(UI_HEADING),
	       "Tail waste by block size (space lost in files' last blocks; % of the data)");
	for (size_t i = 0; i < WORKLOAD_TAIL_UNITS; i++) {
		char key[64];
		long long v;

		snprintf(key, sizeof(key), "workload.tail_waste_bytes.u%uk", (unsigned)(workload_tail_units[i] / 1024));
		if (!facts_get_int(f, key, &v))
			continue;
		snprintf(part, sizeof(part), "%2uK: %s (%.0f%%)", (unsigned)(workload_tail_units[i] / 1024),
			 units_bytes(b, sizeof(b), (uint64_t)v), bytes > 0 ? 100.0 * (double)v / bytes : 0);
		ui_put(y, a->left + 2 + col * 26, 25, ui_attr(UI_NORMAL), part);
		if (++col >= per_row) {
			col = 0;
			y++;
		}
	}
	return y + (col > 0);
}

static void draw_counts(const struct facts *f, const struct ui_area *a)
{
	long long files = 0, dirs = 0, per_dir = 0, errors = 0, denied = 0;
	bool is_partial = false;
	char line[256], b[UNITS_BUFSZ];
	double bytes = 0;

	facts_get_int(f, "workload.files_total", &files);
	facts_get_int(f, "workload.sample.dirs", &dirs);
	facts_get_int(f, "workload.files_per_dir", &per_dir);
	facts_get_int(f, "workload.sample.errors", &errors);
	facts_get_int(f, "workload.sample.denied", &denied);
	facts_get_real(f, "workload.bytes_total", &bytes);
	facts_get_bool(f, "workload.partial", &is_partial);
	snprintf(line, sizeof(line), "%lld files, %lld directories, %s, %lld per directory (median)", files, dirs,
		 units_bytes(b, sizeof(b), (uint64_t)bytes), per_dir);
	ui_put(a->top + 1, a->left, a->cols, ui_attr(UI_OK), line);
	snprintf(line, sizeof(line), "%s%lld unreadable, %lld denied", is_partial ? "stopped early: partial; " : "",
		 errors, denied);
	if (is_partial || errors || denied)
		ui_put(a->top + 2, a->left, a->cols, ui_attr(UI_UNAVAILABLE), line);
}

static void sample_draw(struct ui_wizard *w, const struct ui_area *a)
{
	const struct facts *f = w->session->facts;
	const char *root = facts_get_string(f, "workload.sample.root");
	char head[256];
	int y;

	snprintf(head, sizeof(head), "Sample: %s", root ? root : "(none)");
	ui_put(a->top, a->left, a->cols, ui_attr(UI_HEADING), head);
	if (!root)
		return;
	draw_counts(f, a);
	y = draw_histogram(f, a->top + 4, a, a->rows - 9);
	draw_tail_waste(f, y + 1, a);
}

static enum ui_result sample_key(struct ui_wizard *w, int action, int ch)
{
	(void)ch;
	if (action != S_ON)
		return UI_DONE;
	return ui_goto(w, UI_SCR_DETECTED);
}

const struct ui_screen ui_screen_sample = {
	.name = NULL,
	.help_intro = "The sampler read the tree without writing: each file once (hard links once), "
		      "not crossing into other filesystems. The histogram's ranges come from the shares "
		      "under 1, 2 and 4 KiB and the median and 90th percentile sizes.",
	.keys = sample_keys,
	.init = sample_init,
	.draw = sample_draw,
	.key = sample_key,
};
