/* Signs that reads of an unmounted device would not reach its media: blocks that were never written.
 * A new, thin or sparse device (a loop device over a sparse file, a thin LV, a trimmed SSD) answers
 * reads of unallocated blocks with zeros from the driver or the controller, at up to RAM speed, so
 * its read numbers say nothing about the disk. The benchmark looks at what it reads itself. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fstune/path.h"
#include "probes/bench/bench_int.h"

#define SAMPLES 64
#define SUSPECT_SHARE 0.5 /* our own line: half the span unwritten makes the read numbers doubtful */

static bool is_all_zero(const unsigned char *buf, size_t len)
{
	return buf[0] == 0 && memcmp(buf, buf + 1, len - 1) == 0;
}

/* Blocks sampled evenly over the span that read back all zeros, out of `*n` read. */
static unsigned zero_blocks(const struct bench_ctx *ctx, unsigned *n)
{
	size_t len = ctx->dio.offset_align > 4096 ? ctx->dio.offset_align : 4096;
	size_t align = ctx->dio.mem_align > 4096 ? ctx->dio.mem_align : 4096;
	unsigned char *buf = bench_aligned_alloc(align, len);
	unsigned zeros = 0, i;

	*n = 0;
	for (i = 0; i < SAMPLES; i++) {
		uint64_t off = ctx->span_bytes / SAMPLES * i;

		off -= off % len;
		if (pread(ctx->data_fd, buf, len, (off_t)off) != (ssize_t)len)
			continue;
		(*n)++;
		zeros += is_all_zero(buf, len);
	}
	free(buf);
	return zeros;
}

/* Bytes of [offset, offset + span) of a loop device's backing file that are holes; -1 when unknown. */
static int64_t loop_hole_bytes(const char *dev_name, uint64_t span, char *file, size_t file_len)
{
	char *backing = path_read_string("/sys/class/block/%s/loop/backing_file", dev_name);
	long long offset = 0;
	int64_t holes = 0, pos, end;
	int fd;

	if (!backing)
		return -1;
	backing[strcspn(backing, "\n")] = '\0';
	snprintf(file, file_len, "%s", backing);
	path_read_s64(&offset, "/sys/class/block/%s/loop/offset", dev_name);
	fd = open(backing, O_RDONLY | O_CLOEXEC);
	free(backing);
	if (fd < 0)
		return -1;
	end = offset + (int64_t)span;
	for (pos = offset; pos < end;) {
		off_t hole = lseek(fd, pos, SEEK_HOLE), data;

		if (hole < 0 || hole >= end)
			break;
		data = lseek(fd, hole, SEEK_DATA);
		if (data < 0 || data > end)
			data = end; /* ENXIO: a hole to the end of the file */
		holes += data - hole;
		pos = data;
	}
	close(fd);
	return holes;
}

void bench_unwritten_check(struct bench_ctx *ctx, const char *dev_name)
{
	char file[256] = "", loop_part[400] = "";
	unsigned n, zeros = zero_blocks(ctx, &n);
	int64_t holes = dev_name ? loop_hole_bytes(dev_name, ctx->span_bytes, file, sizeof file) : -1;
	double hole_share = holes > 0 && ctx->span_bytes ? (double)holes / (double)ctx->span_bytes : 0;

	ctx->unwritten_reason[0] = '\0';
	if (holes >= 0)
		snprintf(loop_part, sizeof loop_part, "; %.0f%% of the span is holes in the loop device's backing file %s",
			 hole_share * 100, file);
	if ((n && zeros >= n * SUSPECT_SHARE) || hole_share >= SUSPECT_SHARE)
		snprintf(ctx->unwritten_reason, sizeof ctx->unwritten_reason,
			 "%u of %u blocks sampled across the span read back all zeros%s: reads of never-written blocks "
			 "of a new, thin or sparse device may be answered without touching the media. For a real "
			 "number, measure a filesystem on it that holds data, or, only if the device holds nothing, "
			 "write it over the span first (e.g. dd if=/dev/urandom of=DEVICE bs=1M oflag=direct, which "
			 "destroys its data)", zeros, n, loop_part);
}
