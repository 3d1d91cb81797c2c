/* The WebAssembly build's own glue: what the page and the node tests need from the runtime API
 * (include/ossa/model.h) in a shape JavaScript can read without knowing C struct layouts.
 *
 * A viewer is a model plus a crowd of characters. Each frame, web_update plays one clip on every
 * character (ossa_characters_update) and copies what the GPU reads into two flat arrays:
 *
 * - the palette: per instance a block of `block_joints` 3x4 row matrices (12 floats each): the
 *   world-space palettes of every skin in skin order, then the world matrix of every rig node
 *   (unskinned primitives are drawn with their node's matrix as a one-joint palette);
 * - the morph weights: per instance the character's ossa_character_weights;
 * - when a clip animates materials (KHR_animation_pointer): per instance and glTF material, 16
 *   floats of ossa_character_material: base colour, emissive and alpha cutoff, the base colour
 *   texture transform's two rows (each padded to 4).
 *
 * Everything a frame needs is allocated when the instance count is set, not per frame. */
#include <emscripten.h>
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "ossa/demo.h"
#include "ossa/model.h"

typedef struct web_viewer {
    ossa_document *document; /* kept for its warnings */
    ossa_model *model;
    uint32_t block_joints; /* joints per instance block */
    uint32_t *skin_base;   /* first joint of each skin within a block */
    uint32_t node_base;    /* first joint of the node world matrices within a block */
    uint32_t count;        /* instances */
    ossa_character **characters;
    const ossa_clip **clips;
    double *clocks;
    float *palette;   /* count * block_joints * 12 floats */
    float *weights;   /* count * weight_total floats */
    float *materials; /* count * material count * 16 floats; NULL when no material is animated */
} web_viewer;

enum { WEB_MATERIAL_FLOATS = 16 };

/* Materials of the model (glTF material count), animated or not. */
static uint32_t material_count(const web_viewer *v) {
    return v->document->material_count;
}

static int any_material_animated(const web_viewer *v) {
    for (uint32_t m = 0; m < material_count(v); m++)
        if (ossa_model_material_animated(v->model, (int32_t)m)) return 1;
    return 0;
}

static ossa_error last_error;

static void set_error(ossa_result code, const char *message) {
    memset(&last_error, 0, sizeof last_error);
    last_error.code = code;
    strncpy(last_error.message, message, sizeof last_error.message - 1);
}

/* The last failure of web_open, web_set_instances, web_update or web_bounds. */
EMSCRIPTEN_KEEPALIVE int web_error_code(void) {
    return (int)last_error.code;
}
EMSCRIPTEN_KEEPALIVE const char *web_error_file(void) {
    return last_error.file;
}
EMSCRIPTEN_KEEPALIVE const char *web_error_path(void) {
    return last_error.path;
}
EMSCRIPTEN_KEEPALIVE const char *web_error_message(void) {
    return last_error.message;
}

static void free_crowd(web_viewer *v) {
    for (uint32_t i = 0; v->characters && i < v->count; i++)
        ossa_character_free(v->characters[i]);
    free(v->characters);
    free(v->clips);
    free(v->clocks);
    free(v->palette);
    free(v->weights);
    free(v->materials);
    v->materials = NULL;
    v->characters = NULL;
    v->clips = NULL;
    v->clocks = NULL;
    v->palette = v->weights = NULL;
    v->count = 0;
}

EMSCRIPTEN_KEEPALIVE void web_close(web_viewer *v) {
    if (!v) return;
    free_crowd(v);
    free(v->skin_base);
    ossa_model_free(v->model);
    ossa_document_free(v->document);
    free(v);
}

/* Opens a .gltf or .glb file of the virtual file system (NULL: ossa's built-in demo model).
 * Returns NULL on failure (see web_error_*). */
