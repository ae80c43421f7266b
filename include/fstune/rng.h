/* Pseudo-random numbers, deterministic from a seed: the same seed gives the same sequence on every
 * machine and in every release, because what they decide is seen (a benchmark's offsets and tree, a
 * workload sample's choice, a trial's tree and so its bytes). Never for anything secret. */
#ifndef FSTUNE_RNG_H
#define FSTUNE_RNG_H

#include <stddef.h>
#include <stdint.h>

/* xoshiro256**, seeded by splitmix64: the generator for anything new. */
struct fst_rng {
	uint64_t s[4];
};
void fst_rng_seed(struct fst_rng *r, uint64_t seed);
uint64_t fst_rng_next(struct fst_rng *r);
/* Uniform in [0, n), unbiased (Lemire). n > 0. */
uint64_t fst_rng_below(struct fst_rng *r, uint64_t n);
/* Fills `len` bytes (a multiple of 8) with incompressible data. */
void fst_rng_fill(struct fst_rng *r, void *buf, size_t len);

/* One step of splitmix64 on the 64-bit state *x (fst_rng_seed's seeder; a workload sample's
 * sequence). */
uint64_t fst_splitmix64(uint64_t *x);
/* One step of xorshift64* on *x, which must not be 0 (a trial's tree: its file sizes, and so the bytes
 * each trial reports, come from this sequence). */
uint64_t fst_xorshift64s(uint64_t *x);

#endif
