/* flitlab/rng.h — Random numbers.
 *
 * Part of the engine's public API: include "flitlab.h", which includes this.
 */
#ifndef FLITLAB_RNG_H
#define FLITLAB_RNG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A small, fast generator (xoshiro256**) that the caller owns, so every
 * random choice in the engine is reproducible from an explicit seed. */
typedef struct FlRng {
    uint64_t s[4];
} FlRng;

void fl_rng_seed(FlRng *rng, uint64_t seed);
uint64_t fl_rng_next(FlRng *rng);
/* Uniform integer in [0, n), n >= 1, without modulo bias. */
uint32_t fl_rng_below(FlRng *rng, uint32_t n);
/* Uniform double in [0, 1). */
double fl_rng_uniform(FlRng *rng);

#ifdef __cplusplus
}
#endif

#endif /* FLITLAB_RNG_H */
