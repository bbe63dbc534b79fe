/* rng.c — xoshiro256** (Blackman & Vigna, in rng-internal.h), seeded
 * through splitmix64 so that nearby seeds give unrelated streams. */
#include "flitlab.h"
#include "rng-internal.h"

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void fl_rng_seed(FlRng *rng, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        rng->s[i] = splitmix64(&seed);
}

uint64_t fl_rng_next(FlRng *rng)
{
    return fl__rng_next(rng);
}

uint32_t fl_rng_below(FlRng *rng, uint32_t n)
{
    return fl__rng_below(rng, n);
}

double fl_rng_uniform(FlRng *rng)
{
    return fl__rng_uniform(rng);
}
