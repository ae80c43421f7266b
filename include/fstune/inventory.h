/* The inventory: what this machine (or a --sysroot capture) offers to examine, as lsblk lists it, with
 * whether and how each can be benchmarked. The wizard's Target screen renders it; nothing here draws. */
#ifndef FSTUNE_INVENTORY_H
#define FSTUNE_INVENTORY_H

#include <stdbool.h>
#include <stddef.h>

#include "fstune/bench.h"
#include "fstune/facts.h"

struct inventory_row {
	char *arg;              /* the TARGET to give session_from_target: a mount point, /dev/NAME or
				   NAME; NULL for the any-directory row */
	char *name;             /* "loop0", "sda1", "tmpfs"; NULL for the any-directory row */
	int depth;              /* 0 disk or filesystem, 1 partition */
	long long size;         /* bytes, -1 unknown */
	char *model;            /* NULL unknown */
	char *transport;
	int rotational;         /* 1, 0, -1 unknown */
	char *fstype;           /* NULL: none found */
	char *mount_point;      /* NULL: not mounted */
	enum bench_mode bench;  /* bench_can_run's answer with the default suite */
	char *why;              /* one line: bench_can_run's reason */
	bool is_any_directory;  /* the last row: any directory the user names */
	bool is_fs_pending;     /* the signature has not been read yet (inventory_idle) */
};

struct inventory {
	struct inventory_row *v;
	size_t n;
};

/* Lists block devices (from /sys/class/block, through path.h) and mounted filesystems (from
 * mountinfo), then the any-directory row. Never fails: what cannot be read is left unknown. */
void inventory_scan(struct inventory *t);
/* One row made from saved facts (--facts): nothing is probed or run. */
void inventory_from_facts(struct inventory *t, const struct facts *f, const char *file);
void inventory_free(struct inventory *t);
/* One step of the work left after a first listing: reads the signature of one unmounted device.
 * Returns false when nothing is left. */
bool inventory_idle(struct inventory *t);

#endif
