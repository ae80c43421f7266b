/* The driver of the block I/O tests: keeps an engine's queue full (each completion replaced at once),
 * times every I/O, excludes the warm-up, and hands the merged statistics to results.c. Engines that
 * cannot hold a queue themselves (psync-threads) run one worker thread per slot. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "lib/xalloc.h"
#include "fstune/clock.h"
#include "fstune/debug.h"
#include "fstune/rng.h"
#include "probes/bench/bench_int.h"
#include "probes/bench/run.h"

#define PROGRESS_NS 100000000ull /* progress at most every 100 ms */

struct job {
	const struct bench_test_def *def;
	struct bench_ctx *ctx;
	const struct bench_engine_ops *ops;
	int fd;
	unsigned depth;           /* per worker */
	unsigned workers;         /* threads; 1 unless psync-threads */
	uint64_t blocks;          /* span / io_size: the offsets a random or sequential I/O may take */
	uint64_t append_limit;    /* bytes: the append file is truncated when it reaches this */
	uint64_t warmup_ns;
	uint64_t runtime_ns;      /* the measured window; an adaptive run shortens it when it settles */
	uint64_t slice_ns;        /* width of one slice of the window */
	unsigned slices_max;      /* slices in the longest window (the cap, or a fixed --runtime) */
	bool is_adaptive;         /* stop once the rate's 95% interval is within the target */
	uint64_t t0;              /* real start, shared by the workers (a virtual clock starts at 0) */
	_Atomic uint64_t seq_next;/* the next sequential block, shared by the workers */
	atomic_bool halt;         /* stop issuing: cancelled, or another worker failed */
	atomic_int cancel_sig;    /* the signal (or SIGINT for a progress cancel) that stopped the run */
};

struct worker {
	struct job *job;
	unsigned index;
	struct bench_engine eng;
	struct bench_io *ios;
	struct bench_io **done;   /* queued since the last submission (asynchronous engines) */
	unsigned n_fresh;
	struct bench_io **reaped; /* the completions of one getevents */
	void *bufs;
	struct fst_rng rng;
	struct bench_stats st;    /* the measured window */
	unsigned slices_judged;   /* the adaptive check has seen this many complete slices */
	_Atomic uint64_t live;    /* completions so far, warm-up included: the live rate */
	atomic_bool is_finished;  /* the loop has ended (read by the monitoring thread) */
	uint64_t append_pos;      /* bytes */
	int error;                /* -errno of the first failed I/O */
	unsigned in_flight;       /* I/Os the engine still holds when the loop ended (only after an
				     engine error): their buffers must outlive the kernel's use */
	uint64_t error_offset;
	bool error_is_write;
	pthread_t thread;
};

static uint64_t worker_now(struct worker *w)
{
	return w->job->ops->now_ns ? w->job->ops->now_ns(&w->eng) : fst_clock_ns();
}

static void io_prepare(struct worker *w, struct bench_io *io)
{
	struct job *j = w->job;
	uint32_t len = j->def->io_size;

	io->len = len;
	io->is_write = j->def->is_write;
	io->sync_after = j->def->is_fsync;
	switch (j->def->pattern) {
	case BENCH_PATTERN_RANDOM:
		io->offset = fst_rng_below(&w->rng, j->blocks) * len;
		break;
	case BENCH_PATTERN_SEQUENTIAL:
		io->offset = (atomic_fetch_add(&j->seq_next, 1) % j->blocks) * len;
		break;
	case BENCH_PATTERN_APPEND:
		if (w->append_pos + len > j->append_limit) {
			/* rare: a long run on a small span; the truncate is outside every I/O's latency */
			if (ftruncate(j->fd, 0) < 0 && !w->error)
				w->error = -errno;
			w->append_pos = 0;
		}
		io->offset = w->append_pos;
		w->append_pos += len;
		break;
	case BENCH_PATTERN_FILES:
		abort();
	}
	if (io->is_write) {
		uint64_t *p = io->buf;
		size_t k;

		/* a fresh word in every 4 KiB block: no write repeats an earlier one (compression, dedup) */
		for (k = 0; k < len / 8; k += 512)
			p[k] = fst_rng_next(&w->rng);
	}
}

