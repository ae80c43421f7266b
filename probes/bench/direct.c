/* Direct I/O, decided honestly: statx(STATX_DIOALIGN) says whether O_DIRECT works on this file and with
 * which alignments (an offset alignment of 0 means it does not); a filesystem that does not answer gets
 * "unverified"; memory-backed storage (tmpfs, ramfs, zram, brd) gets "memory" whatever the flags. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "probes/bench/bench_int.h"

const char *bench_direct_name(enum bench_direct d)
{
	switch (d) {
	case BENCH_DIRECT_YES:
		return "yes";
	case BENCH_DIRECT_NO:
		return "no";
	case BENCH_DIRECT_UNVERIFIED:
		return "unverified";
	case BENCH_DIRECT_MEMORY:
		return "memory";
	}
	return "?";
}

/* `fd` was opened without O_DIRECT; the caller reopens it with O_DIRECT when out->is_direct. */
void bench_dio_probe(int fd, const char *path, bool is_memory, struct bench_dio *out)
{
	struct statx stx;
	long page = sysconf(_SC_PAGESIZE);

	memset(out, 0, sizeof *out);
	out->mem_align = page > 0 ? (uint32_t)page : 4096;
	out->offset_align = 1;
	if (statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &stx) == 0 && (stx.stx_mask & STATX_DIOALIGN)) {
		if (stx.stx_dio_offset_align == 0) {
			out->label = BENCH_DIRECT_NO;
			snprintf(out->reason, sizeof out->reason,
				 "statx: direct I/O is not supported on %s: buffered I/O (the page cache is measured "
				 "too)", path);
		} else {
			out->is_direct = true;
			out->label = BENCH_DIRECT_YES;
			out->mem_align = stx.stx_dio_mem_align > out->mem_align ? stx.stx_dio_mem_align
										 : out->mem_align;
			out->offset_align = stx.stx_dio_offset_align;
			snprintf(out->reason, sizeof out->reason,
				 "statx: direct I/O with %u-byte offsets and %u-byte buffers", out->offset_align,
				 stx.stx_dio_mem_align);
		}
	} else {
		/* No answer: try O_DIRECT with conservative alignments; it may still go through a cache. */
		int dfd = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC);

		if (dfd >= 0) {
			close(dfd);
			out->is_direct = true;
			out->label = BENCH_DIRECT_UNVERIFIED;
			out->offset_align = 4096;
			snprintf(out->reason, sizeof out->reason,
				 "the filesystem does not report direct-I/O support (statx STATX_DIOALIGN); O_DIRECT "
				 "opens, with 4096-byte alignment, unverified");
		} else {
			out->label = BENCH_DIRECT_UNVERIFIED;
			snprintf(out->reason, sizeof out->reason,
				 "the filesystem does not report direct-I/O support and O_DIRECT fails (%s): "
				 "buffered I/O", strerror(errno));
		}
	}
	if (is_memory) {
		out->label = BENCH_DIRECT_MEMORY;
		snprintf(out->reason, sizeof out->reason, "memory-backed storage: every result is RAM speed");
	}
}

bool bench_dio_allows(const struct bench_dio *d, uint32_t size)
{
	return !d->is_direct || (d->offset_align && size % d->offset_align == 0);
}
