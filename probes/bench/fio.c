/* The fio command line equivalent to each test: same file size, offsets, sizes, depth, engine and
 * direct flag, so an admin can check fstune against fio (tests/perf/compare-fio.sh does). */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"
#include "fstune/shell.h"
#include "probes/bench/bench_int.h"
#include "probes/bench/bench_prep.h"

static const char *fio_rw(const struct bench_test_def *d)
{
	switch (d->pattern) {
	case BENCH_PATTERN_RANDOM:
		return d->is_write ? "randwrite" : "randread";
	case BENCH_PATTERN_SEQUENTIAL:
	case BENCH_PATTERN_APPEND:
		return d->is_write ? "write" : "read";
	case BENCH_PATTERN_FILES:
		break;
	}
	return NULL;
}

static void print_one(FILE *out, const struct bench_prep *p, const struct bench_test_def *d)
{
	enum bench_engine_id e = bench_engine_for(&p->eff, d);
	const char *rw = fio_rw(d);
	char *file, *q;
	uint64_t size = p->ctx.span_bytes;

	if (!rw) {
		fprintf(out, "# %s: no fio equivalent\n", d->name);
		return;
	}
	if (p->ctx.is_raw_device)
		file = xstrdup(p->target->path);
	else if (d->pattern == BENCH_PATTERN_APPEND)
		file = xasprintf("%s/fstune-fio-append.dat", p->ctx.dir);
	else
		file = xasprintf("%s/fstune-fio.dat", p->ctx.dir);
	if (d->pattern == BENCH_PATTERN_APPEND)
		size = p->ctx.append_limit;
	q = fst_shell_quote(file);
	fprintf(out, "fio --name=%s --filename=%s --size=%llu --rw=%s --bs=%u --direct=%d", d->name, q,
		(unsigned long long)size, rw, d->io_size, p->ctx.dio.is_direct ? 1 : 0);
	switch (e) {
	case BENCH_ENGINE_IO_URING:
		/* fio's default form, the one an admin who doubts a number runs; tests/perf/compare-fio.sh
		 * also runs the batched form (--iodepth_batch_submit=QD ...), which refills as fstune does */
		fprintf(out, " --ioengine=io_uring --iodepth=%u", d->queue_depth);
		break;
	case BENCH_ENGINE_PSYNC_THREADS:
		fprintf(out, " --ioengine=psync --numjobs=%u --group_reporting", d->queue_depth);
		break;
	case BENCH_ENGINE_NULL:
		fprintf(out, " --ioengine=null --iodepth=%u", d->queue_depth);
		break;
	default:
		fprintf(out, " --ioengine=psync");
		break;
	}
	if (d->is_fsync)
		fprintf(out, " --fdatasync=1");
	if (d->pattern == BENCH_PATTERN_RANDOM)
		fprintf(out, " --norandommap --randrepeat=0");
	if (d->pattern == BENCH_PATTERN_APPEND)
		fprintf(out, " --fallocate=none --unlink=1");
	if (p->ctx.is_raw_device)
		fprintf(out, " --readonly");
	fprintf(out, " --time_based --runtime=%.0fms --ramp_time=%.0fms\n", p->eff.runtime_s * 1000,
		p->eff.warmup_s * 1000);
	free(q);
	free(file);
}

/* Appends one line (printf style) to `lines`. */
static void add_line(json_t *lines, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add_line(json_t *lines, const char *fmt, ...)
{
	char *line;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&line, fmt, ap);
	va_end(ap);
	if (n < 0) {
		fprintf(stderr, "fstune: out of memory\n");
		abort();
	}
	json_array_append_new(lines, json_string(line));
	free(line);
}

int bench_fio_commands(const struct probe_target *t, const struct bench_config *cfg, json_t **lines,
		       struct fst_error *err)
{
	struct bench_prep p;
	struct bench_result res;
	bool is_file_laid_out = false, is_write = false;
	size_t i;
	int r;

	*lines = json_array();
	r = bench_prepare(&p, t, cfg, &res, err);
	if (r == FST_EXIT_OK)
		r = bench_prepare_files(&p, err);
	if (r == FST_EXIT_OK) {
		for (i = 0; i < p.n; i++) {
			const struct bench_test_def *d = p.sel[i];
			char *line = NULL;
			size_t len = 0;
			FILE *m;

			if (p.ctx.is_raw_device && (d->is_write || d->needs_directory))
				continue;
			if (!bench_dio_allows(&p.ctx.dio, d->io_size)) {
				add_line(*lines, "# %s: not run here (direct I/O needs %u-byte alignment)", d->name,
					 p.ctx.dio.offset_align);
				continue;
			}
			m = open_memstream(&line, &len);
			if (!m) {
				fprintf(stderr, "fstune: out of memory\n");
				abort();
			}
			print_one(m, &p, d);
			fclose(m);
			line[strcspn(line, "\n")] = '\0';
			json_array_append_new(*lines, json_string(line));
			free(line);
			is_file_laid_out |= !p.ctx.is_raw_device && d->pattern != BENCH_PATTERN_APPEND;
			is_write |= d->is_write;
		}
		if (is_write)
			/* fstune writes random data with a fresh word in every 4 KiB block; fio's default
			 * buffer, random and scrambled per 512-byte sector on each write, is the same cost
			 * and nearly as incompressible (gzip: 92%), but a compressing device stores even
			 * that at another cost (ext4 on zram: fstune 2.1-2.3 times fio's default writes,
			 * 1.2-1.4 refilled). The default stays: refilling cost fio 0.3-0.6 ms of CPU per
			 * MiB against its default's 0.07-0.08 (fstune: 0.06-0.07), which halved its 1 MiB
			 * writes on a busy machine */
			add_line(*lines, "# on a compressing device (zram, some SSDs and SANs), add --refill_buffers to "
				 "the write lines: fio's default data compresses a little, fstune's not at all");
		if (is_file_laid_out) {
			/* fio leaves the file it laid out (the append job's is removed by --unlink=1) */
			char *file = xasprintf("%s/fstune-fio.dat", p.ctx.dir);
			char *q = fst_shell_quote(file);

			add_line(*lines, "# afterwards: remove the %llu-byte file fio laid out",
				 (unsigned long long)p.ctx.span_bytes);
			add_line(*lines, "rm -f -- %s", q);
			free(q);
			free(file);
		}
	}
	bench_prep_free(&p);
	bench_result_free(&res);
	return r;
}
