/* Internal to src/io: a glTF's JSON text as a cJSON tree, parsed without a call to the allocator
 * per value.
 *
 * cJSON's own parser makes one or two allocations per value and frees each one again: on a
 * skinned model that was half of the load (issue 15). Here jsmn (Debian's libjsmn-dev) finds the
 * tokens, json_tree.c checks what jsmn leaves unchecked (the separators between tokens, the
 * literals, the grammar of numbers, the escapes that make no character, the depth), and the tree
 * is built as cJSON nodes in one block, so the loader reads it with cJSON's accessors as before
 * and frees it with one call. It accepts only valid JSON (RFC 8259), as cJSON does, except that
 * text after the root value must be white space (cJSON's parse ignores it; NUL bytes that pad a
 * GLB's chunk are allowed). */
#ifndef OSSA_IO_JSON_TREE_H
#define OSSA_IO_JSON_TREE_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "ossa/document.h"

/* cJSON's limit, kept: deeper text is refused before the builder's recursion gets deep. */
#define OSSA_JSON_DEPTH_MAX 1000

typedef struct ossa_json_tree {
    cJSON *root;
    void *memory; /* every node and string: one block from the allocator */
} ossa_json_tree;

/* Why a parse failed: a result code (OSSA_ERROR_JSON, OSSA_ERROR_LIMIT or
 * OSSA_ERROR_OUT_OF_MEMORY), a message without the position, and the byte offset in the text
 * near which the text is wrong (JSON errors only). */
typedef struct ossa_json_failure {
    ossa_result code;
    const char *what;
    size_t offset;
} ossa_json_failure;

/* Parses size bytes of text (no terminating NUL needed). On success fills *tree and returns 1;
 * else returns 0 with *failure filled and nothing allocated. */
int ossa_json_tree_parse(const char *text, size_t size, const ossa_allocator *allocator,
                         ossa_json_tree *tree, ossa_json_failure *failure);

/* Frees a parsed tree (a zeroed tree is left alone). */
void ossa_json_tree_free(ossa_json_tree *tree, const ossa_allocator *allocator);

#endif
