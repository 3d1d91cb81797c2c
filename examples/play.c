/* play: load a glTF model (or ossa's built-in demo), play one animation, skin every skinned
 * mesh on the CPU and print where its vertices went.
 *
 *   usage: play [MODEL.gltf|MODEL.glb] [ANIMATION-INDEX]
 *
 * Built against an installed ossa: with CMake (find_package(ossa), see CMakeLists.txt here)
 * or with pkg-config: cc play.c $(pkg-config --cflags --libs ossa). */
#include <float.h>
#include <stdio.h>
#include <stdlib.h>

#include <ossa/sample.h>
#include <ossa/clip.h>
#include <ossa/demo.h>
#include <ossa/document.h>
#include <ossa/palette.h>
#include <ossa/rig.h>
#include <ossa/skin.h>

#define FRAMES 4

static int fail(const char *what, const ossa_error *error) {
    char text[1024];
    ossa_error_format(error, text, sizeof text);
    fprintf(stderr, "play: %s: %s\n", what, text);
    return 1;
}

/* Skins every primitive of a skinned mesh node and prints the bounds of the result. */
static int skin_node(const ossa_document *doc, const ossa_rig *rig, uint32_t node,
                     const float *world, float *palette, float *positions) {
    int32_t skin = rig->skin[node], mesh = rig->mesh[node];
    ossa_error error;
    if (ossa_palette_mesh(rig, (uint32_t)skin, (int32_t)node, world, palette, &error))
        return fail("palette", &error);
    for (uint32_t p = 0; p < doc->meshes[mesh].primitive_count; p++) {
        ossa_skin_mesh *prepared;
        if (ossa_skin_mesh_from_document(doc, (uint32_t)mesh, p, skin, NULL, &prepared, &error))
            return fail("skin mesh", &error);
        ossa_skin_frame frame = {0};
        frame.palette = palette;
        frame.joint_count = rig->skins[skin].joint_count;
        frame.order = OSSA_SKIN_ORDER_ORIGINAL;
        ossa_skin_output out = {0};
        out.positions = positions;
        size_t count = ossa_skin_mesh_vertex_count(prepared);
        /* positions holds the largest primitive's vertices (max_vertices) */
        if (ossa_skin_mesh_run(prepared, &frame, &out, count, 0,
                               ossa_skin_mesh_slot_count(prepared), &error)) {
            ossa_skin_mesh_free(prepared);
            return fail("skinning", &error);
        }
        float lo[3] = {FLT_MAX, FLT_MAX, FLT_MAX}, hi[3] = {-FLT_MAX, -FLT_MAX, -FLT_MAX};
        for (size_t v = 0; v < count; v++)
            for (int c = 0; c < 3; c++) {
                float x = positions[3 * v + c];
                lo[c] = x < lo[c] ? x : lo[c];
                hi[c] = x > hi[c] ? x : hi[c];
            }
        printf("    %s/%u: %zu vertices in [%.3f %.3f %.3f] .. [%.3f %.3f %.3f]\n",
               doc->meshes[mesh].name ? doc->meshes[mesh].name : "mesh", p, count, lo[0], lo[1],
               lo[2], hi[0], hi[1], hi[2]);
        ossa_skin_mesh_free(prepared);
    }
    return 0;
}

/* Largest vertex count of any primitive: the size of the output buffer. */
static uint64_t max_vertices(const ossa_document *doc) {
    uint64_t most = 0;
    for (uint32_t m = 0; m < doc->mesh_count; m++)
        for (uint32_t p = 0; p < doc->meshes[m].primitive_count; p++)
            if (doc->meshes[m].primitives[p].vertex_count > most)
                most = doc->meshes[m].primitives[p].vertex_count;
    return most;
}

static int play(const ossa_document *doc, uint32_t animation) {
    ossa_rig *rig = NULL;
    ossa_clip_set *clips = NULL;
    ossa_error error;
    if (ossa_rig_build(doc, NULL, &rig, &error)) return fail("rig", &error);
    if (ossa_clip_set_build(doc, rig, NULL, &clips, &error)) {
        ossa_rig_free(rig);
        return fail("clips", &error);
    }
    int status = 0;
    if (animation >= clips->clip_count) {
        fprintf(stderr, "play: the model has %u animations\n", clips->clip_count);
        status = 1;
    }
    const ossa_clip *clip = status ? NULL : &clips->clips[animation];
    /* Every per-frame buffer is allocated up front: playing allocates nothing. */
    ossa_pose pose;
    pose.local = malloc(rig->node_count * sizeof *pose.local);
    pose.weights = malloc((rig->weight_total + 1) * sizeof *pose.weights);
    float *world = malloc(rig->node_count * OSSA_MATRIX_FLOATS * sizeof(float));
    float *palette = malloc((rig->max_joint_count + 1) * OSSA_MATRIX_FLOATS * sizeof(float));
    float *positions = malloc((max_vertices(doc) + 1) * 3 * sizeof(float));
    uint32_t *keys = malloc(((clip ? ossa_cursor_size(clip) : 0) + 1) * sizeof(uint32_t));
    if (!pose.local || !pose.weights || !world || !palette || !positions || !keys) status = 1;
    if (!status) {
        printf("animation %u '%s': %.3f s, %u tracks\n", animation, clip->name ? clip->name : "",
               clip->duration, clip->track_count);
        ossa_cursor cursor = {keys};
        ossa_cursor_reset(clip, &cursor);
        for (int f = 0; f < FRAMES && !status; f++) {
            float t = ossa_clip_time(clip, clip->duration * f / FRAMES, OSSA_WRAP_LOOP);
            ossa_clip_sample(rig, clip, t, &cursor, &pose);
            ossa_fk_matrices(rig, &pose, world);
            printf("  t = %.3f s\n", t);
            for (uint32_t n = 0; n < rig->node_count && !status; n++)
                if (rig->skin[n] >= 0 && rig->mesh[n] >= 0)
                    status = skin_node(doc, rig, n, world, palette, positions);
        }
    }
    free(pose.local), free(pose.weights), free(world), free(palette), free(positions), free(keys);
    ossa_clip_set_free(clips);
    ossa_rig_free(rig);
    return status;
}

int main(int argc, char **argv) {
    ossa_document *doc = NULL;
    ossa_error error;
    ossa_result result = argc > 1 ? ossa_document_load_file(argv[1], NULL, &doc, &error)
                                  : ossa_demo_load(NULL, &doc, &error);
    if (result != OSSA_OK) return fail("load", &error);
    printf("%s: %u nodes, %u meshes, %u skins, %u animations\n", doc->file, doc->node_count,
           doc->mesh_count, doc->skin_count, doc->animation_count);
    int status = play(doc, argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 10) : 0);
    ossa_document_free(doc);
    return status;
}