static void worker_record(struct worker *w, const struct bench_io *io)
{
	struct job *j = w->job;
	uint64_t warm_end = j->t0 + j->warmup_ns;
	uint64_t lat = io->done_ns - io->start_ns;
	unsigned slot;

	if (io->done_ns < warm_end || io->done_ns >= warm_end + j->runtime_ns)
		return;
	bench_hist_add(&w->st.hist, lat);
	w->st.ios++;
	w->st.bytes += (uint64_t)io->result;
	w->st.lat_sum_ns += (double)lat;
	slot = (unsigned)((io->done_ns - warm_end) / j->slice_ns);
	if (slot < BENCH_MAX_SLICES)
		w->st.intervals[slot]++;
	if (io->done_ns < w->st.first_done_ns)
		w->st.first_done_ns = io->done_ns;
	if (io->done_ns > w->st.last_done_ns)
		w->st.last_done_ns = io->done_ns;
}

/* Halts the job; the first signal (SIGINT for a progress cancel) is the one the run reports. */
static void job_cancel(struct job *j, int sig)
{
	int none = 0;

	atomic_compare_exchange_strong(&j->cancel_sig, &none, sig);
	atomic_store(&j->halt, true);
}

static bool job_should_stop(struct job *j)
{
	int sig = *j->ctx->stop;

	if (sig)
		job_cancel(j, sig);
	return atomic_load_explicit(&j->halt, memory_order_relaxed);
}

/* Hands progress to the caller's callback, if any; its refusal cancels the job. */
static void job_report_progress(struct job *j, double frac, const struct bench_live *live)
{
	const struct bench_config *cfg = j->ctx->cfg;

	if (cfg->progress && !cfg->progress(cfg->progress_arg, j->def->name, frac > 1 ? 1 : frac, live))
		job_cancel(j, SIGINT);
}

/* A percentile of the latencies so far, in µs; 0 while too few samples were taken for it. */
static double live_quantile_us(const struct bench_hist *h, double q)
{
	return h->count >= bench_hist_min_samples(q) ? bench_hist_quantile(h, q) / 1e3 : 0;
}

/* Runs on the worker's own thread, so its histogram is read without a race. */
static void worker_progress(struct worker *w, uint64_t *last_real, uint64_t *last_count)
{
	struct job *j = w->job;
	uint64_t real = fst_clock_ns(), vnow, total;
	struct bench_live live;
	double frac;

	if (real - *last_real < PROGRESS_NS)
		return;
	vnow = worker_now(w);
	total = j->warmup_ns + j->runtime_ns;
	frac = vnow > j->t0 ? (double)(vnow - j->t0) / (double)total : 0;
	live.rate = (double)(atomic_load_explicit(&w->live, memory_order_relaxed) - *last_count) * 1e9 /
		    (double)(real - *last_real);
	live.p50_us = live_quantile_us(&w->st.hist, 0.50);
	live.p99_us = live_quantile_us(&w->st.hist, 0.99);
	*last_real = real;
	*last_count = atomic_load_explicit(&w->live, memory_order_relaxed);
	job_report_progress(j, frac, &live);
}

/* Queues one I/O. A synchronous engine performs it here and is timestamped around it; an asynchronous
 * one is handed to the kernel by worker_commit, with every I/O queued since, in one submission. */
static void worker_queue(struct worker *w, struct bench_io *io)
{
	const struct bench_engine_ops *ops = w->job->ops;

	if (ops->is_sync)
		io->start_ns = worker_now(w);
	ops->queue(&w->eng, io);
	if (ops->is_sync)
		io->done_ns = worker_now(w);
	else
		w->done[w->n_fresh++] = io;
}

/* Submits what worker_queue queued, timestamped just before: the priming of the queue in one
 * submission, then each replacement on its own as soon as it is prepared (fio's default,
 * --iodepth_batch_submit=1). 0 or -errno. */
static int worker_commit(struct worker *w)
{
	uint64_t ts;
	unsigned k;

	if (w->job->ops->is_sync || !w->n_fresh)
		return 0;
	ts = worker_now(w);
	for (k = 0; k < w->n_fresh; k++)
		w->done[k]->start_ns = ts;
	w->n_fresh = 0;
	return w->job->ops->commit(&w->eng);
}

