/* CRC-32C, bitwise: a superblock is at most a few KiB, so a table would buy nothing but state. */
#include "probes/fs_crc32c.h"

uint32_t fs_crc32c(uint32_t crc, const void *buf, size_t len)
{
	const unsigned char *p = buf;

	while (len--) {
		crc ^= *p++;
		for (int k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0x82f63b78u & (0u - (crc & 1u)));
	}
	return crc;
}
