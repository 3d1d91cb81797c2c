/* Loading a model for drawing, and evaluating the palettes of N instances per frame. */
#include "render_scene.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ossa/demo.h"
#include "ossa/palette.h"

static int fail(const char *what, const ossa_error *error) {
    char text[1024];
    ossa_error_format(error, text, sizeof text);
    fprintf(stderr, "ossa: %s: %s\n", what, text);
    return 0;
}

/* Finds the nodes that draw meshes and lays out their palettes and weights per instance. */
static int collect_drawables(render_scene *s) {
    const ossa_rig *rig = s->rig;
    s->drawables = calloc(rig->node_count + 1, sizeof *s->drawables);
    if (!s->drawables) return 0;
    uint32_t joints = 0, weights = 0;
    for (uint32_t n = 0; n < rig->node_count; n++) {
        if (rig->mesh[n] < 0) continue;
        render_drawable *d = &s->drawables[s->drawable_count++];
        d->rig_node = (int32_t)n;
        d->skin = rig->skin[n];
        d->joint_count = d->skin >= 0 ? rig->skins[d->skin].joint_count : 1;
        d->weight_count = rig->weight_count[n];
        d->palette_base = joints;
        d->weights_base = weights;
        joints += d->joint_count * s->instances;
        weights += d->weight_count * s->instances;
    }
    s->palette_joints = joints + 1; /* + identity for CPU-skinned vertices */
    s->weight_total = weights;
    return 1;
}

static int upload_meshes(render_scene *s, int cpu_skinning) {
    for (uint32_t i = 0; i < s->drawable_count; i++) {
        render_drawable *d = &s->drawables[i];
        int32_t mesh = s->rig->mesh[d->rig_node];
        ossa_error error;
        if (ossa_gpu_mesh_create(s->context, s->document, mesh, &d->gpu, &error) != OSSA_OK)
            return fail("uploading a mesh", &error);
        d->primitive_count = ossa_gpu_mesh_primitive_count(d->gpu);
        if (!cpu_skinning) continue;
        d->cpu = calloc(d->primitive_count + 1, sizeof *d->cpu);
        if (!d->cpu) return 0;
        for (uint32_t p = 0; p < d->primitive_count; p++) {
            if (ossa_skin_mesh_from_document(s->document, (uint32_t)mesh, p, d->skin, NULL,
                                             &d->cpu[p], &error) != OSSA_OK)
                return fail("preparing CPU skinning", &error);
        }
    }
    return 1;
}

static uint32_t largest_primitive(const render_scene *s) {
    uint32_t largest = 1;
    for (uint32_t i = 0; i < s->drawable_count; i++)
        for (uint32_t p = 0; p < s->drawables[i].primitive_count; p++) {
            uint32_t n = ossa_gpu_mesh_vertex_count(s->drawables[i].gpu, p);
            if (n > largest) largest = n;
        }
    return largest;
}

int render_scene_open(render_scene *s, ossa_gpu_context *context, const char *model,
                      uint32_t instances, int cpu_skinning) {
    memset(s, 0, sizeof *s);
    s->context = context;
    s->instances = instances ? instances : 1;
    ossa_error error;
    ossa_result r = model ? ossa_document_load_file(model, NULL, &s->document, &error)
                          : ossa_demo_load(NULL, &s->document, &error);
    if (r != OSSA_OK)
        return fail(model ? "cannot load the model" : "cannot build the demo model", &error);
    if (ossa_rig_build(s->document, NULL, &s->rig, &error) != OSSA_OK)
        return fail("building the rig", &error);
    if (ossa_clip_set_build(s->document, s->rig, NULL, &s->clips, &error) != OSSA_OK)
        return fail("building the clips", &error);
    if (ossa_gpu_frame_data_create(context, &s->frame, &error) != OSSA_OK)
        return fail("creating frame buffers", &error);
    if (!collect_drawables(s)) return 0;
    if (!upload_meshes(s, cpu_skinning)) return 0;
    uint32_t cursor_stride = 1;
    for (uint32_t c = 0; c < ossa_clip_set_count(s->clips); c++) {
        uint32_t size = ossa_cursor_size(ossa_clip_set_clip(s->clips, c));
        if (size > cursor_stride) cursor_stride = size;
    }
    s->cursor_stride = cursor_stride;
    uint32_t largest = largest_primitive(s);
    s->local = malloc(sizeof *s->local * (s->rig->node_count + 1));
    s->pose_weights = malloc(sizeof(float) * (s->rig->weight_total + 1));
    s->world = malloc(sizeof(float) * 12 * (s->rig->node_count + 1));
    s->cursor_keys = calloc((size_t)cursor_stride * s->instances, sizeof(uint32_t));
    s->palette = malloc(sizeof(float) * 12 * s->palette_joints);
    s->weights = calloc(s->weight_total + 1, sizeof(float));
    s->cpu_positions = malloc(sizeof(float) * 3 * largest);
    s->cpu_normals = malloc(sizeof(float) * 3 * largest);
    if (!s->local || !s->pose_weights || !s->world || !s->cursor_keys || !s->palette ||
        !s->weights || !s->cpu_positions || !s->cpu_normals) {
        fprintf(stderr, "ossa: out of memory\n");
        return 0;
    }
    static const float identity[12] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};
    memcpy(s->palette + 12 * (s->palette_joints - 1), identity, sizeof identity);
    return 1;
}