EMSCRIPTEN_KEEPALIVE web_viewer *web_open(const char *path) {
    memset(&last_error, 0, sizeof last_error);
    web_viewer *v = calloc(1, sizeof *v);
    if (!v) {
        set_error(OSSA_ERROR_OUT_OF_MEMORY, "out of memory");
        return NULL;
    }
    ossa_result r = path ? ossa_document_load_file(path, NULL, &v->document, &last_error)
                         : ossa_demo_load(NULL, &v->document, &last_error);
    if (r == OSSA_OK) r = ossa_model_create(v->document, NULL, &v->model, &last_error);
    if (r != OSSA_OK) {
        web_close(v);
        return NULL;
    }
    const ossa_rig *rig = ossa_model_rig(v->model);
    v->skin_base = calloc(rig->skin_count + 1, sizeof *v->skin_base);
    if (!v->skin_base) {
        set_error(OSSA_ERROR_OUT_OF_MEMORY, "out of memory");
        web_close(v);
        return NULL;
    }
    for (uint32_t s = 0; s < rig->skin_count; s++) {
        v->skin_base[s] = v->block_joints;
        v->block_joints += rig->skins[s].joint_count;
    }
    v->node_base = v->block_joints;
    v->block_joints += rig->node_count;
    return v;
}

EMSCRIPTEN_KEEPALIVE const ossa_model *web_model(const web_viewer *v) {
    return v->model;
}

/* The rig in 8 uint32: rig nodes, glTF nodes, rig_from_gltf (pointer to int32 per glTF node),
 * skins, weight_total, weight_offset and weight_count (pointers to uint32 per rig node), and
 * gltf_from_rig (pointer to int32 per rig node). */
EMSCRIPTEN_KEEPALIVE void web_rig(const web_viewer *v, uint32_t *out) {
    const ossa_rig *rig = ossa_model_rig(v->model);
    uint32_t fields[8] = {rig->node_count,
                          v->document->node_count,
                          (uint32_t)(uintptr_t)rig->rig_from_gltf,
                          rig->skin_count,
                          rig->weight_total,
                          (uint32_t)(uintptr_t)rig->weight_offset,
                          (uint32_t)(uintptr_t)rig->weight_count,
                          (uint32_t)(uintptr_t)rig->gltf_from_rig};
    memcpy(out, fields, sizeof fields);
}

/* Joints of skin s (0 when out of range) and its first joint within an instance block. */
EMSCRIPTEN_KEEPALIVE uint32_t web_skin_joint_count(const web_viewer *v, uint32_t s) {
    const ossa_rig *rig = ossa_model_rig(v->model);
    return s < rig->skin_count ? rig->skins[s].joint_count : 0;
}
EMSCRIPTEN_KEEPALIVE uint32_t web_skin_base(const web_viewer *v, uint32_t s) {
    return s < ossa_model_rig(v->model)->skin_count ? v->skin_base[s] : 0;
}

EMSCRIPTEN_KEEPALIVE uint32_t web_warning_count(const web_viewer *v) {
    return v->document->warning_count;
}
EMSCRIPTEN_KEEPALIVE const char *web_warning_path(const web_viewer *v, uint32_t i) {
    return i < v->document->warning_count ? v->document->warnings[i].path : "";
}
EMSCRIPTEN_KEEPALIVE const char *web_warning_message(const web_viewer *v, uint32_t i) {
    return i < v->document->warning_count ? v->document->warnings[i].message : "";
}

/* Joints per instance block, and the block's joint where primitive p reads its palette. */
EMSCRIPTEN_KEEPALIVE uint32_t web_block_joints(const web_viewer *v) {
    return v->block_joints;
}

/* Writes primitive p as 22 uint32 (pointers are 32-bit in wasm32): node, glTF mesh, primitive,
 * skin (-1 as 0xffffffff), joint_count, vertex_count, index_count, mode, target_count,
 * weight_offset, set_count, has_normals, material, then the streams positions, normals,
 * the texture coordinates its material reads (material_texcoords), joints, weights,
 * target_positions, target_normals, indices, and last the first joint of its palette within an
 * instance block. Returns 0 when p is out of range. */
