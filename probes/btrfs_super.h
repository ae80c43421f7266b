/* A pure, bounds-checked parser of the btrfs superblock (4 KiB at 64 KiB on each device; fields
 * little-endian), shared by the probe and the fuzzer. It never reads beyond `len` and never
 * allocates. */
#ifndef FSTUNE_PROBES_BTRFS_SUPER_H
#define FSTUNE_PROBES_BTRFS_SUPER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BTRFS_SUPER_OFFSET 65536 /* the primary copy, from the start of the device */
#define BTRFS_SUPER_SIZE 4096    /* bytes the parser needs */

enum btrfs_super_result {
	BTRFS_SUPER_OK = 0,    /* a sane superblock; every field of the info is set */
	BTRFS_SUPER_NOT_BTRFS, /* no btrfs magic */
	BTRFS_SUPER_DAMAGED,   /* magic but a field out of range, a truncated buffer or a bad checksum */
};

#define BTRFS_SUPER_MAX_FEATURES 24

struct btrfs_super_info {
	uint32_t sector_size;      /* sectorsize: the fs block size, bytes */
	uint32_t node_size;        /* nodesize: metadata b-tree node, bytes */
	uint32_t stripe_size;      /* stripesize, bytes */
	uint64_t total_bytes;      /* size of the whole filesystem (all devices), bytes */
	uint64_t bytes_used;       /* bytes allocated, as last committed */
	uint64_t num_devices;      /* devices of the filesystem */
	uint64_t generation;       /* transaction id of the last commit */
	uint16_t csum_type;        /* 0 crc32c, 1 xxhash64, 2 sha256, 3 blake2b */
	bool csum_verified;        /* false for checksum types this parser does not compute */
	char fsid[37];             /* the filesystem UUID ("xxxxxxxx-..."), as /sys/fs/btrfs names it */
	char label[257];           /* NUL-terminated; "" when unset */
	const char *features[BTRFS_SUPER_MAX_FEATURES]; /* static strings, /sys/fs/btrfs/features names */
	size_t n_features;
	char why[160];             /* for NOT_BTRFS and DAMAGED: what was wrong, one phrase */
};

/* The 16 bytes of a btrfs UUID as text, lower-case, as /sys/fs/btrfs names a filesystem. */
void btrfs_super_format_uuid(const unsigned char *u, char out[37]);

/* Parses `len` bytes holding the superblock (from BTRFS_SUPER_OFFSET of the device). */
enum btrfs_super_result btrfs_super_parse(const void *buf, size_t len, struct btrfs_super_info *out);

/* Names the feature bits of the incompat and compat_ro words (as the superblock or the
 * BTRFS_IOC_GET_FEATURES ioctl give them) into `out`, at most `max`; returns the count. */
size_t btrfs_super_feature_names(uint64_t incompat, uint64_t compat_ro, const char **out, size_t max);

#endif
