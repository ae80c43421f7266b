/* The io_uring engine (liburing): reads and writes queued as SQEs and reaped as CQEs, with no SQPOLL,
 * no polling and no registered files or buffers, which is what fio's io_uring engine does by default,
 * so the CPU cost per I/O compares like with like. Measured at QD32 on a virtio disk (2 CPUs):
 * SQPOLL's poller tripled the CPU per I/O with fewer IOPS; registered buffers saved 7-8% of it and
 * no measurable IOPS (doc/bench-vs-fio.md). A write followed by fdatasync is a linked pair.
 * The ring is made, used and torn down by one thread (the run's only worker, see run.c). */
#include "config.h"

#include <errno.h>
#include <liburing.h>
#include <stdlib.h>

#include "lib/xalloc.h"
#include "probes/bench/bench_int.h"

/* user_data of the first half of a linked write+fdatasync pair: the I/O pointer with bit 0 set. */
#define LINK_HEAD_TAG 1u

struct uring {
	struct io_uring ring;
	int fd;
	unsigned queued;   /* SQEs prepared since the last submit */
	unsigned in_flight;/* I/Os handed to the kernel and not reaped */
};

bool bench_io_uring_available(void)
{
	struct io_uring ring;

	if (io_uring_queue_init(2, &ring, 0) < 0)
		return false;
	io_uring_queue_exit(&ring);
	return true;
}

/* The setup flags fio's engine uses (fio 3.33 asks for COOP_TASKRUN, SINGLE_ISSUER and
 * DEFER_TASKRUN: strace of its io_uring_setup): completions are posted when the submitting thread
 * asks for them rather than by interrupting it, which matters when they come from another CPU (a
 * loop device's worker, io-wq). Kernels older than 6.1 refuse the newer flags with EINVAL, so the
 * list falls back to what the kernel takes, ending with none. */
static const unsigned uring_setup_flags[] = {
	IORING_SETUP_COOP_TASKRUN | IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
	IORING_SETUP_COOP_TASKRUN,
	0,
};

static int uring_init(struct bench_engine *e, const struct bench_engine_cfg *cfg)
{
	struct uring *u = xcalloc(1, sizeof *u);
	unsigned entries = cfg->depth ? cfg->depth * 2 : 2; /* a fsync pair takes two SQEs */
	size_t k;
	int r = -EINVAL;

	for (k = 0; k < sizeof uring_setup_flags / sizeof uring_setup_flags[0] && r == -EINVAL; k++)
		r = io_uring_queue_init(entries, &u->ring, uring_setup_flags[k]);
	if (r < 0) {
		free(u);
		return r;
	}
	u->fd = cfg->fd;
	e->priv = u;
	return 0;
}

static int uring_queue(struct bench_engine *e, struct bench_io *io)
{
	struct uring *u = e->priv;
	struct io_uring_sqe *sqe = io_uring_get_sqe(&u->ring);

	if (!sqe)
		abort(); /* the ring has room for depth pairs and the driver never queues more */
	if (io->is_write)
		io_uring_prep_write(sqe, u->fd, io->buf, io->len, io->offset);
	else
		io_uring_prep_read(sqe, u->fd, io->buf, io->len, io->offset);
	io->pending = 0;
	if (io->sync_after) {
		struct io_uring_sqe *fs;

		io_uring_sqe_set_data64(sqe, (uint64_t)(uintptr_t)io | LINK_HEAD_TAG);
		io_uring_sqe_set_flags(sqe, IOSQE_IO_LINK);
		fs = io_uring_get_sqe(&u->ring);
		if (!fs)
			abort();
		io_uring_prep_fsync(fs, u->fd, IORING_FSYNC_DATASYNC);
		io_uring_sqe_set_data64(fs, (uint64_t)(uintptr_t)io);
		u->queued += 2;
	} else {
		io_uring_sqe_set_data64(sqe, (uint64_t)(uintptr_t)io);
		u->queued++;
	}
	u->in_flight++;
	return BENCH_Q_QUEUED;
}

static int uring_commit(struct bench_engine *e)
{
	struct uring *u = e->priv;
	int r;

	while (u->queued) {
		r = io_uring_submit(&u->ring);
		if (r < 0) {
			if (r == -EINTR || r == -EAGAIN)
				continue;
			return r;
		}
		u->queued -= (unsigned)r < u->queued ? (unsigned)r : u->queued;
	}
	return 0;
}

static int uring_getevents(struct bench_engine *e, unsigned min, struct bench_io **out, unsigned max)
{
	struct uring *u = e->priv;
	struct io_uring_cqe *cqe;
	unsigned got = 0;
	int r;

	while (got < max) {
		if (got >= min || !u->in_flight)
			r = io_uring_peek_cqe(&u->ring, &cqe);
		else
			r = io_uring_wait_cqe(&u->ring, &cqe);
		if (r == -EAGAIN)
			break;
		if (r == -EINTR)
			continue;
		if (r < 0)
			return r;
		uint64_t data = io_uring_cqe_get_data64(cqe);
		struct bench_io *io = (struct bench_io *)(uintptr_t)(data & ~(uint64_t)LINK_HEAD_TAG);
		int res = cqe->res;

		io_uring_cqe_seen(&u->ring, cqe);
		if (data & LINK_HEAD_TAG) {
			/* the write half: its error wins over the -ECANCELED the fdatasync then gets */
			if (res < 0)
				io->pending = res;
			else if ((uint32_t)res != io->len)
				io->pending = -EIO;
			continue;
		}
		if (io->pending)
			io->result = io->pending;
		else if (io->sync_after)
			io->result = res < 0 ? (int64_t)res : (int64_t)io->len;
		else
			io->result = res;
		u->in_flight--;
		out[got++] = io;
	}
	return (int)got;
}

static void uring_cleanup(struct bench_engine *e)
{
	struct uring *u = e->priv;

	io_uring_queue_exit(&u->ring);
	free(u);
}

const struct bench_engine_ops bench_engine_io_uring = {
	.name = "io_uring",
	.is_sync = false,
	.init = uring_init,
	.queue = uring_queue,
	.commit = uring_commit,
	.getevents = uring_getevents,
	.cleanup = uring_cleanup,
};