EMSCRIPTEN_KEEPALIVE int web_primitive(const web_viewer *v, uint32_t p, uint32_t *out) {
    const ossa_model_primitive *info = ossa_model_primitive_info(v->model, p);
    if (!info) return 0;
    ossa_model_streams s = ossa_model_primitive_streams(v->model, p);
    uint32_t fields[22] = {(uint32_t)info->node,
                           info->mesh,
                           info->primitive,
                           (uint32_t)info->skin,
                           info->joint_count,
                           info->vertex_count,
                           info->index_count,
                           info->mode,
                           info->target_count,
                           info->weight_offset,
                           info->set_count,
                           (uint32_t)info->has_normals,
                           (uint32_t)info->material,
                           (uint32_t)(uintptr_t)s.positions,
                           (uint32_t)(uintptr_t)s.normals,
                           (uint32_t)(uintptr_t)s.material_texcoords,
                           (uint32_t)(uintptr_t)s.joints,
                           (uint32_t)(uintptr_t)s.weights,
                           (uint32_t)(uintptr_t)s.target_positions,
                           (uint32_t)(uintptr_t)s.target_normals,
                           (uint32_t)(uintptr_t)s.indices,
                           info->skin >= 0 ? v->skin_base[info->skin]
                                           : v->node_base + (uint32_t)info->node};
    memcpy(out, fields, sizeof fields);
    return 1;
}

/* Material `index` (-1: the default) for drawing, as ossa_model_material_info gives it:
 * floats[16]: base colour (4), emissive (3), alpha cutoff, base colour uv transform (6, a 2x3 row
 * matrix), two unused; ints[6]: image pointer, byte size, MIME type pointer (zeros without an
 * image), unlit, double_sided, alpha_mode (ossa_alpha_mode). */
EMSCRIPTEN_KEEPALIVE void web_material(const web_viewer *v, int32_t index, float *floats,
                                       uint32_t *ints) {
    ossa_model_material m = ossa_model_material_info(v->model, index);
    memset(floats, 0, 16 * sizeof(float));
    memcpy(floats, m.base_color, sizeof m.base_color);
    memcpy(floats + 4, m.emissive, sizeof m.emissive);
    floats[7] = m.alpha_cutoff;
    memcpy(floats + 8, m.uv_transform, sizeof m.uv_transform);
    ints[0] = (uint32_t)(uintptr_t)m.image;
    ints[1] = (uint32_t)m.image_size;
    ints[2] = (uint32_t)(uintptr_t)m.image_mime;
    ints[3] = (uint32_t)m.unlit;
    ints[4] = (uint32_t)m.double_sided;
    ints[5] = (uint32_t)m.alpha_mode;
}

/* Makes `count` characters and the frame arrays; 0 on success. On failure (out of memory) the
 * previous crowd is kept. */
EMSCRIPTEN_KEEPALIVE int web_set_instances(web_viewer *v, uint32_t count) {
    const ossa_rig *rig = ossa_model_rig(v->model);
    int animated = any_material_animated(v);
    /* Bytes per instance over every array below (wasm32's size_t is 32 bits). */
    size_t per_instance =
        sizeof(ossa_character *) + sizeof(ossa_clip *) + sizeof(double) +
        sizeof(float) * (12 * (size_t)v->block_joints + rig->weight_total + 1 +
                         (animated ? material_count(v) * WEB_MATERIAL_FLOATS : 0));
    if (count > SIZE_MAX / per_instance) {
        set_error(OSSA_ERROR_OUT_OF_MEMORY, "too many instances for the WebAssembly memory");
        return 1;
    }
    web_viewer old = *v;
    v->count = 0;
    v->characters = calloc(count, sizeof *v->characters);
    v->clips = calloc(count, sizeof *v->clips);
    v->clocks = calloc(count, sizeof *v->clocks);
    v->palette = malloc((size_t)count * v->block_joints * 12 * sizeof(float));
    v->weights = calloc((size_t)count * rig->weight_total + 1, sizeof(float));
    v->materials =
        animated ? calloc((size_t)count * material_count(v) * WEB_MATERIAL_FLOATS, sizeof(float))
                 : NULL;
    int failed = !v->characters || !v->clips || !v->clocks || !v->palette || !v->weights ||
                 (animated && !v->materials);
    if (failed) set_error(OSSA_ERROR_OUT_OF_MEMORY, "out of memory");
    for (; !failed && v->count < count; v->count++)
        if (ossa_character_create(v->model, &v->characters[v->count], &last_error) != OSSA_OK) {
            failed = 1;
            break;
        }
    if (failed) {
        free_crowd(v);
        *v = old;
        return 1;
    }
    free_crowd(&old);
    return 0;
}

