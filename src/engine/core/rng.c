/* rng.c — xoshiro256** (Blackman & Vigna), seeded through splitmix64 so
 * that nearby seeds give unrelated streams: the functions of rng.h, whose
 * arithmetic is in rng-internal.h. */
#include "flitlab.h"
#include "rng-internal.h"

void fl_rng_seed(FlRng *rng, uint64_t seed)
{
    fl__rng_seed(rng, seed);
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