static void worker_fail(struct worker *w, const struct bench_io *io, int err)
{
	if (w->error)
		return;
	w->error = err;
	w->error_offset = io ? io->offset : 0;
	w->error_is_write = io ? io->is_write : false;
	atomic_store(&w->job->halt, true);
}

double bench_thread_run_delay_ns(void)
{
	FILE *fp = fopen("/proc/thread-self/schedstat", "re");
	unsigned long long on_cpu, waited;
	int n;

	if (!fp)
		return -1;
	n = fscanf(fp, "%llu %llu", &on_cpu, &waited);
	fclose(fp);
	return n == 2 ? (double)waited : -1;
}

/* The adaptive runtime (one worker): before the completions stamped `now` are recorded, every slice
 * that ended before `now` is complete. Once at least BENCH_MIN_SLICES are, and the 95% confidence
 * interval of the rate over them is within the target, the window ends at the last complete slice:
 * the completions of this batch and later ones fall outside it. Returns the new deadline, or 0. */
static uint64_t worker_adapt(struct worker *w, uint64_t now)
{
	struct job *j = w->job;
	uint64_t warm_end = j->t0 + j->warmup_ns;
	unsigned done;

	if (!j->is_adaptive || now <= warm_end)
		return 0;
	done = (unsigned)((now - warm_end) / j->slice_ns);
	if (done > j->slices_max)
		done = j->slices_max;
	if (done <= w->slices_judged || done < BENCH_MIN_SLICES)
		return 0;
	w->slices_judged = done;
	if (bench_ci95_pct(w->st.intervals, done) > BENCH_CI95_TARGET_PCT)
		return 0;
	j->runtime_ns = (uint64_t)done * j->slice_ns;
	return warm_end + j->runtime_ns;
}

/* The state of one worker's loop, shared by the steps it is split into. */
struct worker_pass {
	uint64_t deadline;   /* ns: a completion at or after it ends the measured window */
	unsigned in_flight;  /* I/Os the engine holds */
	bool is_stopping;    /* queue nothing more, drain what is in flight */
	int commit_err;      /* -errno of the failed submission of a replacement */
};

static void worker_prime(struct worker *w, struct worker_pass *p)
{
	unsigned i;

	for (i = 0; i < w->job->depth; i++) {
		io_prepare(w, &w->ios[i]);
		worker_queue(w, &w->ios[i]);
		p->in_flight++;
	}
}

/* One completion (done_ns set): checked, recorded, and replaced at once unless the loop is stopping. */
static void worker_complete(struct worker *w, struct worker_pass *p, struct bench_io *io)
{
	struct job *j = w->job;

	atomic_fetch_add_explicit(&w->live, 1, memory_order_relaxed);
	if (io->result != (int64_t)io->len) {
		worker_fail(w, io, io->result < 0 ? (int)io->result : -EIO);
		p->is_stopping = true;
		return;
	}
	bench_slices_add(&w->st.timeline, io->done_ns - j->t0);
	worker_record(w, io);
	if (io->done_ns >= p->deadline) {
		if (!p->is_stopping)
			w->st.stop_ns = io->done_ns;
		p->is_stopping = true;
	}
	if (p->is_stopping || job_should_stop(j))
		return;
	io_prepare(w, io);
	worker_queue(w, io);
	p->in_flight++;
	/* each replacement goes to the kernel at once, as fio's default does: here 4 KiB reads at QD32
	 * on the VM's disk ran 82k IOPS so, 67-70k when a reaped batch was submitted together (the
	 * device then works through them in bursts), at 5.2-5.6 us of CPU per I/O against 4.4 (fio: 6.3) */
	if (!j->ops->is_sync && (p->commit_err = worker_commit(w)) < 0)
		p->is_stopping = true;
}

/* Submits what is queued, reaps one batch of completions and handles each. False when an engine error
 * ends the loop at once. */
