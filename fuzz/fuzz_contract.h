/* How the fuzz targets check API contracts: a broken one prints what broke and aborts, which
 * libFuzzer reports as a crash with the input that caused it. */
#ifndef OSSA_FUZZ_CONTRACT_H
#define OSSA_FUZZ_CONTRACT_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "ossa/result.h"

#define REQUIRE(cond, ...)                                                                         \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "fuzz: contract broken: %s: ", #cond);                                 \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

/* 1 when the n floats at v are all finite. */
static inline int all_finite(const float *v, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (!isfinite(v[i])) return 0;
    return 1;
}

/* A refusal: no object, and an error that agrees with the result and says something. */
static inline void check_refusal(const char *stage, ossa_result r, const ossa_error *error,
                                 const void *out) {
    REQUIRE(out == NULL, "%s: failed (%s) but returned an object", stage, ossa_result_name(r));
    REQUIRE(error->code == r, "%s: returned %d, error says %d", stage, (int)r, (int)error->code);
    REQUIRE(error->message[0] != '\0', "%s: error %s without a message", stage,
            ossa_result_name(r));
}

#endif
