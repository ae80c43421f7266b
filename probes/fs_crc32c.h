/* CRC-32C (Castagnoli), the checksum of XFS v5 and btrfs superblocks, for the superblock parsers. */
#ifndef FSTUNE_PROBES_FS_CRC32C_H
#define FSTUNE_PROBES_FS_CRC32C_H

#include <stddef.h>
#include <stdint.h>

/* Continues a CRC-32C over `len` bytes from `crc` (start with 0xffffffff). No final inversion, so
 * calls chain; the caller inverts at the end as the filesystem's format says. */
uint32_t fs_crc32c(uint32_t crc, const void *buf, size_t len);

#endif