static bool worker_reap(struct worker *w, struct worker_pass *p)
{
	struct job *j = w->job;
	const struct bench_engine_ops *ops = j->ops;
	uint64_t now;
	int n, k, r;

	if ((r = p->commit_err ? p->commit_err : worker_commit(w)) < 0) {
		/* the batch may sit in the ring: keep the buffers, stop here */
		worker_fail(w, NULL, r);
		w->in_flight = p->in_flight;
		p->in_flight = 0;
		return false;
	}
	n = ops->getevents(&w->eng, 1, w->reaped, j->depth);
	if (n < 0) {
		worker_fail(w, NULL, n);
		return false;
	}
	now = ops->is_sync ? 0 : worker_now(w);
	if (n > 0 && !p->is_stopping) {
		uint64_t end = worker_adapt(w, ops->is_sync ? w->reaped[0]->done_ns : now);

		if (end)
			p->deadline = end;
	}
	for (k = 0; k < n; k++) {
		p->in_flight--;
		if (!ops->is_sync)
			w->reaped[k]->done_ns = now;
		worker_complete(w, p, w->reaped[k]);
	}
	return true;
}

/* After the loop: the CPU wait it saw (wait0: the schedstat wait before it), what it left in flight,
 * and its end. */
static void worker_finish(struct worker *w, unsigned in_flight, double wait0)
{
	double wait1 = bench_thread_run_delay_ns();

	w->st.cpu_wait_s = wait0 < 0 || wait1 < 0 ? -1 : (wait1 - wait0) / 1e9;
	w->in_flight += in_flight;
	w->st.all_ios = atomic_load(&w->live);
	if (!w->st.stop_ns)
		w->st.stop_ns = worker_now(w);
	atomic_store(&w->is_finished, true);
}

/* The loop of one worker: prime the queue, then replace each completion at once until the deadline;
 * finally drain whatever is still in flight, so no buffer is freed under the kernel. */
static void worker_loop(struct worker *w, bool report_progress)
{
	struct job *j = w->job;
	struct worker_pass p = {.deadline = j->t0 + j->warmup_ns + j->runtime_ns};
	uint64_t last_real = fst_clock_ns(), last_count = 0;
	double wait0 = bench_thread_run_delay_ns();

	worker_prime(w, &p);
	while (p.in_flight && worker_reap(w, &p)) {
		if (report_progress)
			worker_progress(w, &last_real, &last_count);
		if (job_should_stop(j))
			p.is_stopping = true;
	}
	worker_finish(w, p.in_flight, wait0);
}

static void *worker_thread(void *arg)
{
	worker_loop(arg, false);
	return NULL;
}

static int worker_setup(struct worker *w, struct job *j, unsigned index)
{
	struct bench_engine_cfg ec = {.fd = j->fd, .depth = j->depth};
	size_t align = j->ctx->dio.mem_align < 4096 ? 4096 : j->ctx->dio.mem_align;
	size_t stride = (j->def->io_size + align - 1) / align * align;
	unsigned i;
	int r;

	memset(w, 0, sizeof *w);
	atomic_init(&w->live, 0);
	atomic_init(&w->is_finished, false);
	w->job = j;
	w->index = index;
	w->eng.ops = j->ops;
	bench_stats_init(&w->st);
	fst_rng_seed(&w->rng, j->ctx->seed ^ ((uint64_t)index << 32) ^ (uint64_t)(uintptr_t)j->def->name);
	w->ios = xcalloc(j->depth, sizeof *w->ios);
	w->done = xcalloc(j->depth, sizeof *w->done);
	w->reaped = xcalloc(j->depth, sizeof *w->reaped);
	w->bufs = bench_aligned_alloc(align, stride * j->depth);
	fst_rng_fill(&w->rng, w->bufs, stride * j->depth);
	for (i = 0; i < j->depth; i++) {
		w->ios[i].buf = (char *)w->bufs + stride * i;
		w->ios[i].slot = i;
	}
	r = j->ops->init(&w->eng, &ec);
	if (r < 0)
		w->eng.priv = NULL;
	return r;
}

static void worker_teardown(struct worker *w)
{
	if (w->eng.priv)
		w->job->ops->cleanup(&w->eng);
	w->eng.priv = NULL;
	/* the loop drains every I/O; if the engine failed with I/Os still queued, the kernel may yet
	 * write into their buffers after the ring is gone: keep them (a deliberate, one-off leak) */
	if (w->in_flight)
		DBG(DEBUG_BENCH, "bench: %u I/Os not reaped after an engine error: buffers kept", w->in_flight);
	else
		free(w->bufs);
	free(w->ios);
	free(w->done);
	free(w->reaped);
}

