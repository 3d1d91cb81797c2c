/* Packs glTF JSON text and a binary buffer into a GLB container (glTF 2.0 binary file). */
#ifndef OSSA_DEMO_GLB_WRITER_H
#define OSSA_DEMO_GLB_WRITER_H

#include <stddef.h>

#include "ossa/document.h"

/* Writes header, JSON chunk (space padded) and, when bin_size > 0, BIN chunk (zero padded).
 * The result is allocated with the allocator (NULL functions: malloc). Returns 0 when the
 * allocation fails or the file would exceed the format's 4 GiB limit. */
int glb_write(const char *json, size_t json_size, const void *bin, size_t bin_size,
              const ossa_allocator *allocator, void **out, size_t *out_size);

#endif
