/* What the superblock parsers share: reading on-disk integers of either byte order from a byte
 * buffer (never through a cast, so alignment and host order do not matter), and the switch that lets
 * a fuzzer past a checksum. */
#ifndef FSTUNE_PROBES_ONDISK_H
#define FSTUNE_PROBES_ONDISK_H

#include <stdint.h>

static inline uint16_t be16(const unsigned char *p) { return (uint16_t)(p[0] << 8 | p[1]); }
static inline uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}
static inline uint64_t be64(const unsigned char *p)
{
	return (uint64_t)be32(p) << 32 | be32(p + 4);
}

static inline uint16_t le16(const unsigned char *p) { return (uint16_t)(p[1] << 8 | p[0]); }
static inline uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}
static inline uint64_t le64(const unsigned char *p)
{
	return (uint64_t)le32(p + 4) << 32 | le32(p);
}

/* A fuzzer cannot forge CRCs: in a fuzzing build a mismatch is ignored, so that what follows the
 * check is explored too. */
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
#define CRC_ENFORCED 0
#else
#define CRC_ENFORCED 1
#endif

#endif
