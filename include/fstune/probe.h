/* Probes: each source of facts is one file under probes/ exporting one `struct probe_ops`. All probes
 * are listed, in order, in probes/registry.c. Probes fill facts and never print, draw or exit; a
 * failure is a fact (facts_set_unavailable) with a status and a reason. */
#ifndef FSTUNE_PROBE_H
#define FSTUNE_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "fstune/error.h"
#include "fstune/facts.h"

enum target_kind {
	TARGET_DIRECTORY, /* a directory: the filesystem holding it, and the device under that */
	TARGET_BLOCKDEV,  /* a block device node (or, under --sysroot, a sysfs block name) */
	TARGET_IMAGE,     /* a regular file holding a filesystem image: no device.* branch */
};

/* What TARGET resolved to. Strings are owned by the target; NULL when not known or not applicable. */
struct probe_target {
	char *arg;               /* as the user gave it */
	enum target_kind kind;
	char *path;              /* absolute path of the directory, device node or image */

	/* The mount: for a directory, the filesystem holding it; for a block device, where it is
	 * mounted (if it is). From /proc/self/mountinfo. */
	bool is_mounted;
	int mount_id;            /* mountinfo field 1 */
	char *mount_point;       /* field 5, unescaped */
	char *mount_root;        /* field 4: the root of the mount within its filesystem */
	char *mount_options;     /* field 6: per-mount options */
	char *mount_fstype;      /* after the separator */
	char *mount_source;      /* after the separator: "/dev/sda1", "tmpfs", "server:/export" */
	char *super_options;     /* superblock options */

	/* The block device holding the filesystem (a partition if that is what it is). */
	char *dev_name;          /* kernel name as in /sys/class/block ("sda1", "nvme0n1p2", "loop0") */
	char *dev_path;          /* "/dev/<dev_name>", or the node given */
	dev_t devno;             /* 0 when unknown */
	char *no_device_reason;  /* why dev_name is NULL: "tmpfs", "image file", "nfs4 (network)" */
};

/* Resolves TARGET (NULL: the current directory). Under --sysroot (path_is_sysroot()), "/dev/NAME"
 * and "NAME" go through DIR/sys/class/block/NAME (else sys/block, sys/dev/block: path.h) and paths through DIR/proc/self/mountinfo; nothing is
 * opened or stat-ed on the live host. Errors: FST_EXIT_USAGE for a missing path, a FIFO, a character
 * device, a socket; the message names the path and says what is accepted. */
int target_resolve(const char *arg, struct probe_target *t, struct fst_error *err);
void target_free(struct probe_target *t);

struct probe_ops {
	const char *name;   /* short, for FSTUNE_DEBUG=probes and the report ("sysfs", "ext2fs") */
	bool needs_root;    /* documentation and debug: the probe itself records needs_root facts */
	/* Fills facts. May read what earlier probes set (the registry's order says which). */
	void (*collect)(const struct probe_target *t, struct facts *f);
};

/* A mounted filesystem that has a block device as one of its members (a btrfs, a multi-device
 * bcachefs, or the filesystem on an md/dm device above it), as the kernel's member lists say. */
struct probe_membership {
	char *type;        /* "btrfs", "bcachefs", or the mounted holder's filesystem type */
	char *uuid;        /* the filesystem UUID its members are filed under; NULL via md/dm */
	char *mount_point; /* NULL when no mount of it is in this namespace's mountinfo */
	char **devices;    /* its member devices (via md/dm: the mounted holder's slaves), sorted */
	size_t n_devices;
	char *via;         /* through holders/: the nearest device above it that is mounted or a
			    * member itself (md0, dm-1); NULL when the kernel lists the device itself */
};

/* Whether the block device `name` (a kernel name) is a member of a mounted filesystem; fills `m`
 * (free it with probe_membership_free) when it is. Reads sysfs and mountinfo only (--sysroot aware);
 * this is the one answer the member probe, bench and the wizard share. */
bool probe_membership_find(const char *name, struct probe_membership *m);
void probe_membership_free(struct probe_membership *m);

/* Runs every registered probe in order on the target; sets "schema", "host.*" and the rest. */
void probe_all(const struct probe_target *t, struct facts *f);
/* The host and sysfs device probes alone (host.*, device.*): what the benchmarks judge their figures
 * by when no full probe ran (`fstune bench`). */
void probe_device_view(const struct probe_target *t, struct facts *f);

#endif
