/* The workload presets, the parsing of the workload flags' values, and the writing of what the user
 * said (preset, default, overrides) into the facts. The reasoning behind every value is in
 * doc/workload-presets.md; keep the two in step. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "fstune/units.h"
#include "fstune/workload.h"

#define KiB 1024ULL
#define MiB (1024ULL * KiB)
#define GiB (1024ULL * MiB)

/* `general` must stay in the table: workload_spec_apply_preset falls back to it. */
const struct workload_preset workload_presets[] = {
	{
		.name = "smallfiles",
		.summary = "mail spools, maildirs, news and web caches: many small files, fsync per file",
		.file_size_min_bytes = 500, /* Postmark's default range, 500..10,000 bytes, uniform */
		.file_size_max_bytes = 10000,
		.file_size_p50_bytes = 5250,
		.file_size_p90_bytes = 9050,
		.file_size_mean_bytes = 5250,
		.files_total = 1000000,  /* the 2003 seed: one million files */
		.files_per_dir = 1000,   /* the 2003 seed's faster layout: 1000 directories */
		.access = WORKLOAD_ACCESS_RANDOM,
		.io_mode = WORKLOAD_IO_BUFFERED,
		.io_size_bytes = 4 * KiB,
		.sync_heavy = true,
	},
	{
		.name = "source-tree",
		.summary = "build servers and checkouts: trees of small source files read whole, objects written",
		.file_size_min_bytes = 0,
		.file_size_max_bytes = 4 * MiB,
		.file_size_p50_bytes = 5 * KiB,
		.file_size_p90_bytes = 40 * KiB,
		.file_size_mean_bytes = 16 * KiB,
		.files_total = 100000,
		.files_per_dir = 5,
		.access = WORKLOAD_ACCESS_MIXED,
		.io_mode = WORKLOAD_IO_BUFFERED,
		.io_size_bytes = 16 * KiB,
		.sync_heavy = false,
	},
	{
		.name = "database",
		.summary = "databases: few large files, random page-sized I/O, fsync at every commit",
		.file_size_min_bytes = 8 * KiB,
		.file_size_max_bytes = 1 * GiB,
		.file_size_p50_bytes = 64 * MiB,
		.file_size_p90_bytes = 1 * GiB,
		.file_size_mean_bytes = 256 * MiB,
		.files_total = 1000,
		.files_per_dir = 1000,
		.access = WORKLOAD_ACCESS_RANDOM,
		.io_mode = WORKLOAD_IO_BUFFERED,
		.io_size_bytes = 8 * KiB,
		.sync_heavy = true,
	},
	{
		.name = "largefiles",
		.summary = "media, backups, VM and disk images: large files streamed in large requests",
		.file_size_min_bytes = 1 * MiB,
		.file_size_max_bytes = 64 * GiB,
		.file_size_p50_bytes = 64 * MiB,
		.file_size_p90_bytes = 4 * GiB,
		.file_size_mean_bytes = 1 * GiB,
		.files_total = 10000,
		.files_per_dir = 100,
		.access = WORKLOAD_ACCESS_SEQUENTIAL,
		.io_mode = WORKLOAD_IO_BUFFERED,
		.io_size_bytes = 1 * MiB,
		.sync_heavy = false,
	},
	{
		.name = "general",
		.summary = "a general-purpose server filesystem (/srv, /home, /var): the tools' own defaults",
		.file_size_min_bytes = 0,
		.file_size_max_bytes = 1 * GiB,
		.file_size_p50_bytes = 4 * KiB,
		.file_size_p90_bytes = 32 * KiB,
		.file_size_mean_bytes = 16 * KiB,
		.files_total = 1000000,
		.files_per_dir = 16,
		.access = WORKLOAD_ACCESS_MIXED,
		.io_mode = WORKLOAD_IO_BUFFERED,
		.io_size_bytes = 4 * KiB,
		.sync_heavy = false,
	},
};
const size_t workload_preset_count = sizeof(workload_presets) / sizeof(workload_presets[0]);

