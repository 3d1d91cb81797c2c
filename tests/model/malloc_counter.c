/* LD_PRELOAD shim: counts malloc, calloc, realloc and aligned allocations of a process and
 * prints "allocations: N" on stderr at exit. Used to show that examples/play.c allocates nothing
 * per frame (its count does not grow with the number of frames). */
#include <stddef.h>
#include <stdio.h>
#include <unistd.h>

void *__libc_malloc(size_t size);
void *__libc_calloc(size_t count, size_t size);
void *__libc_realloc(void *ptr, size_t size);
void *__libc_memalign(size_t alignment, size_t size);

static long allocations;

void *malloc(size_t size) {
    allocations++;
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    allocations++;
    return __libc_calloc(count, size);
}

void *realloc(void *ptr, size_t size) {
    allocations++;
    return __libc_realloc(ptr, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    allocations++;
    return __libc_memalign(alignment, size);
}

__attribute__((destructor)) static void report(void) {
    char line[64];
    int n = snprintf(line, sizeof line, "allocations: %ld\n", allocations);
    if (n > 0) (void)!write(2, line, (size_t)n);
}