void render_scene_close(render_scene *s) {
    for (uint32_t i = 0; s->drawables && i < s->drawable_count; i++) {
        render_drawable *d = &s->drawables[i];
        ossa_gpu_mesh_destroy(d->gpu);
        for (uint32_t p = 0; d->cpu && p < d->primitive_count; p++)
            ossa_skin_mesh_free(d->cpu[p]);
        free(d->cpu);
    }
    free(s->drawables);
    ossa_gpu_frame_data_destroy(s->frame);
    ossa_clip_set_free(s->clips);
    ossa_rig_free(s->rig);
    ossa_document_free(s->document);
    free(s->local);
    free(s->pose_weights);
    free(s->world);
    free(s->cursor_keys);
    free(s->palette);
    free(s->weights);
    free(s->cpu_positions);
    free(s->cpu_normals);
    memset(s, 0, sizeof *s);
}

/* Where instance i stands: a square grid centred on the origin. */
static void instance_offset(const render_scene *s, uint32_t i, float out[3]) {
    uint32_t cols = (uint32_t)ceil(sqrt((double)s->instances));
    uint32_t rows = (s->instances + cols - 1) / cols;
    out[0] = ((float)(i % cols) - 0.5f * (float)(cols - 1)) * s->spacing;
    out[1] = 0;
    out[2] = ((float)(i / cols) - 0.5f * (float)(rows - 1)) * s->spacing;
}

void render_scene_evaluate(render_scene *s, int clip, const float *times, int upload) {
    const ossa_rig *rig = s->rig;
    ossa_pose pose = {s->local, s->pose_weights};
    for (uint32_t i = 0; i < s->instances; i++) {
        if (clip >= 0 && (uint32_t)clip < ossa_clip_set_count(s->clips)) {
            ossa_cursor cursor = {s->cursor_keys + (size_t)i * s->cursor_stride, s->cursor_stride};
            ossa_clip_sample(rig, ossa_clip_set_clip(s->clips, clip), times[i], &cursor, &pose);
        } else {
            ossa_pose_set_rest(rig, &pose);
        }
        ossa_fk_matrices(rig, &pose, s->world);
        float offset[3];
        instance_offset(s, i, offset);
        for (uint32_t d = 0; d < s->drawable_count; d++) {
            const render_drawable *draw = &s->drawables[d];
            float *palette = s->palette + 12 * ((size_t)draw->palette_base + i * draw->joint_count);
            if (draw->skin >= 0)
                ossa_palette_world(rig, (uint32_t)draw->skin, s->world, palette);
            else
                memcpy(palette, s->world + 12 * draw->rig_node, 12 * sizeof(float));
            for (uint32_t j = 0; j < draw->joint_count; j++)
                for (int k = 0; k < 3; k++)
                    palette[12 * j + 4 * k + 3] += offset[k];
            if (draw->weight_count)
                memcpy(s->weights + draw->weights_base + i * draw->weight_count,
                       s->pose_weights + rig->weight_offset[draw->rig_node],
                       draw->weight_count * sizeof(float));
        }
    }
    if (upload)
        ossa_gpu_frame_data_upload(s->frame, s->palette, s->palette_joints, s->weights,
                                   s->weight_total);
}

static ossa_gpu_skinning drawable_skinning(const render_drawable *d, uint32_t instances,
                                           ossa_gpu_palette_path path,
                                           ossa_gpu_skinning_method method) {
    ossa_gpu_skinning k = {0};
    k.path = path;
    k.method = method;
    k.palette_base = d->palette_base;
    k.joint_count = d->joint_count;
    k.weights_base = d->weights_base;
    k.unskinned = d->skin < 0;
    k.instance_count = instances;
    return k;
}

