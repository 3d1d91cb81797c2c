/* Shared by the meshopt suites: copies of glTF models whose buffer views are compressed with
 * libmeshoptimizer's encoders in the lossless modes (EXT_meshopt_compression, no filters). */
#ifndef OSSA_TEST_MESHOPT_PACK_H
#define OSSA_TEST_MESHOPT_PACK_H

#include <stddef.h>
#include <stdint.h>

#include "ossa/document.h"

/* How each buffer view of the copy is stored. */
enum { PACK_PLAIN = -1, PACK_ATTRIBUTES = 0, PACK_TRIANGLES = 1, PACK_INDICES = 2 };

typedef struct pack_result {
    uint8_t *glb; /* the copy as a GLB (malloc) */
    size_t glb_size;
    int *view_mode;      /* per buffer view: PACK_* (malloc) */
    uint32_t view_count; /* as in the original */
    uint32_t count[3];   /* views per mode */
} pack_result;

/* Compresses every view of the model at path that a lossless mode can hold: index views of
 * triangle lists with TRIANGLES (or INDICES when use_triangles is 0), other index views and
 * sparse indices with INDICES, everything else whose length is a multiple of 4 with ATTRIBUTES
 * (stride: the view's, else the element size of an accessor on it, else 4). The decoded views
 * live in a fallback buffer without data; the compressed streams and the views left plain in
 * the GLB BIN chunk. Returns 0 (and prints why) on failure. */
int pack_model(const char *path, int use_triangles, pack_result *out);
void pack_result_free(pack_result *r);

/* Writes bytes to a file; returns 0 on failure. */
int pack_write_file(const char *path, const void *data, size_t size);

#endif
