/* Small helpers shared by every test suite: checks that count failures, the shared corpus. */
#ifndef OSSA_TEST_SUPPORT_H
#define OSSA_TEST_SUPPORT_H

#include <stddef.h>
#include <stdio.h>

extern int ossa_test_failures;
extern int ossa_test_checks;

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        ossa_test_checks++;                                                                        \
        if (!(cond)) {                                                                             \
            ossa_test_failures++;                                                                  \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);               \
        }                                                                                          \
    } while (0)

/* CHECK with a printf-style explanation printed on failure. */
#define CHECKF(cond, ...)                                                                          \
    do {                                                                                           \
        ossa_test_checks++;                                                                        \
        if (!(cond)) {                                                                             \
            ossa_test_failures++;                                                                  \
            fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__, #cond);               \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
        }                                                                                          \
    } while (0)

#define CHECK_NEAR(a, b, tol)                                                                      \
    CHECKF(ossa_test_near((double)(a), (double)(b), (double)(tol)), "%.9g vs %.9g (tol %.3g)",     \
           (double)(a), (double)(b), (double)(tol))

int ossa_test_near(double a, double b, double tol);

/* Prints "<suite>: N checks, M failed" and returns the process exit code. */
int ossa_test_finish(const char *suite);

/* The shared corpus folder: $OSSA_SHARED, else the one configured at build time. */
const char *ossa_test_shared_dir(void);

/* Joins the shared folder and a relative path into a static buffer (valid until the next call). */
const char *ossa_test_shared_path(const char *relative);

/* Writes a whole file (a failed CHECK when it cannot). */
void ossa_test_write_file(const char *path, const void *data, size_t size);

/* Reads a whole file; returns NULL on failure. The caller frees the result. */
unsigned char *ossa_test_read_file(const char *path, size_t *size);

/* Runs `$OSSA_CLI ARGS` through the shell with stdout and stderr captured; returns its exit code
 * (-1 when it did not exit). *out and *err receive the whole outputs (NUL-terminated, the
 * caller frees them; NULL when unreadable); either pointer may be NULL. */
int ossa_test_run_cli(const char *args, char **out, char **err);

/* Base64 of n bytes (for data URIs) into out, which holds 4 * ((n + 2) / 3) + 1 chars. */
void ossa_test_base64(const unsigned char *in, size_t n, char *out);

/* A glTF document (JSON text, buffers as a data URI) of a root, its child node 1 and node 1's
 * child node 2, all at the origin at rest, no mesh, and one animation of node 1: LINEAR
 * translation keys t and rotation keys r at times 0, 1, 2. Writes at most cap chars into out
 * (2048 are enough) and returns out. */
char *ossa_test_two_track_gltf(const float t[3][3], const float r[3][4], char *out, size_t cap);

/* Calls fn(path, user) for every regular file under dir whose name ends with suffix, sorted. */
void ossa_test_walk(const char *dir, const char *suffix, void (*fn)(const char *path, void *user),
                    void *user);

/* An allocator (ossa_allocator's alloc/free with a `ossa_test_counting *` as user) that counts
 * calls and live blocks and fails the fail_at-th call (never when fail_at is 0). */
typedef struct ossa_test_counting {
    long calls, fail_at, live;
} ossa_test_counting;
void *ossa_test_counting_alloc(void *user, size_t size);
void ossa_test_counting_free(void *user, void *ptr);

#endif