const struct workload_preset *workload_preset_find(const char *name)
{
	size_t i;

	if (!name)
		return NULL;
	for (i = 0; i < workload_preset_count; i++)
		if (strcmp(workload_presets[i].name, name) == 0)
			return &workload_presets[i];
	return NULL;
}

/* The enums' names, as the flags take them and the facts record them; UNSET has none. */
static const char *const access_names[] = {
	[WORKLOAD_ACCESS_RANDOM] = "random",
	[WORKLOAD_ACCESS_SEQUENTIAL] = "sequential",
	[WORKLOAD_ACCESS_MIXED] = "mixed",
};
static const char *const io_mode_names[] = {
	[WORKLOAD_IO_DIRECT] = "direct",
	[WORKLOAD_IO_BUFFERED] = "buffered",
	[WORKLOAD_IO_MMAP] = "mmap",
};
#define N_NAMES(names) (sizeof(names) / sizeof((names)[0]))

/* The value named `s` in a table of n names indexed by value; 0 (every enum's UNSET) when none. */
static unsigned value_named(const char *const *names, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (names[i] && strcmp(s, names[i]) == 0)
			return (unsigned)i;
	return 0;
}

const char *workload_access_name(enum workload_access a)
{
	return (size_t)a < N_NAMES(access_names) ? access_names[a] : NULL;
}

const char *workload_io_mode_name(enum workload_io_mode m)
{
	return (size_t)m < N_NAMES(io_mode_names) ? io_mode_names[m] : NULL;
}

static void preset_names(char *buf, size_t len)
{
	size_t i, used = 0;

	buf[0] = '\0';
	for (i = 0; i < workload_preset_count && used < len; i++) {
		const char *sep = i == 0 ? "" : i + 1 == workload_preset_count ? " or " : ", ";
		int n = snprintf(buf + used, len - used, "%s%s", sep, workload_presets[i].name);

		if (n < 0)
			break;
		used += (size_t)n;
	}
}

int workload_spec_set_preset(struct workload_spec *w, const char *name, struct fst_error *err)
{
	char names[128];

	if (!workload_preset_find(name)) {
		preset_names(names, sizeof(names));
		return fst_error_set(err, FST_EXIT_USAGE, "--workload %s: unknown workload; choose %s",
				     name, names);
	}
	w->preset = name;
	return FST_EXIT_OK;
}

/* Largest size or count a flag accepts: beyond any filesystem Linux mounts today. */
#define WORKLOAD_SIZE_MAX (1ULL << 60)

int workload_spec_set_file_size(struct workload_spec *w, const char *s, struct fst_error *err)
{
	const char *dash = strchr(s, '-');
	char min_text[64];
	uint64_t lo, hi;
	size_t n;

	n = dash ? (size_t)(dash - s) : strlen(s);
	if (n >= sizeof(min_text))
		goto bad;
	memcpy(min_text, s, n);
	min_text[n] = '\0';
	if (!units_parse_size(min_text, &lo))
		goto bad;
	hi = lo;
	if (dash && !units_parse_size(dash + 1, &hi))
		goto bad;
	if (hi > WORKLOAD_SIZE_MAX)
		return fst_error_set(err, FST_EXIT_USAGE, "--file-size %s: too large", s);
	if (lo > hi)
		return fst_error_set(err, FST_EXIT_USAGE,
				     "--file-size %s: the minimum is larger than the maximum; give MIN-MAX, "
				     "e.g. 1k-64k", s);
	w->has_file_size = true;
	w->file_size_min_bytes = lo;
	w->file_size_max_bytes = hi;
	return FST_EXIT_OK;
bad:
	return fst_error_set(err, FST_EXIT_USAGE,
			     "--file-size %s: not a size range; give MIN-MAX in bytes with an optional "
			     "k, M or G suffix, e.g. 500-10000 or 1k-64k", s);
}

/* A plain decimal count (no suffix: "1M" would be ambiguous between 10^6 and 2^20). */
static bool parse_count(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || !isdigit((unsigned char)*s))
		return false;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v > WORKLOAD_SIZE_MAX)
		return false;
	*out = v;
	return true;
}