static const struct bench_engine_ops *engine_ops(enum bench_engine_id id)
{
	switch (id) {
	case BENCH_ENGINE_IO_URING:
		return &bench_engine_io_uring;
	case BENCH_ENGINE_NULL:
		return &bench_engine_null;
	default:
		return &bench_engine_psync;
	}
}

/* User + system CPU time of the whole process, s: the workers, and the io-wq workers io_uring
 * starts for I/O it cannot issue inline, which are threads of this process too (a per-thread count,
 * as fio's usr_cpu + sys_cpu, misses them). */
static double process_cpu_s(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru) < 0)
		return 0;
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_usec / 1e6;
}

/* The CPUs' time so far from /proc/stat's "cpu" line, in ticks: all of it and the steal (time a
 * hypervisor ran something else on our virtual CPUs). False when it cannot be read. */
static bool cpu_ticks(unsigned long long *total, unsigned long long *steal)
{
	unsigned long long v[8] = {0};
	FILE *fp = fopen("/proc/stat", "re");
	int n;

	if (!fp)
		return false;
	n = fscanf(fp, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
		   &v[6], &v[7]);
	fclose(fp);
	if (n != 8)
		return false;
	*total = v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7];
	*steal = v[7];
	return true;
}

/* Runs the workers while the calling thread reports progress and watches for a stop. */
static void run_threads(struct job *j, struct worker *ws)
{
	uint64_t last_real = fst_clock_ns(), last_count = 0;
	unsigned i, started = 0;

	for (i = 0; i < j->workers; i++) {
		if (pthread_create(&ws[i].thread, NULL, worker_thread, &ws[i]) != 0) {
			worker_fail(&ws[i], NULL, -EAGAIN);
			break;
		}
		started++;
	}
	for (;;) {
		uint64_t total = 0, real;
		bool is_done = true;

		struct timespec ts = {0, 20000000};
		nanosleep(&ts, NULL);
		job_should_stop(j);
		for (i = 0; i < started; i++) {
			total += atomic_load_explicit(&ws[i].live, memory_order_relaxed);
			if (!atomic_load(&ws[i].is_finished))
				is_done = false;
		}
		real = fst_clock_ns();
		if (real - last_real >= PROGRESS_NS && j->ctx->cfg->progress) {
			double frac = (double)(real - j->t0) / (double)(j->warmup_ns + j->runtime_ns);
			/* the workers' histograms are theirs until they finish: no live percentiles here */
			struct bench_live live = {(double)(total - last_count) * 1e9 / (double)(real - last_real), 0, 0};

			job_report_progress(j, frac, &live);
			last_real = real;
			last_count = total;
		}
		if (is_done)
			break;
	}
	for (i = 0; i < started; i++)
		pthread_join(ws[i].thread, NULL);
}

/* The job of one test: its engine, workers, depth, span and measured window. */
static void job_init(struct job *j, struct bench_ctx *ctx, const struct bench_test_def *def,
		     enum bench_engine_id engine, int fd, uint64_t span)
{
	memset(j, 0, sizeof *j);
	j->def = def;
	j->ctx = ctx;
	j->ops = engine_ops(engine);
	j->fd = fd;
	j->workers = engine == BENCH_ENGINE_PSYNC_THREADS ? def->queue_depth : 1;
	j->depth = engine == BENCH_ENGINE_PSYNC_THREADS ? 1 : def->queue_depth;
	j->blocks = span / def->io_size;
	j->append_limit = span;
	j->warmup_ns = (uint64_t)llround(ctx->cfg->warmup_s * 1e9);
	j->runtime_ns = (uint64_t)llround(ctx->cfg->runtime_s * 1e9);
	/* the adaptive check runs in the only worker's loop; psync-threads' workers run the cap */
	j->is_adaptive = ctx->is_adaptive && j->workers == 1;
	j->slice_ns = ctx->is_adaptive ? BENCH_SLICE_NS : j->runtime_ns / BENCH_INTERVALS;
	if (!j->slice_ns)
		j->slice_ns = 1;
	j->slices_max = (unsigned)(j->runtime_ns / j->slice_ns);
	if (j->slices_max > BENCH_MAX_SLICES) {
		j->slices_max = BENCH_MAX_SLICES;
		j->slice_ns = j->runtime_ns / BENCH_MAX_SLICES;
	}
	atomic_init(&j->seq_next, 0);
	atomic_init(&j->halt, false);
	atomic_init(&j->cancel_sig, 0);
}

