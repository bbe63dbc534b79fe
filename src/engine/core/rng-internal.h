/* rng-internal.h — the generator's seeding and draws as inline functions,
 * for the engine's hot loops (a traffic source draws per packet): the same
 * arithmetic as fl_rng_seed(), fl_rng_next() and the others, which call
 * these, so a caller gets the same numbers either way. */
#ifndef FLITLAB_RNG_INTERNAL_H
#define FLITLAB_RNG_INTERNAL_H

#include <stdint.h>

#include "flitlab.h"

/* Seeds through splitmix64, so that nearby seeds give unrelated
 * streams. */
static inline void fl__rng_seed(FlRng *rng, uint64_t seed)
{
    for (int i = 0; i < 4; i++) {
        uint64_t z = (seed += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        rng->s[i] = z ^ (z >> 31);
    }
}

static inline uint64_t fl__rng_rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

/* xoshiro256** (Blackman & Vigna). */
static inline uint64_t fl__rng_next(FlRng *rng)
{
    uint64_t *s = rng->s;
    uint64_t result = fl__rng_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = fl__rng_rotl(s[3], 45);
    return result;
}

/* Uniform in [0, n), n >= 1: Lemire's multiply-and-reject, unbiased,
 * usually one multiplication. */
static inline uint32_t fl__rng_below(FlRng *rng, uint32_t n)
{
    uint64_t m = (uint64_t)(uint32_t)(fl__rng_next(rng) >> 32) * n;
    uint32_t low = (uint32_t)m;
    if (__builtin_expect(low < n, 0)) {
        uint32_t threshold = (uint32_t)(-n) % n;
        while (low < threshold) {
            m = (uint64_t)(uint32_t)(fl__rng_next(rng) >> 32) * n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

/* k * 2^-53 for the top 53 bits k of a draw (or k up to 2^53): exact, a
 * power of two being a mere exponent change. */
static inline double fl__rng_unit(uint64_t k)
{
    return (double)k * 0x1.0p-53;
}

/* Uniform in [0, 1). */
static inline double fl__rng_uniform(FlRng *rng)
{
    return fl__rng_unit(fl__rng_next(rng) >> 11);
}

#endif /* FLITLAB_RNG_INTERNAL_H */
