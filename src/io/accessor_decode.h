/* Internal to src/io: accessor element layout and the decoder behind ossa_accessor_read_*. */
#ifndef OSSA_IO_ACCESSOR_DECODE_H
#define OSSA_IO_ACCESSOR_DECODE_H

#include "ossa/document.h"

typedef struct ossa_io_layout {
    uint32_t component_size;
    uint32_t columns, rows; /* 1 x components for vectors and scalars */
    uint32_t column_stride; /* bytes; matrix columns start on 4-byte boundaries */
    uint32_t element_size;  /* columns * column_stride */
} ossa_io_layout;

typedef enum ossa_io_output {
    OSSA_IO_OUT_FLOAT,      /* float, normalized integers converted */
    OSSA_IO_OUT_DOUBLE,     /* double, normalized integers converted */
    OSSA_IO_OUT_DOUBLE_RAW, /* double, integers as stored */
    OSSA_IO_OUT_UINT        /* uint32_t, integers as stored */
} ossa_io_output;

ossa_io_layout ossa_io_accessor_layout(ossa_component_type component, ossa_accessor_type type);

/* Elements the checks decode per step into their scratch: 256 of up to 16 doubles is 32 KB, small
 * next to a model's own memory (a larger scratch made the heap's top grow and shrink again with
 * every load of Fox.glb, touching fresh pages each time). */
#define OSSA_IO_DECODE_CHUNK 256

/* Decodes elements [first, first + count) of a validated accessor into out. */
void ossa_io_decode(const ossa_document *doc, int32_t accessor, uint64_t first, uint64_t count,
                    void *out, ossa_io_output kind);

#endif
