/* The packed float bounds of the accessor pass (src/io/float_bounds.c): for every element size it
 * takes and every count up to 70 (each vector width's loop, its tail, and both together), the
 * per-component bounds equal a plain loop's, and a value that is not finite is reported wherever
 * it stands. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "io/float_bounds.h"
#include "test_support.h"

#if OSSA_IO_PACKED_FLOAT_BOUNDS
static uint64_t state = 0x243F6A8885A308D3u;

static float next_value(void) {
    state = state * 6364136223846793005u + 1442695040888963407u;
    return (float)((int32_t)(state >> 33) % 20001 - 10000) / 64.0f;
}

static void check_sizes(void) {
    static const uint32_t sizes[] = {1, 2, 3, 4, 9, 16};
    float values[70 * 16];
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        uint32_t n = sizes[s];
        for (uint64_t count = 1; count <= 70; count++) {
            for (uint64_t i = 0; i < count * n; i++)
                values[i] = next_value();
            double lo[16], hi[16], want_lo[16], want_hi[16];
            for (uint32_t c = 0; c < n; c++) {
                want_lo[c] = INFINITY;
                want_hi[c] = -INFINITY;
            }
            for (uint64_t i = 0; i < count * n; i++) {
                uint32_t c = (uint32_t)(i % n);
                if (values[i] < want_lo[c]) want_lo[c] = values[i];
                if (values[i] > want_hi[c]) want_hi[c] = values[i];
            }
            int finite = ossa_io_packed_float_bounds((const uint8_t *)values, count, n, lo, hi);
            CHECKF(finite, "n %u count %llu: reported not finite", n, (unsigned long long)count);
            int same = 1;
            for (uint32_t c = 0; c < n; c++)
                same &= lo[c] == want_lo[c] && hi[c] == want_hi[c];
            CHECKF(same, "n %u count %llu: bounds differ", n, (unsigned long long)count);
            /* one value that is not a finite number, at a position of its own each time */
            uint64_t at = (count * 7 + n) % (count * n);
            float kept = values[at];
            values[at] = count % 2 ? NAN : -INFINITY;
            CHECKF(!ossa_io_packed_float_bounds((const uint8_t *)values, count, n, lo, hi),
                   "n %u count %llu: value %llu not seen", n, (unsigned long long)count,
                   (unsigned long long)at);
            values[at] = kept;
        }
    }
}
#endif

int main(void) {
#if OSSA_IO_PACKED_FLOAT_BOUNDS
    check_sizes();
#else
    printf("float_bounds: no SSE2 here; the packed bounds are not built\n");
#endif
    return ossa_test_finish("io_float_bounds");
}
