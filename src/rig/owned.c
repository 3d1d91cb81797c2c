#include "rig/owned.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void *default_alloc(void *user, size_t size) {
    (void)user;
    return malloc(size);
}

static void default_free(void *user, void *ptr) {
    (void)user;
    free(ptr);
}

ossa_allocator ossa_allocator_resolve(const ossa_allocator *allocator) {
    if (allocator && allocator->alloc && allocator->free) return *allocator;
    ossa_allocator standard = {default_alloc, default_free, NULL};
    return standard;
}

void *ossa_alloc_array(const ossa_allocator *allocator, size_t count, size_t size) {
    if (size != 0 && count > SIZE_MAX / size) return NULL;
    size_t bytes = count * size;
    return allocator->alloc(allocator->user, bytes ? bytes : 1);
}

void ossa_free(const ossa_allocator *allocator, void *ptr) {
    if (ptr) allocator->free(allocator->user, ptr);
}

void ossa_owned_init(ossa_owned *owned, const ossa_allocator *allocator) {
    memset(owned, 0, sizeof *owned);
    owned->allocator = ossa_allocator_resolve(allocator);
}

void *ossa_owned_alloc(ossa_owned *owned, size_t count, size_t size) {
    if (size != 0 && count > SIZE_MAX / size) return NULL;
    size_t bytes = count * size;
    if (bytes == 0) bytes = 1;
    if (owned->count == owned->capacity) {
        size_t capacity = owned->capacity ? 2 * owned->capacity : 16;
        void **blocks = owned->allocator.alloc(owned->allocator.user, capacity * sizeof *blocks);
        if (!blocks) return NULL;
        if (owned->count) memcpy(blocks, owned->blocks, owned->count * sizeof *blocks);
        if (owned->blocks) owned->allocator.free(owned->allocator.user, owned->blocks);
        owned->blocks = blocks;
        owned->capacity = capacity;
    }
    void *block = owned->allocator.alloc(owned->allocator.user, bytes);
    if (!block) return NULL;
    memset(block, 0, bytes);
    owned->blocks[owned->count++] = block;
    return block;
}

char *ossa_owned_strdup(ossa_owned *owned, const char *text, int *failed) {
    if (!text) return NULL;
    size_t n = strlen(text) + 1;
    char *copy = ossa_owned_alloc(owned, n, 1);
    if (!copy) {
        *failed = 1;
        return NULL;
    }
    memcpy(copy, text, n);
    return copy;
}

void ossa_owned_release(ossa_owned *owned) {
    for (size_t i = 0; i < owned->count; i++)
        owned->allocator.free(owned->allocator.user, owned->blocks[i]);
    if (owned->blocks) owned->allocator.free(owned->allocator.user, owned->blocks);
    owned->blocks = NULL;
    owned->count = owned->capacity = 0;
}