/* A count flag: `*out` and `*has` set, or a usage error that says what to count and shows an example. */
static int set_count(const char *flag, const char *s, uint64_t *out, bool *has, const char *what,
		     const char *example, struct fst_error *err)
{
	if (!parse_count(s, out) || *out == 0)
		return fst_error_set(err, FST_EXIT_USAGE,
				     "%s %s: give the number of %s as a whole number of at least 1, e.g. %s", flag, s,
				     what, example);
	*has = true;
	return FST_EXIT_OK;
}

int workload_spec_set_files(struct workload_spec *w, const char *s, struct fst_error *err)
{
	return set_count("--files", s, &w->files_total, &w->has_files, "files", "1000000", err);
}

int workload_spec_set_files_per_dir(struct workload_spec *w, const char *s, struct fst_error *err)
{
	return set_count("--files-per-dir", s, &w->files_per_dir, &w->has_files_per_dir, "files in a directory",
			 "1000", err);
}

int workload_spec_set_access(struct workload_spec *w, const char *s, struct fst_error *err)
{
	enum workload_access a = value_named(access_names, N_NAMES(access_names), s);

	if (a == WORKLOAD_ACCESS_UNSET)
		return fst_error_set(err, FST_EXIT_USAGE, "--access %s: choose random, sequential or mixed", s);
	w->access = a;
	return FST_EXIT_OK;
}

/* The smallest logical sector: an I/O size must be usable for direct I/O by the benchmarks. */
#define WORKLOAD_IO_ALIGN 512
#define WORKLOAD_IO_SIZE_MAX (1ULL << 30)

int workload_spec_set_io_size(struct workload_spec *w, const char *s, struct fst_error *err)
{
	uint64_t v;

	if (!units_parse_size(s, &v))
		return fst_error_set(err, FST_EXIT_USAGE,
				     "--io-size %s: not a size; give bytes with an optional k or M suffix, "
				     "e.g. 8k", s);
	if (v == 0 || v % WORKLOAD_IO_ALIGN || v > WORKLOAD_IO_SIZE_MAX)
		return fst_error_set(err, FST_EXIT_USAGE,
				     "--io-size %s: must be a multiple of 512 bytes between 512 and 1G "
				     "(the benchmarks use it for direct I/O), e.g. 1k, 8k or 16k", s);
	w->has_io_size = true;
	w->io_size_bytes = v;
	return FST_EXIT_OK;
}

int workload_spec_set_io_mode(struct workload_spec *w, const char *s, struct fst_error *err)
{
	enum workload_io_mode m = value_named(io_mode_names, N_NAMES(io_mode_names), s);

	if (m == WORKLOAD_IO_UNSET)
		return fst_error_set(err, FST_EXIT_USAGE, "--io-mode %s: choose direct, buffered or mmap", s);
	w->io_mode = m;
	return FST_EXIT_OK;
}

int workload_spec_set_sample_time(struct workload_spec *w, const char *s, struct fst_error *err)
{
	double v;

	if (!units_parse_seconds(s, &v) || v <= 0 || v > WORKLOAD_OBSERVE_MAX_S)
		return fst_error_set(err, FST_EXIT_USAGE,
				     "--sample-time %s: give a duration above 0 and at most a day, e.g. "
				     "60 or 10m", s);
	w->sample_time_s = v;
	return FST_EXIT_OK;
}

int workload_spec_set_observe(struct workload_spec *w, const char *s, struct fst_error *err)
{
	double v;

	if (!units_parse_seconds(s, &v) || v < 0.1 || v > WORKLOAD_OBSERVE_MAX_S)
		return fst_error_set(err, FST_EXIT_USAGE,
				     "--observe %s: give a duration from 0.1 s to a day, e.g. 30 or 5m", s);
	w->observe_s = v;
	return FST_EXIT_OK;
}

static void set_u64(struct facts *f, const char *key, uint64_t v, const char *source)
{
	facts_set_int(f, key, (long long)v, source);
}

