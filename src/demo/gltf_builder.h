/* A glTF 2.0 document under construction: the JSON tree (cJSON) and one binary buffer.
 * Allocation failures are sticky: the first one sets `failed` and later calls do nothing,
 * so generators can chain calls and check once at the end. */
#ifndef OSSA_DEMO_GLTF_BUILDER_H
#define OSSA_DEMO_GLTF_BUILDER_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

typedef struct gltf_builder {
    cJSON *root;
    cJSON *buffer_views, *accessors, *materials, *meshes, *nodes, *skins, *animations, *scenes;
    uint8_t *bin;
    size_t bin_size, bin_capacity;
    int failed;
} gltf_builder;

/* Buffer view targets. */
enum { GLTF_ARRAY_BUFFER = 34962, GLTF_ELEMENT_ARRAY_BUFFER = 34963 };

/* Starts an empty document whose asset names the generator. Returns 0 on allocation failure
 * (the builder must still be released). */
int gltf_builder_init(gltf_builder *b, const char *generator);
void gltf_builder_release(gltf_builder *b);

/* Appends a new object to one of the top-level arrays and returns it, or NULL once failed. */
cJSON *gltf_append(gltf_builder *b, cJSON *array);
/* The index the next object appended to array will get. */
int gltf_next_index(const cJSON *array);

/* Property setters on an object; they do nothing when obj is NULL or the builder failed. */
void gltf_set_number(gltf_builder *b, cJSON *obj, const char *key, double value);
void gltf_set_string(gltf_builder *b, cJSON *obj, const char *key, const char *value);
void gltf_set_floats(gltf_builder *b, cJSON *obj, const char *key, const float *values, int n);
void gltf_set_ints(gltf_builder *b, cJSON *obj, const char *key, const int *values, int n);
void gltf_set_bool(gltf_builder *b, cJSON *obj, const char *key, int value);
/* Adds (or finds) an object-valued property. */
cJSON *gltf_object(gltf_builder *b, cJSON *obj, const char *key);
/* Adds an array-valued property. */
cJSON *gltf_array(gltf_builder *b, cJSON *obj, const char *key);
/* Appends an integer to an array. */
void gltf_push_int(gltf_builder *b, cJSON *array, int value);

/*
 * Copies count elements of `components` floats into the buffer (in a buffer view of its own,
 * 4-byte aligned) and describes them with an accessor of the given type name ("SCALAR",
 * "VEC3", "MAT4", ...). min/max are written when with_bounds is set. Returns the accessor
 * index, or -1 once failed.
 */
int gltf_add_float_accessor(gltf_builder *b, const float *data, uint32_t count, const char *type,
                            int components, uint32_t target, int with_bounds);

/* As gltf_add_float_accessor for unsigned integers of 1 or 2 bytes (UNSIGNED_BYTE/SHORT). */
int gltf_add_uint_accessor(gltf_builder *b, const void *data, uint32_t count, int component_size,
                           const char *type, int components, uint32_t target);

/* Finishes the document: records the buffer, prints the JSON (caller frees with cJSON_free). */
char *gltf_builder_print(gltf_builder *b);

#endif
