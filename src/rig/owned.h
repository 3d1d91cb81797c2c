/* A list of allocations owned by one runtime object (rig, clip set), freed together.
 * Build-time only: nothing here runs per frame. */
#ifndef OSSA_OWNED_H
#define OSSA_OWNED_H

#include <stddef.h>

#include "ossa/document.h"

typedef struct ossa_owned {
    ossa_allocator allocator; /* callbacks filled with malloc/free when the caller gave none */
    void **blocks;
    size_t count, capacity;
} ossa_owned;

/* The caller's allocator when it has both callbacks, else malloc/free: what every allocation of
 * the library made at build time goes through. */
ossa_allocator ossa_allocator_resolve(const ossa_allocator *allocator);

/* count * size bytes (at least one) from a resolved allocator; NULL when out of memory or when
 * the product does not fit a size_t. */
void *ossa_alloc_array(const ossa_allocator *allocator, size_t count, size_t size);

/* Frees through a resolved allocator; NULL is allowed. */
void ossa_free(const ossa_allocator *allocator, void *ptr);

void ossa_owned_init(ossa_owned *owned, const ossa_allocator *allocator);

/* Zero-filled block of count * size bytes (at least one byte), or NULL when out of memory. */
void *ossa_owned_alloc(ossa_owned *owned, size_t count, size_t size);

/* Copy of a string (NULL stays NULL); sets *failed on out of memory. */
char *ossa_owned_strdup(ossa_owned *owned, const char *text, int *failed);

/* Frees every block and the list itself. */
void ossa_owned_release(ossa_owned *owned);

#endif
