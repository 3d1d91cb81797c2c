/* Internal to src/io: EXT_meshopt_compression, the hooks buffers.c calls (meshopt.c). */
#ifndef OSSA_IO_MESHOPT_H
#define OSSA_IO_MESHOPT_H

#include "io/loader.h"

/* While reading buffers[index] (path at it): notes `"fallback": true`. */
void ossa_io_meshopt_parse_buffer(ossa_io_loader *L, const cJSON *item, uint32_t index);

/* While reading bufferViews[index] (path at it, the view filled): reads and checks the view's
 * extension object, marks its source buffer used; refuses an uncompressed view of a fallback
 * buffer. */
void ossa_io_meshopt_parse_view(ossa_io_loader *L, const cJSON *item, uint32_t index);

/* Whether buffer `index` gets its bytes only from decoding: a fallback buffer, or one without
 * data of its own that only compressed views use. The loader allocates it zeroed instead of
 * loading it (no placeholder warning). */
int ossa_io_meshopt_decodes_into(const ossa_io_loader *L, uint32_t index);

/* After every buffer is loaded: decodes each compressed view into its bytes (the buffer at the
 * view's byteOffset), refusing data that does not decode with the extension's JSON path. */
void ossa_io_meshopt_decode(ossa_io_loader *L);

#endif
