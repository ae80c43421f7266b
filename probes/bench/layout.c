/* The layout of the data file: the whole span written once with incompressible data, made durable,
 * and this file's pages dropped from the page cache (only this file's: drop_caches is never used), so
 * reads start cold and read what was written. The writes go through the benchmarks' own engines,
 * several in flight where io_uring can hold them (a direct write of 4 MiB at a time, one after the
 * other, left the virtio disk here idle between writes: 0.8 s for 1 GiB against 0.4 s with 4 of 1 MiB
 * queued). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/xalloc.h"
#include "fstune/debug.h"
#include "probes/bench/bench_int.h"

#define CHUNK (1u << 20) /* bytes per write */
#define DEPTH 4          /* writes in flight with io_uring */
#define PROGRESS_NS 100000000ull

struct layout {
	struct bench_ctx *ctx;
	struct bench_engine eng;
	struct bench_io ios[DEPTH];
	struct bench_rng rng;
	unsigned depth, in_flight;
	uint64_t next, done;       /* bytes queued and bytes written */
	uint64_t t0, last_progress;
};

/* Queues the next chunk in `io` with a fresh word in each 4 KiB block (no block repeats another). */
static void queue_next(struct layout *l, struct bench_io *io)
{
	uint64_t left = l->ctx->span_bytes - l->next;
	size_t k;

	io->offset = l->next;
	io->len = left < CHUNK ? (uint32_t)left : CHUNK;
	io->is_write = true;
	io->sync_after = false;
	for (k = 0; k < io->len / 8; k += 512)
		((uint64_t *)io->buf)[k] = bench_rng_next(&l->rng);
	l->next += io->len;
	l->eng.ops->queue(&l->eng, io);
	l->in_flight++;
}

/* Progress as the writes complete; false when the caller of the run cancels it. */
static bool progress(struct layout *l)
{
	const struct bench_config *cfg = l->ctx->cfg;
	uint64_t now = bench_clock_ns();
	struct bench_live live = {0, 0, 0};

	if (!cfg->progress || now - l->last_progress < PROGRESS_NS)
		return true;
	l->last_progress = now;
	live.rate = (double)l->done / ((double)(now - l->t0) / 1e9);
	return cfg->progress(cfg->progress_arg, "layout", (double)l->done / (double)l->ctx->span_bytes, &live);
}

/* The writes until the span is written, an error, or a stop; then every write in flight is reaped
 * before its buffer can go. FST_EXIT_OK, FST_EXIT_PARTIAL (err set) or 128+n. */
static int write_span(struct layout *l, struct fst_error *err)
{
	struct bench_ctx *ctx = l->ctx;
	struct bench_io *done[DEPTH];
	uint64_t failed_at = 0;
	int status = FST_EXIT_OK, n, k, e;
	unsigned i;

	for (i = 0; i < l->depth && l->next < ctx->span_bytes; i++)
		queue_next(l, &l->ios[i]);
	e = l->eng.ops->commit(&l->eng);
	/* after an engine error the writes may sit with the kernel: not waited for (their buffers stay) */
	while (!e && l->in_flight) {
		n = l->eng.ops->getevents(&l->eng, 1, done, DEPTH);
		if (n < 0) {
			e = n;
			break;
		}
		for (k = 0; k < n; k++) {
			struct bench_io *io = done[k];

			l->in_flight--;
			if (io->result != (int64_t)io->len && !status) {
				failed_at = io->offset;
				status = fst_error_set(err, FST_EXIT_PARTIAL, "laying out the %llu-byte test file in %s "
						       "failed at offset %llu: %s", (unsigned long long)ctx->span_bytes,
						       ctx->dir, (unsigned long long)failed_at,
						       strerror(io->result < 0 ? (int)-io->result : EIO));
			}
			if (io->result > 0)
				l->done += (uint64_t)io->result;
			if (!status && *ctx->stop)
				status = 128 + *ctx->stop;
			if (!status && !progress(l))
				status = 128 + SIGINT;
			if (!status && l->next < ctx->span_bytes)
				queue_next(l, io);
		}
		if (!status)
			e = l->eng.ops->commit(&l->eng);
	}
	if (e && !status)
		status = fst_error_set(err, FST_EXIT_PARTIAL, "laying out the test file in %s: the %s engine failed: %s",
				       ctx->dir, l->eng.ops->name, strerror(-e));
	return status;
}

static int layout_write(struct bench_ctx *ctx, struct fst_error *err)
{
	size_t align = ctx->dio.mem_align < 4096 ? 4096 : ctx->dio.mem_align;
	bool is_uring = ctx->dio.is_direct && bench_io_uring_available();
	struct bench_engine_cfg ec = {.fd = ctx->data_fd, .depth = is_uring ? DEPTH : 1};
	struct layout l = {.ctx = ctx, .depth = ec.depth};
	char *bufs = bench_aligned_alloc(align, (size_t)CHUNK * DEPTH);
	int status, r;
	unsigned i;

	l.t0 = l.last_progress = bench_clock_ns();
	l.eng.ops = is_uring ? &bench_engine_io_uring : &bench_engine_psync;
	bench_rng_seed(&l.rng, ctx->seed);
	bench_rng_fill(&l.rng, bufs, (size_t)CHUNK * DEPTH);
	for (i = 0; i < DEPTH; i++)
		l.ios[i].buf = bufs + (size_t)CHUNK * i;
	if ((r = l.eng.ops->init(&l.eng, &ec)) < 0) {
		free(bufs);
		return fst_error_set(err, FST_EXIT_PARTIAL, "laying out the test file in %s: the %s engine could "
				     "not start: %s", ctx->dir, l.eng.ops->name, strerror(-r));
	}
	status = write_span(&l, err);
	/* an engine error may leave writes with the kernel: then their buffers stay (as run.c does) */
	l.eng.ops->cleanup(&l.eng);
	if (!l.in_flight)
		free(bufs);
	if (status == FST_EXIT_OK && fdatasync(ctx->data_fd) < 0)
		status = fst_error_set(err, FST_EXIT_PARTIAL, "laying out the test file in %s: fdatasync: %s",
				       ctx->dir, strerror(errno));
	if (status == FST_EXIT_OK)
		posix_fadvise(ctx->data_fd, 0, 0, POSIX_FADV_DONTNEED);
	ctx->layout_s = (double)(bench_clock_ns() - l.t0) / 1e9;
	DBG(DEBUG_BENCH, "bench: layout of %llu bytes in %.2f s, %u write(s) of %u bytes in flight with %s",
	    (unsigned long long)l.done, ctx->layout_s, l.depth, CHUNK, l.eng.ops->name);
	return status;
}

int bench_layout_ensure(struct bench_ctx *ctx, struct fst_error *err)
{
	int r;

	if (ctx->is_laid_out || ctx->is_raw_device)
		return FST_EXIT_OK;
	if (ctx->data_fd < 0 && (r = bench_data_open(ctx, err)) != FST_EXIT_OK)
		return r;
	r = layout_write(ctx, err);
	if (r == FST_EXIT_OK)
		ctx->is_laid_out = true;
	return r;
}
