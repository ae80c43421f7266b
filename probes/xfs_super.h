/* A pure, bounds-checked parser of the XFS primary superblock (sector 0 of the data device; all
 * fields big-endian), so that the probe and the fuzzer share exactly the same code. It never reads
 * beyond `len` and never allocates. */
#ifndef FSTUNE_PROBES_XFS_SUPER_H
#define FSTUNE_PROBES_XFS_SUPER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bytes a caller should offer: the largest XFS sector, over which a v5 superblock is checksummed. */
#define XFS_SUPER_READ_SIZE 32768

enum xfs_super_result {
	XFS_SUPER_OK = 0,  /* a sane superblock; every field of the info is set */
	XFS_SUPER_NOT_XFS, /* no XFS magic: another filesystem or none */
	XFS_SUPER_DAMAGED, /* XFS magic but a field out of range, a truncated buffer or a bad checksum */
};

#define XFS_SUPER_MAX_FEATURES 24

struct xfs_super_info {
	unsigned version;           /* 4 or 5 (v5 = CRC-enabled) */
	uint32_t block_size;        /* bytes */
	uint32_t sector_size;       /* bytes */
	uint32_t inode_size;        /* bytes */
	uint32_t ag_count;
	uint32_t ag_blocks;         /* blocks per allocation group */
	uint64_t data_blocks;       /* blocks of the data section */
	uint64_t size_bytes;        /* data section, bytes */
	uint64_t stripe_unit_bytes; /* sb_unit in bytes; 0 when no stripe is set */
	uint64_t stripe_width_bytes;/* sb_width in bytes; 0 when no stripe is set */
	uint64_t log_size_bytes;    /* internal or external log */
	bool log_is_external;       /* sb_logstart == 0 */
	uint64_t inodes_allocated;  /* sb_icount: inodes allocated so far (XFS allocates them on demand) */
	uint64_t inodes_free;       /* sb_ifree: free among those allocated */
	uint64_t free_blocks;       /* sb_fdblocks as last written (stale on a mounted filesystem) */
	unsigned imax_pct;          /* maximum % of space for inodes */
	char uuid[37];              /* "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" */
	char label[13];             /* sb_fname, NUL-terminated; "" when unset */
	const char *features[XFS_SUPER_MAX_FEATURES]; /* static strings, mkfs.xfs option names */
	size_t n_features;
	char why[160];              /* for NOT_XFS and DAMAGED: what was wrong, one phrase */
};

/* Parses `len` bytes starting at the superblock. A v5 superblock's checksum is verified over its
 * sector (sb_sectsize bytes), so pass XFS_SUPER_READ_SIZE bytes or the whole image if smaller. */
enum xfs_super_result xfs_super_parse(const void *buf, size_t len, struct xfs_super_info *out);

#endif