bool workload_spec_is_said(const struct workload_spec *w)
{
	return w->preset || w->has_file_size || w->has_files || w->has_files_per_dir ||
	       w->access != WORKLOAD_ACCESS_UNSET || w->has_io_size || w->io_mode != WORKLOAD_IO_UNSET ||
	       w->sync_heavy >= 0 || w->sample_dir || w->observe_s > 0;
}

void workload_spec_apply_preset(const struct workload_spec *w, struct facts *f)
{
	const struct workload_preset *p = workload_preset_find(w->preset);
	const char *src = "preset";

	if (!p) {
		p = workload_preset_find("general");
		src = "default";
	}
	if (!p) /* general is always in the table; this keeps the compiler's null analysis content */
		return;
	facts_set_string(f, "workload.profile", p->name, src);
	facts_set_string(f, "workload.io_mode", workload_io_mode_name(p->io_mode), src);
	facts_set_string(f, "workload.access", workload_access_name(p->access), src);
	set_u64(f, "workload.io_size_bytes", p->io_size_bytes, src);
	facts_set_bool(f, "workload.sync_heavy", p->sync_heavy, src);
	set_u64(f, "workload.file_size_min_bytes", p->file_size_min_bytes, src);
	set_u64(f, "workload.file_size_max_bytes", p->file_size_max_bytes, src);
	set_u64(f, "workload.file_size_p50_bytes", p->file_size_p50_bytes, src);
	set_u64(f, "workload.file_size_p90_bytes", p->file_size_p90_bytes, src);
	set_u64(f, "workload.file_size_mean_bytes", p->file_size_mean_bytes, src);
	set_u64(f, "workload.files_total", p->files_total, src);
	set_u64(f, "workload.bytes_total", p->files_total * p->file_size_mean_bytes, src);
	set_u64(f, "workload.files_per_dir", p->files_per_dir, src);
}

/* The value of the nearest rank of q in a uniform range [lo, hi] of integers. */
static uint64_t uniform_quantile(uint64_t lo, uint64_t hi, unsigned pct)
{
	return lo + (uint64_t)((double)(hi - lo) * pct / 100.0 + 0.5);
}

void workload_spec_apply_overrides(const struct workload_spec *w, struct facts *f)
{
	bool recompute_total = false;
	long long files, mean;

	if (w->has_file_size) {
		uint64_t lo = w->file_size_min_bytes, hi = w->file_size_max_bytes;

		set_u64(f, "workload.file_size_min_bytes", lo, "user");
		set_u64(f, "workload.file_size_max_bytes", hi, "user");
		set_u64(f, "workload.file_size_p50_bytes", uniform_quantile(lo, hi, 50), "user");
		set_u64(f, "workload.file_size_p90_bytes", uniform_quantile(lo, hi, 90), "user");
		set_u64(f, "workload.file_size_mean_bytes", uniform_quantile(lo, hi, 50), "user");
		recompute_total = true;
	}
	if (w->has_files) {
		set_u64(f, "workload.files_total", w->files_total, "user");
		recompute_total = true;
	}
	if (w->has_files_per_dir) {
		set_u64(f, "workload.files_per_dir", w->files_per_dir, "user");
		/* A sample's spread described another layout than the one the user now states. */
		facts_remove(f, "workload.files_per_dir_p90");
		facts_remove(f, "workload.files_per_dir_max");
	}
	if (w->access != WORKLOAD_ACCESS_UNSET)
		facts_set_string(f, "workload.access", workload_access_name(w->access), "user");
	if (w->has_io_size)
		set_u64(f, "workload.io_size_bytes", w->io_size_bytes, "user");
	if (w->io_mode != WORKLOAD_IO_UNSET)
		facts_set_string(f, "workload.io_mode", workload_io_mode_name(w->io_mode), "user");
	if (w->sync_heavy >= 0)
		facts_set_bool(f, "workload.sync_heavy", w->sync_heavy > 0, "user");
	if (recompute_total && facts_get_int(f, "workload.files_total", &files) &&
	    facts_get_int(f, "workload.file_size_mean_bytes", &mean))
		facts_set_int(f, "workload.bytes_total", files * mean, "user");
}
