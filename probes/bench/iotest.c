/* The run function shared by every block I/O test: pick the engine, check the alignment allows the size,
 * open the right file, run the driver, and keep the numbers only when no I/O failed. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/xalloc.h"
#include "fstune/debug.h"
#include "probes/bench/bench_int.h"
#include "probes/bench/run.h"

#define APPEND_FILE "append"

enum bench_engine_id bench_engine_for(const struct bench_config *cfg, const struct bench_test_def *def)
{
	static int uring_ok = -1;

	switch (cfg->engine) {
	case BENCH_ENGINE_NULL:
	case BENCH_ENGINE_IO_URING:
		return cfg->engine;
	case BENCH_ENGINE_PSYNC:
	case BENCH_ENGINE_PSYNC_THREADS:
		/* psync is one I/O at a time: deeper queues are one psync thread per slot */
		return def->queue_depth == 1 ? BENCH_ENGINE_PSYNC : BENCH_ENGINE_PSYNC_THREADS;
	case BENCH_ENGINE_AUTO:
		break;
	}
	if (def->queue_depth == 1)
		return BENCH_ENGINE_PSYNC;
	if (uring_ok < 0)
		uring_ok = bench_io_uring_available();
	return uring_ok ? BENCH_ENGINE_IO_URING : BENCH_ENGINE_PSYNC_THREADS;
}

static const char *verb(bool is_write)
{
	return is_write ? "write" : "read";
}

int bench_io_test_run(struct bench_ctx *ctx, const struct bench_test_def *def, struct facts *f)
{
	enum bench_engine_id engine = bench_engine_for(ctx->cfg, def);
	struct bench_stats st;
	struct bench_run_error rerr;
	char *k = xasprintf("bench.%s", def->name);
	int fd = ctx->data_fd, r, status = FST_EXIT_OK;
	uint64_t span = ctx->span_bytes;

	if (!bench_dio_allows(&ctx->dio, def->io_size)) {
		facts_set_unavailable(f, k, FACTS_NOT_APPLICABLE,
				      "direct I/O here needs %u-byte alignment, larger than this test's %u bytes",
				      ctx->dio.offset_align, def->io_size);
		free(k);
		return FST_EXIT_OK;
	}
	if (def->pattern == BENCH_PATTERN_APPEND)
		span = ctx->append_limit;
	if (def->pattern == BENCH_PATTERN_APPEND && engine != BENCH_ENGINE_NULL) {
		fd = bench_scratch_open(ctx, APPEND_FILE);
		if (fd < 0) {
			snprintf(ctx->errbuf, sizeof ctx->errbuf, "%s: cannot create its file: %s", def->name,
				 strerror(-fd));
			facts_set_unavailable(f, k, FACTS_FAILED, "%s", ctx->errbuf);
			free(k);
			return FST_EXIT_PARTIAL;
		}
	}

	r = bench_io_run(ctx, def, engine, fd, span, &st, &rerr);
	if (def->pattern == BENCH_PATTERN_APPEND && engine != BENCH_ENGINE_NULL) {
		close(fd);
		bench_scratch_unlink(ctx, APPEND_FILE);
	}
	if (r < 0) {
		snprintf(ctx->errbuf, sizeof ctx->errbuf, "%s: the %s engine could not start: %s", def->name,
			 bench_engine_name(engine), strerror(-r));
		facts_set_unavailable(f, k, FACTS_FAILED, "%s", ctx->errbuf);
		status = FST_EXIT_PARTIAL;
	} else if (rerr.cancel_sig) {
		facts_remove(f, k);
		status = 128 + rerr.cancel_sig;
	} else if (rerr.error) {
		/* no partial numbers: an interrupted test's rates would look like results */
		snprintf(ctx->errbuf, sizeof ctx->errbuf, "%s: %s at offset %llu failed: %s%s", def->name,
			 verb(rerr.is_write), (unsigned long long)rerr.offset, strerror(-rerr.error),
			 rerr.error == -ENOSPC ? " (the filesystem filled up during the run)" : "");
		facts_set_unavailable(f, k, FACTS_FAILED, "%s", ctx->errbuf);
		status = FST_EXIT_PARTIAL;
	} else {
		bench_results_store(ctx, def, engine, &st, f);
	}
	DBG(DEBUG_BENCH, "bench: %s: %llu I/Os in the window, status %d", def->name,
	    (unsigned long long)st.ios, status);
	free(k);
	return status;
}