EMSCRIPTEN_KEEPALIVE uint32_t web_instances(const web_viewer *v) {
    return v->count;
}
EMSCRIPTEN_KEEPALIVE const float *web_palette(const web_viewer *v) {
    return v->palette;
}
EMSCRIPTEN_KEEPALIVE const float *web_weights(const web_viewer *v) {
    return v->weights;
}
/* The animated materials of this frame (see the top of the file), NULL when none is animated. */
EMSCRIPTEN_KEEPALIVE const float *web_materials(const web_viewer *v) {
    return v->materials;
}
EMSCRIPTEN_KEEPALIVE uint32_t web_material_count(const web_viewer *v) {
    return material_count(v);
}
/* 1 when a clip animates material `index` (its values then come from web_materials). */
EMSCRIPTEN_KEEPALIVE int web_material_animated(const web_viewer *v, int32_t index) {
    return ossa_model_material_animated(v->model, index);
}

/* Instance i's animated materials into its block of web_materials. */
static void write_materials(web_viewer *v, uint32_t i) {
    float *block = v->materials + (size_t)i * material_count(v) * WEB_MATERIAL_FLOATS;
    for (uint32_t m = 0; m < material_count(v); m++, block += WEB_MATERIAL_FLOATS) {
        if (!ossa_model_material_animated(v->model, (int32_t)m)) continue;
        ossa_model_material mat = ossa_character_material(v->characters[i], (int32_t)m);
        memcpy(block, mat.base_color, 4 * sizeof(float));
        memcpy(block + 4, mat.emissive, 3 * sizeof(float));
        block[7] = mat.alpha_cutoff;
        memcpy(block + 8, mat.uv_transform, 3 * sizeof(float));
        memcpy(block + 12, mat.uv_transform + 3, 3 * sizeof(float));
    }
}

/* The character of instance i, for reading its results through the runtime API. */
EMSCRIPTEN_KEEPALIVE ossa_character *web_character(const web_viewer *v, uint32_t i) {
    return i < v->count ? v->characters[i] : NULL;
}

/* Plays clip `clip` (-1: the rest pose) on every instance, instance i at clock + i * stagger
 * (wrapped as `wrap`, an ossa_wrap), and fills the palette and weight arrays. 0 on success. */
EMSCRIPTEN_KEEPALIVE int web_update(web_viewer *v, int32_t clip, double clock, double stagger,
                                    int wrap) {
    const ossa_clip *c = clip >= 0 ? ossa_model_clip(v->model, (uint32_t)clip) : NULL;
    if (clip >= 0 && !c) {
        set_error(OSSA_ERROR_ARGUMENT, "no such animation");
        return 1;
    }
    for (uint32_t i = 0; i < v->count; i++) {
        v->clips[i] = c;
        v->clocks[i] = clock + i * stagger;
    }
    if (ossa_characters_update(v->characters, v->count, v->clips, v->clocks, (ossa_wrap)wrap, NULL,
                               &last_error) != OSSA_OK)
        return 1;
    const ossa_rig *rig = ossa_model_rig(v->model);
    for (uint32_t i = 0; i < v->count; i++) {
        float *block = v->palette + (size_t)i * v->block_joints * 12;
        for (uint32_t s = 0; s < rig->skin_count; s++)
            memcpy(block + 12 * (size_t)v->skin_base[s],
                   ossa_character_palette(v->characters[i], s),
                   12 * sizeof(float) * rig->skins[s].joint_count);
        memcpy(block + 12 * (size_t)v->node_base, ossa_character_world(v->characters[i]),
               12 * sizeof(float) * rig->node_count);
        memcpy(v->weights + (size_t)i * rig->weight_total, ossa_character_weights(v->characters[i]),
               sizeof(float) * rig->weight_total);
        if (v->materials) write_materials(v, i);
    }
    return 0;
}

