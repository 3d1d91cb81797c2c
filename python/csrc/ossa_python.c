/*
 * Helpers of the Python package (python/ossa/_lib.py declares them for ctypes). They add no
 * math: they call the runtime API (model.h) for a whole batch of times in one foreign call, so
 * Python crosses into C once per request (and ctypes releases the GIL for all of it), and they
 * give results in glTF node order, as Python users index nodes.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ossa/demo.h"
#include "ossa/mix.h"
#include "ossa/model.h"
#include "ossa/motion.h"

/* The sizes of the C structs _lib.py mirrors, in its order, so that a field added in C without
 * its mirror is an ImportError instead of misread memory. */
size_t ossapy_struct_size(uint32_t which) {
    static const size_t sizes[] = {sizeof(ossa_error),           sizeof(ossa_warning),
                                   sizeof(ossa_allocator),       sizeof(ossa_model_desc),
                                   sizeof(ossa_demo_desc),       sizeof(ossa_trs),
                                   sizeof(ossa_rig_skin),        sizeof(ossa_rig),
                                   sizeof(ossa_model_primitive), sizeof(ossa_model_streams)};
    return which < sizeof sizes / sizeof sizes[0] ? sizes[which] : 0;
}

/* Warnings and names that live in the document only: Python reads them before freeing it. */
uint32_t ossapy_warning_count(const ossa_document *document) {
    return document->warning_count;
}

const ossa_warning *ossapy_warning(const ossa_document *document, uint32_t index) {
    return index < document->warning_count ? &document->warnings[index] : NULL;
}

const char *ossapy_skin_name(const ossa_document *document, uint32_t skin) {
    return skin < document->skin_count ? document->skins[skin].name : NULL;
}

const char *ossapy_mesh_name(const ossa_document *document, uint32_t mesh) {
    return mesh < document->mesh_count ? document->meshes[mesh].name : NULL;
}

/* Joints of every skin, one skin after the other (the layout of ossapy_sample's palettes). */
static size_t palette_joints(const ossa_rig *rig) {
    size_t joints = 0;
    for (uint32_t s = 0; s < rig->skin_count; s++)
        joints += rig->skins[s].joint_count;
    return joints;
}

static void copy_frame(const ossa_character *character, const ossa_rig *rig, size_t at,
                       float *world, float *palettes, ossa_trs *local, float *weights) {
    if (world) {
        const float *w = ossa_character_world(character);
        float *out = world + at * 12 * rig->node_count;
        for (uint32_t g = 0; g < rig->node_count; g++)
            memcpy(out + 12 * (size_t)g, w + 12 * (size_t)rig->rig_from_gltf[g],
                   12 * sizeof(float));
    }
    if (palettes) {
        float *out = palettes + at * 12 * palette_joints(rig);
        for (uint32_t s = 0; s < rig->skin_count; s++) {
            size_t floats = 12 * (size_t)rig->skins[s].joint_count;
            memcpy(out, ossa_character_palette(character, s), floats * sizeof(float));
            out += floats;
        }
    }
    /* The pose is the character's own, in rig order: what ossapy_skin gives back to one. */
    ossa_pose *pose = ossa_character_pose((ossa_character *)character);
    if (local)
        memcpy(local + at * rig->node_count, pose->local, rig->node_count * sizeof(ossa_trs));
    if (weights && rig->weight_total)
        memcpy(weights + at * rig->weight_total, pose->weights, rig->weight_total * sizeof(float));
}

/*
 * Plays `clip` (NULL: the rest pose) at each of `count` clocks, in the given order, on a
 * character of its own (the cursor makes increasing clocks O(1)), and writes for clock i, each
 * output being optional:
 *   world    12 floats (3x4 rows) per node, glTF node order;
 *   palettes the world-space palettes of every skin, one after the other, 12 floats per joint;
 *   local    the pose's node_count transforms, rig order;
 *   weights  the pose's weight_total morph weights, rig layout.
 */
ossa_result ossapy_sample(const ossa_model *model, const ossa_clip *clip, const double *clocks,
                          size_t count, ossa_wrap wrap, float *world, float *palettes,
                          ossa_trs *local, float *weights, ossa_error *error) {
    ossa_character *character;
    ossa_result r = ossa_character_create(model, &character, error);
    if (r != OSSA_OK) return r;
    const ossa_rig *rig = ossa_model_rig(model);
    for (size_t i = 0; i < count && r == OSSA_OK; i++) {
        r = ossa_character_update(character, clip, clocks[i], wrap, error);
        if (r == OSSA_OK) copy_frame(character, rig, i, world, palettes, local, weights);
    }
    ossa_character_free(character);
    return r;
}

/* OSSA_ERROR_ARGUMENT with a path and a message (printf format). */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static ossa_result
argument_error(ossa_error *error, const char *path, const char *format, ...) {
    if (error) {
        memset(error, 0, sizeof *error);
        error->code = OSSA_ERROR_ARGUMENT;
        snprintf(error->path, sizeof error->path, "%s", path);
        va_list args;
        va_start(args, format);
        vsnprintf(error->message, sizeof error->message, format, args);
        va_end(args);
    }
    return OSSA_ERROR_ARGUMENT;
}

/*
 * Reads a mix (the JSON text of a mix file, `size` bytes) for a model and prepares it: on
 * success `*file` holds the parsed file (its warnings, root motion and IK entries; freed with
 * ossa_mix_file_free after the mix) and `*mix` the prepared mix (freed with ossa_mix_free).
 * Errors name no file: the mix is the caller's value, the JSON path says where in it.
 */
