/* Helpers of the io suites: GLB files built in memory, loads from JSON text. */
#ifndef OSSA_IO_TEST_UTIL_H
#define OSSA_IO_TEST_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "ossa/document.h"

/* A GLB with the given JSON (padded with spaces) and BIN chunk (padded with zeros; none when
 * bin is NULL). The caller frees the result. */
uint8_t *io_make_glb(const char *json, const void *bin, size_t bin_size, size_t *size);

/* Loads JSON text where every ' stands for " (for readable test strings), with bin as the GLB
 * BIN chunk when given, else as a plain .gltf. Options may be NULL. */
ossa_result io_load_json(const char *json, const void *bin, size_t bin_size,
                         const ossa_load_options *options, ossa_document **doc, ossa_error *error);

/* Whether any warning's path equals path and its message contains phrase. */
int io_has_warning(const ossa_document *doc, const char *path, const char *phrase);

#endif
