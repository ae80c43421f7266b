/* The fio command line equivalent to each test: same file size, offsets, sizes, depth, engine and
 * direct flag, so an admin can check fstune against fio (tests/perf/compare-fio.sh does). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "probes/bench/bench_int.h"
#include "probes/bench/bench_prep.h"

/* Single-quotes `s` for a POSIX shell when it holds anything but safe characters; caller frees. */
static char *shell_quote(const char *s)
{
	size_t i, n = 0;
	char *out, *o;

	if (s[strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+=:,")] == '\0' && *s)
		return xstrdup(s);
	for (i = 0; s[i]; i++)
		n += s[i] == '\'' ? 4 : 1;
	out = o = xmalloc(n + 3);
	*o++ = '\'';
	for (i = 0; s[i]; i++) {
		if (s[i] == '\'') {
			memcpy(o, "'\\''", 4);
			o += 4;
		} else {
			*o++ = s[i];
		}
	}
	*o++ = '\'';
	*o = '\0';
	return out;
}

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
	q = shell_quote(file);
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
	if (d->is_write)
		/* fstune writes incompressible data, fresh in every 4 KiB block; fio's default reuses one
		 * buffer, scrambled per 512-byte sector, which a compressing device (zram, some SSDs and
		 * SANs) stores at a different cost: writes on ext4 on zram ran 2.1-2.3 times faster in
		 * fstune than in fio with its defaults, 1.2-1.4 with this */
		fprintf(out, " --refill_buffers");
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

int bench_fio_commands(const struct probe_target *t, const struct bench_config *cfg, FILE *out,
		       struct fst_error *err)
{
	struct bench_prep p;
	struct bench_result res;
	bool is_file_laid_out = false;
	size_t i;
	int r;

	r = bench_prepare(&p, t, cfg, &res, err);
	if (r == FST_EXIT_OK)
		r = bench_prepare_files(&p, err);
	if (r == FST_EXIT_OK) {
		for (i = 0; i < p.n; i++) {
			const struct bench_test_def *d = p.sel[i];

			if (p.ctx.is_raw_device && (d->is_write || d->needs_directory))
				continue;
			if (!bench_dio_allows(&p.ctx.dio, d->io_size)) {
				fprintf(out, "# %s: not run here (direct I/O needs %u-byte alignment)\n", d->name,
					p.ctx.dio.offset_align);
				continue;
			}
			print_one(out, &p, d);
			is_file_laid_out |= !p.ctx.is_raw_device && d->pattern != BENCH_PATTERN_APPEND;
		}
		if (is_file_laid_out) {
			/* fio leaves the file it laid out (the append job's is removed by --unlink=1) */
			char *file = xasprintf("%s/fstune-fio.dat", p.ctx.dir);
			char *q = shell_quote(file);

			fprintf(out, "# afterwards: remove the %llu-byte file fio laid out\nrm -f -- %s\n",
				(unsigned long long)p.ctx.span_bytes, q);
			free(q);
			free(file);
		}
	}
	bench_prep_free(&p);
	bench_result_free(&res);
	return r;
}
