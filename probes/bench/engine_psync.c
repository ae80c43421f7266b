/* The psync engine: pread/pwrite (and fdatasync) performed inside queue(), one I/O at a time, as fio's
 * psync. The psync-threads engine is this engine run by one thread per queue slot (run.c). */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "lib/xalloc.h"
#include "probes/bench/bench_int.h"

struct psync {
	int fd;
	struct bench_io **done; /* completed since the last getevents */
	unsigned n_done, depth;
};

static int psync_init(struct bench_engine *e, const struct bench_engine_cfg *cfg)
{
	struct psync *p = xcalloc(1, sizeof *p);

	p->fd = cfg->fd;
	p->depth = cfg->depth ? cfg->depth : 1;
	p->done = xcalloc(p->depth, sizeof *p->done);
	e->priv = p;
	return 0;
}

/* Transfers all of `len` (a regular file may return short counts near EOF or on signals). */
static int64_t psync_rw(int fd, const struct bench_io *io)
{
	uint32_t done = 0;

	while (done < io->len) {
		ssize_t r = io->is_write ? pwrite(fd, (const char *)io->buf + done, io->len - done,
						  (off_t)(io->offset + done))
					 : pread(fd, (char *)io->buf + done, io->len - done,
						 (off_t)(io->offset + done));
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (r == 0)
			return io->is_write ? -EIO : (int64_t)done; /* EOF: a short read */
		done += (uint32_t)r;
	}
	if (io->sync_after && fdatasync(fd) < 0)
		return -errno;
	return done;
}

static int psync_queue(struct bench_engine *e, struct bench_io *io)
{
	struct psync *p = e->priv;

	io->result = psync_rw(p->fd, io);
	if (p->n_done < p->depth)
		p->done[p->n_done++] = io;
	return BENCH_Q_COMPLETED;
}

static int psync_getevents(struct bench_engine *e, unsigned min, struct bench_io **out, unsigned max)
{
	struct psync *p = e->priv;
	unsigned i, n = p->n_done < max ? p->n_done : max;

	for (i = 0; i < n; i++)
		out[i] = p->done[i];
	for (i = n; i < p->n_done; i++)
		p->done[i - n] = p->done[i];
	p->n_done -= n;
	return (int)n;
}

static void psync_cleanup(struct bench_engine *e)
{
	struct psync *p = e->priv;

	free(p->done);
	free(p);
}

const struct bench_engine_ops bench_engine_psync = {
	.name = "psync",
	.is_sync = true,
	.init = psync_init,
	.queue = psync_queue,
	.commit = bench_engine_commit_none,
	.getevents = psync_getevents,
	.cleanup = psync_cleanup,
};
