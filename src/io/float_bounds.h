/* Internal to src/io: the bounds of tightly packed float accessors with SSE2, for the load's pass
 * over every accessor (validate_accessors.c). */
#ifndef OSSA_IO_FLOAT_BOUNDS_H
#define OSSA_IO_FLOAT_BOUNDS_H

#include <stdint.h>

#if defined(__SSE2__)
#define OSSA_IO_PACKED_FLOAT_BOUNDS 1
/* The per-component bounds of count elements of n floats (n in 1-4, 9 or 16) stored one after
 * the other from p, into lo and hi; returns 0 when a value is not a finite number (then lo and hi
 * mean nothing). The same results as reading them one by one, but for the sign of a zero bound. */
int ossa_io_packed_float_bounds(const uint8_t *p, uint64_t count, uint32_t n, double *lo,
                                double *hi);
#endif

#endif