/* Skins one instance of one drawable on the CPU and draws it with the identity joint. */
static void draw_cpu_instance(render_scene *s, ossa_gpu_renderer *renderer, render_drawable *d,
                              uint32_t i) {
    const float *palette = s->palette + 12 * ((size_t)d->palette_base + i * d->joint_count);
    for (uint32_t p = 0; p < d->primitive_count; p++) {
        ossa_skin_frame f = {0};
        f.palette = d->skin >= 0 ? palette : NULL;
        f.joint_count = d->joint_count;
        f.transform = d->skin >= 0 ? NULL : palette;
        f.morph_weights =
            d->weight_count ? s->weights + d->weights_base + i * d->weight_count : NULL;
        f.morph_weight_count = d->weight_count;
        f.order = OSSA_SKIN_ORDER_ORIGINAL;
        ossa_skin_output out = {0};
        out.positions = s->cpu_positions;
        out.normals = ossa_skin_mesh_has_normals(d->cpu[p]) ? s->cpu_normals : NULL;
        ossa_skin_mesh_run(d->cpu[p], &f, &out, 0, ossa_skin_mesh_slot_count(d->cpu[p]));
        ossa_gpu_mesh_update_vertices(d->gpu, p, s->cpu_positions, out.normals);
    }
    ossa_gpu_skinning k = {0};
    k.palette_base = s->palette_joints - 1;
    k.joint_count = 1;
    k.unskinned = 1;
    k.skip_morph = 1;
    ossa_gpu_renderer_draw(renderer, d->gpu, s->frame, &k);
}

void render_scene_draw(render_scene *s, ossa_gpu_renderer *renderer, ossa_gpu_palette_path path,
                       ossa_gpu_skinning_method method, int cpu_skinning) {
    for (uint32_t d = 0; d < s->drawable_count; d++) {
        render_drawable *draw = &s->drawables[d];
        if (cpu_skinning && draw->cpu) {
            for (uint32_t i = 0; i < s->instances; i++)
                draw_cpu_instance(s, renderer, draw, i);
            continue;
        }
        ossa_gpu_skinning k = drawable_skinning(draw, s->instances, path, method);
        ossa_gpu_renderer_draw(renderer, draw->gpu, s->frame, &k);
    }
}

/* Grows lo/hi by the GPU-skinned vertices of instance 0 at the current frame data. */
static void grow_bounds(render_scene *s, float lo[3], float hi[3], float *scratch) {
    for (uint32_t d = 0; d < s->drawable_count; d++) {
        render_drawable *draw = &s->drawables[d];
        ossa_gpu_skinning k =
            drawable_skinning(draw, 1, OSSA_GPU_PALETTE_TEXTURE, OSSA_GPU_LINEAR_BLEND);
        for (uint32_t p = 0; p < draw->primitive_count; p++) {
            uint32_t n = ossa_gpu_mesh_vertex_count(draw->gpu, p);
            if (ossa_gpu_skin_feedback(s->context, draw->gpu, p, s->frame, &k, scratch, NULL,
                                       NULL) != OSSA_OK)
                continue;
            for (uint32_t v = 0; v < n; v++)
                for (int c = 0; c < 3; c++) {
                    float x = scratch[3 * v + c];
                    if (x < lo[c]) lo[c] = x;
                    if (x > hi[c]) hi[c] = x;
                }
        }
    }
}

void render_scene_bounds(render_scene *s, int clip, int samples, float lo[3], float hi[3]) {
    for (int c = 0; c < 3; c++)
        lo[c] = INFINITY, hi[c] = -INFINITY;
    float *times = calloc(s->instances, sizeof(float));
    float saved_spacing = s->spacing;
    s->spacing = 0; /* every instance at the origin while measuring one */
    const ossa_clip *c =
        clip >= 0 && (uint32_t)clip < ossa_clip_set_count(s->clips) ? ossa_clip_set_clip(s->clips, clip) : NULL;
    for (int k = 0; times && k < samples; k++) {
        float t =
            c ? ossa_clip_start(c) + ossa_clip_duration(c) * (float)k / (float)(samples > 1 ? samples - 1 : 1) : 0;
        for (uint32_t i = 0; i < s->instances; i++)
            times[i] = t;
        render_scene_evaluate(s, clip, times, 1);
        grow_bounds(s, lo, hi, s->cpu_positions);
    }
    free(times);
    if (!(lo[0] <= hi[0])) {
        for (int k = 0; k < 3; k++)
            lo[k] = -1, hi[k] = 1;
    }
    s->spacing = saved_spacing > 0 ? saved_spacing : 1.25f * fmaxf(hi[0] - lo[0], hi[2] - lo[2]);
    float first[3], last[3];
    instance_offset(s, 0, first);
    instance_offset(s, s->instances - 1, last);
    uint32_t cols = (uint32_t)ceil(sqrt((double)s->instances));
    float right[3];
    instance_offset(s, cols - 1 < s->instances ? cols - 1 : 0, right);
    lo[0] += first[0], hi[0] += right[0];
    lo[2] += first[2], hi[2] += last[2];
}

const char *render_scene_clip_name(const render_scene *s, int clip, char *buf, size_t size) {
    if (clip < 0 || (uint32_t)clip >= ossa_clip_set_count(s->clips))
        snprintf(buf, size, "rest pose");
    else if (ossa_clip_name(ossa_clip_set_clip(s->clips, clip)))
        snprintf(buf, size, "%s", ossa_clip_name(ossa_clip_set_clip(s->clips, clip)));
    else
        snprintf(buf, size, "animation %d", clip);
    return buf;
}