ossa_result ossapy_mix_prepare(const ossa_model *model, const char *json, size_t size,
                               ossa_mix_file **file, ossa_mix **mix, ossa_error *error) {
    *mix = NULL;
    ossa_result r = ossa_mix_file_parse(json, size, NULL, model, NULL, file, error);
    if (r != OSSA_OK) return r;
    r = ossa_mix_create(ossa_model_rig(model), ossa_mix_file_desc(*file), mix, error);
    if (r != OSSA_OK) {
        ossa_mix_file_free(*file);
        *file = NULL;
    }
    return r;
}

/* "times[i]." before an error's path, so that Python says which time failed. */
static ossa_result at_time(ossa_result r, size_t i, ossa_error *error) {
    if (r != OSSA_OK && error) {
        char path[sizeof error->path];
        snprintf(path, sizeof path, "times[%zu]%s%.200s", i, error->path[0] ? "." : "",
                 error->path);
        memcpy(error->path, path, sizeof path);
    }
    return r;
}

/* The mix's root motion from clock 0 as 7 doubles: translation xyz, rotation xyzw. */
static ossa_result motion_since_0(const ossa_mix *mix, const ossa_root_motion_desc *desc,
                                  double clock, double out[7], ossa_error *error) {
    ossa_motion m;
    ossa_result r = ossa_mix_root_motion(mix, desc, clock, 0, &m, error);
    if (r == OSSA_OK) {
        memcpy(out, m.translation, sizeof m.translation);
        memcpy(out + 3, m.rotation, sizeof m.rotation);
    }
    return r;
}

/*
 * Samples a prepared mix of `model` (made from `file`) at each of `count` clocks (seconds of
 * the mix clock, finite, as Python checks; any order: a mix is stateless) on a character of its
 * own, as the whole file says (ossa_mix_file_pose: the root in place when the file has
 * "root_motion", its "ik" entries applied), and writes the outputs of clock i as ossapy_sample
 * does, and, with root motion, the motion accumulated from clock 0 into motion + 7 * i (translation
 * xyz, rotation xyzw; motion may be NULL).
 */
ossa_result ossapy_mix_sample(const ossa_model *model, const ossa_mix_file *file,
                              const ossa_mix *mix, const double *clocks, size_t count, float *world,
                              float *palettes, ossa_trs *local, float *weights, double *motion,
                              ossa_error *error) {
    /* aligned_alloc wants a multiple of the alignment (and something to allocate). */
    size_t bytes = (ossa_mix_scratch_size(mix) + 16) & ~(size_t)15;
    void *scratch = aligned_alloc(16, bytes);
    if (!scratch) {
        if (error) {
            memset(error, 0, sizeof *error);
            error->code = OSSA_ERROR_OUT_OF_MEMORY;
            snprintf(error->message, sizeof error->message, "out of memory");
        }
        return OSSA_ERROR_OUT_OF_MEMORY;
    }
    ossa_character *character = NULL;
    ossa_result r = ossa_character_create(model, &character, error);
    const ossa_root_motion_desc *root_motion = ossa_mix_file_root_motion(file);
    const ossa_rig *rig = ossa_model_rig(model);
    for (size_t i = 0; i < count && r == OSSA_OK; i++) {
        r = at_time(ossa_mix_file_pose(file, mix, clocks[i], NULL, scratch, character, error), i,
                    error);
        if (r == OSSA_OK) copy_frame(character, rig, i, world, palettes, local, weights);
        if (r == OSSA_OK && root_motion && motion)
            r = at_time(motion_since_0(mix, root_motion, clocks[i], motion + 7 * i, error), i,
                        error);
    }
    ossa_character_free(character);
    free(scratch);
    return r;
}

/*
 * Skins primitive `primitive` (see ossa_model_primitive_info) for `count` poses as
 * ossapy_sample wrote them (local, weights), pose i into vertex_count * 3 floats at
 * positions + i * 3 * vertex_count and normals + i * 3 * vertex_count (either may be NULL):
 * each pose is given to a character, which runs forward kinematics and its palettes
 * (ossa_character_finish) and skins (ossa_character_skin).
 */
ossa_result ossapy_skin(const ossa_model *model, uint32_t primitive, ossa_skin_mode mode,
                        const ossa_trs *local, const float *weights, size_t count, float *positions,
                        float *normals, ossa_error *error) {
    const ossa_model_primitive *info = ossa_model_primitive_info(model, primitive);
    if (!info) return argument_error(error, "", "no such primitive in the model");
    ossa_character *character;
    ossa_result r = ossa_character_create(model, &character, error);
    if (r != OSSA_OK) return r;
    const ossa_rig *rig = ossa_model_rig(model);
    ossa_pose *pose = ossa_character_pose(character);
    size_t floats = 3 * (size_t)info->vertex_count;
    for (size_t i = 0; i < count && r == OSSA_OK; i++) {
        memcpy(pose->local, local + i * rig->node_count, rig->node_count * sizeof(ossa_trs));
        if (rig->weight_total)
            memcpy(pose->weights, weights + i * rig->weight_total,
                   rig->weight_total * sizeof(float));
        ossa_character_finish(character);
        ossa_skin_output out = {positions ? positions + i * floats : NULL,
                                0,
                                normals ? normals + i * floats : NULL,
                                0,
                                NULL,
                                0};
        r = ossa_character_skin(character, primitive, mode, &out, info->vertex_count, error);
    }
    ossa_character_free(character);
    return r;
}