/* Skins primitive p of instance i on the CPU (linear blend, ossa_character_skin) into
 * positions and, when not NULL and the primitive has normals, normals; 0 on success. */
EMSCRIPTEN_KEEPALIVE int web_skin(const web_viewer *v, uint32_t i, uint32_t p, float *positions,
                                  float *normals, uint32_t capacity) {
    if (i >= v->count) {
        set_error(OSSA_ERROR_ARGUMENT, "no such instance");
        return 1;
    }
    const ossa_model_primitive *info = ossa_model_primitive_info(v->model, p);
    ossa_skin_output out = {positions, 0, info && info->has_normals ? normals : NULL, 0, NULL, 0};
    return ossa_character_skin(v->characters[i], p, OSSA_SKIN_LBS, &out, capacity, &last_error) !=
           OSSA_OK;
}

static void grow_bounds(const ossa_character *character, float *scratch, float *bounds) {
    const ossa_model *model = ossa_character_model(character);
    ossa_skin_output out = {scratch, 0, NULL, 0, NULL, 0};
    for (uint32_t p = 0; p < ossa_model_primitive_count(model); p++) {
        if (ossa_character_skin(character, p, OSSA_SKIN_LBS, &out,
                                ossa_model_max_vertex_count(model), NULL) != OSSA_OK)
            continue;
        for (uint32_t i = 0; i < ossa_model_primitive_info(model, p)->vertex_count; i++)
            for (int c = 0; c < 3; c++) {
                float x = scratch[3 * i + c];
                bounds[c] = x < bounds[c] ? x : bounds[c];
                bounds[3 + c] = x > bounds[3 + c] ? x : bounds[3 + c];
            }
    }
}

/* The box (min xyz, max xyz) around the model's skinned vertices in the rest pose and at
 * `samples` times across every clip, so a camera framed on it holds the whole animation.
 * 0 on success; a model without vertices gives an empty box (min > max). */
EMSCRIPTEN_KEEPALIVE int web_bounds(const web_viewer *v, uint32_t samples, float *bounds) {
    for (int c = 0; c < 3; c++) {
        bounds[c] = FLT_MAX;
        bounds[3 + c] = -FLT_MAX;
    }
    ossa_character *character;
    if (ossa_character_create(v->model, &character, &last_error) != OSSA_OK) return 1;
    float *scratch =
        malloc(((size_t)ossa_model_max_vertex_count(v->model) + 1) * 3 * sizeof(float));
    if (!scratch) {
        ossa_character_free(character);
        set_error(OSSA_ERROR_OUT_OF_MEMORY, "out of memory");
        return 1;
    }
    grow_bounds(character, scratch, bounds);
    for (uint32_t k = 0; k < ossa_model_clip_count(v->model); k++) {
        const ossa_clip *clip = ossa_model_clip(v->model, k);
        for (uint32_t s = 0; s < samples; s++) {
            double t = ossa_clip_start(clip) +
                       ossa_clip_duration(clip) * s / (samples > 1 ? samples - 1 : 1);
            ossa_character_update(character, clip, t, OSSA_WRAP_CLAMP, NULL);
            grow_bounds(character, scratch, bounds);
        }
    }
    free(scratch);
    ossa_character_free(character);
    return 0;
}