/* The process's CPU time and the CPUs' steal around a run. */
struct job_cpu {
	double s0, s1;                        /* process_cpu_s before and after */
	unsigned long long tick0, steal0, tick1, steal1;
	bool has_ticks;                       /* both /proc/stat reads worked and the ticks advanced */
};

/* Runs the workers, the only one on this thread, between the two CPU readings. */
static void job_run(struct job *j, struct worker *ws, uint64_t span, struct job_cpu *cpu)
{
	cpu->s0 = process_cpu_s();
	cpu->has_ticks = cpu_ticks(&cpu->tick0, &cpu->steal0);
	j->t0 = j->ops->now_ns ? 0 : fst_clock_ns();
	DBG(DEBUG_BENCH, "bench: %s: engine %s, %u worker(s) at depth %u, span %llu", j->def->name,
	    j->ops->name, j->workers, j->depth, (unsigned long long)span);
	if (j->workers == 1)
		worker_loop(&ws[0], true);
	else
		run_threads(j, ws);
	cpu->s1 = process_cpu_s();
	cpu->has_ticks = cpu->has_ticks && cpu_ticks(&cpu->tick1, &cpu->steal1) && cpu->tick1 > cpu->tick0 &&
			 cpu->steal1 >= cpu->steal0;
}

/* Merges the first n_ready workers' statistics into `out`, keeps the first error, and tears them
 * down. */
static void job_collect(const struct job *j, struct worker *ws, unsigned n_ready, const struct job_cpu *cpu,
			struct bench_stats *out, struct bench_run_error *rerr)
{
	unsigned i;

	bench_stats_init(out);
	out->runtime_ns = j->runtime_ns;
	out->n_intervals = (unsigned)(j->runtime_ns / j->slice_ns);
	if (out->n_intervals > BENCH_MAX_SLICES)
		out->n_intervals = BENCH_MAX_SLICES;
	out->warmup_ns = j->warmup_ns;
	out->t_start_ns = j->t0;
	out->workers = j->workers;
	out->depth = j->depth;
	out->cpu_s = cpu->s1 - cpu->s0;
	out->steal_share = cpu->has_ticks ? (double)(cpu->steal1 - cpu->steal0) / (double)(cpu->tick1 - cpu->tick0)
					  : 0;
	for (i = 0; i < n_ready; i++) {
		bench_stats_merge(out, &ws[i].st);
		if (ws[i].error && !rerr->error) {
			rerr->error = ws[i].error;
			rerr->offset = ws[i].error_offset;
			rerr->is_write = ws[i].error_is_write;
		}
		worker_teardown(&ws[i]);
	}
}

int bench_io_run(struct bench_ctx *ctx, const struct bench_test_def *def, enum bench_engine_id engine,
		 int fd, uint64_t span, struct bench_stats *out, struct bench_run_error *rerr)
{
	struct job j;
	struct worker *ws;
	struct job_cpu cpu = {0};
	unsigned i, n_ready = 0;
	int r = 0;

	memset(rerr, 0, sizeof *rerr);
	job_init(&j, ctx, def, engine, fd, span);
	if (!j.blocks)
		return -EINVAL;

	ws = xcalloc(j.workers, sizeof *ws);
	for (i = 0; i < j.workers; i++) {
		r = worker_setup(&ws[i], &j, i);
		if (r < 0)
			break;
		n_ready++;
	}
	if (r == 0)
		job_run(&j, ws, span, &cpu);
	job_collect(&j, ws, n_ready, &cpu, out, rerr);
	free(ws);
	rerr->cancel_sig = atomic_load(&j.cancel_sig);
	return r;
}
