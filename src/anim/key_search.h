/* Key search in sorted key times (implemented in sample.c; tests call it directly). */
#ifndef OSSA_ANIM_KEY_SEARCH_H
#define OSSA_ANIM_KEY_SEARCH_H

#include <stdint.h>

/*
 * Finds the key interval of a time in sorted key times (count >= 1): the largest i with
 * times[i] <= time, clamped to [0, count - 2] (0 when count is 1).
 * hint: a previous result (or 0); only speed depends on it, never the result.
 */
uint32_t ossa_find_key(const float *times, uint32_t count, float time, uint32_t hint);

/* Same result as ossa_find_key, by binary search without a hint. */
uint32_t ossa_find_key_stateless(const float *times, uint32_t count, float time);

#endif
