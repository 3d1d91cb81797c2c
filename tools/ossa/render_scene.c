/* N characters of a model drawn through libossa-gl: loading, playing, placing, drawing. */
#include "render_scene.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_report.h"
#include "ossa/demo.h"

static int fail(const char *what, const ossa_error *error) {
    char text[1024];
    ossa_error_format(error, text, sizeof text);
    fprintf(stderr, "ossa: %s: %s\n", what, text);
    return 0;
}

static int fail_load(const char *path, const ossa_error *error) {
    cli_report_error(path, error);
    return 0;
}

/* The model, without the document (which is freed once the model is built). */
static int load_model(render_scene *s, const render_scene_desc *d) {
    ossa_document *document = NULL;
    ossa_error error;
    ossa_load_options options = {0};
    options.allow_unsafe_paths = d->allow_unsafe_paths;
    ossa_result r = d->model ? ossa_document_load_file(d->model, &options, &document, &error)
                             : ossa_demo_load(NULL, &document, &error);
    if (r != OSSA_OK) return fail_load(d->model, &error);
    cli_report_warnings(d->model, document);
    ossa_model_desc desc = {0};
    desc.dual_quaternions = d->cpu_skinning && d->method == OSSA_GPU_DUAL_QUATERNION;
    desc.compact_clips = d->compact;
    r = ossa_model_create(document, &desc, &s->model, &error);
    ossa_document_free(document);
    if (r != OSSA_OK) return fail_load(d->model, &error);
    if (d->compact) cli_report_compact_clips(stdout, "", s->model);
    return 1;
}

int render_scene_open(render_scene *s, ossa_gpu_context *context, const render_scene_desc *d) {
    memset(s, 0, sizeof *s);
    s->context = context;
    s->instances = d->instances ? d->instances : 1;
    if (!load_model(s, d)) return 0;
    int cpu_skinning = d->cpu_skinning;
    ossa_error error;
    ossa_gpu_model_desc desc = {0};
    desc.dynamic_vertices = cpu_skinning;
    if (ossa_gpu_model_create(context, s->model, &desc, &s->gpu, &error) != OSSA_OK)
        return fail("uploading the model", &error);
    if (ossa_gpu_instances_create(s->gpu, &s->gpu_instances, &error) != OSSA_OK)
        return fail("creating instance buffers", &error);
    s->characters = calloc(s->instances, sizeof *s->characters);
    s->clips = calloc(s->instances, sizeof *s->clips);
    s->clocks = calloc(s->instances, sizeof *s->clocks);
    s->placements = calloc((size_t)s->instances * 12, sizeof *s->placements);
    s->cpu_capacity = ossa_model_max_vertex_count(s->model);
    s->cpu_positions = malloc(sizeof(float) * 3 * ((size_t)s->cpu_capacity + 1));
    s->cpu_normals = malloc(sizeof(float) * 3 * ((size_t)s->cpu_capacity + 1));
    if (!s->characters || !s->clips || !s->clocks || !s->placements || !s->cpu_positions ||
        !s->cpu_normals) {
        fprintf(stderr, "ossa: out of memory\n");
        return 0;
    }
    for (uint32_t i = 0; i < s->instances; i++)
        if (ossa_character_create(s->model, &s->characters[i], &error) != OSSA_OK)
            return fail("creating characters", &error);
    return 1;
}

int render_scene_open_markers(render_scene *s) {
    if (!s->mix || !ossa_mix_file_ik_count(s->mix->file)) return 1;
    static const float target_color[3] = {0.95f, 0.25f, 0.2f},
                       ground_color[3] = {0.45f, 0.6f, 0.4f};
    uint32_t count = ossa_mix_file_ik_count(s->mix->file);
    s->has_markers = 1;
    return render_markers_open(&s->targets, s->context, target_color, count) &&
           render_markers_open(&s->grounds, s->context, ground_color, count);
}

void render_scene_root_ground(const render_scene *s, float out[3]) {
    out[0] = out[1] = out[2] = 0;
    if (!s->mix || !s->mix->root_motion) return;
    const float *w =
        ossa_character_world(s->characters[0]) + 12 * (size_t)s->mix->root_motion->node;
    out[0] = w[3], out[2] = w[11];
}

/* A 3x4 placement: columns x, y, z scaled by sx, sy, sz, then the translation t. */
static void placement(float *m, const float x[3], const float y[3], const float z[3], float sx,
                      float sy, float sz, const float t[3]) {
    for (int r = 0; r < 3; r++) {
        m[4 * r + 0] = x[r] * sx, m[4 * r + 1] = y[r] * sy, m[4 * r + 2] = z[r] * sz;
        m[4 * r + 3] = t[r];
    }
}

int render_scene_draw_markers(render_scene *s, ossa_gpu_renderer *renderer) {
    if (!s->has_markers) return 1;
    uint32_t count = ossa_mix_file_ik_count(s->mix->file), grounds = 0;
    float targets[12 * 16], planes[12 * 16], size = s->spacing > 0 ? s->spacing : 1;
    static const float ex[3] = {1, 0, 0}, ey[3] = {0, 1, 0}, ez[3] = {0, 0, 1};
    if (count > 16) count = 16;
    for (uint32_t k = 0; k < count; k++) {
        float t[3];
        ossa_mix_file_ik_target(s->mix->file, k, s->characters[0], t);
        placement(targets + 12 * k, ex, ey, ez, 0.04f * size, 0.04f * size, 0.04f * size, t);
        const ossa_mix_ik *entry = ossa_mix_file_ik(s->mix->file, k);
        if (!entry->has_ground) continue;
        /* a flat box on the plane, its top face on it, under the character's root */
        const float *p = entry->ground_point, *n0 = entry->ground_normal;
        float len = sqrtf(n0[0] * n0[0] + n0[1] * n0[1] + n0[2] * n0[2]);
        float n[3] = {n0[0] / len, n0[1] / len, n0[2] / len}, c[3], x[3], z[3];
        if (n[1] < 0) n[0] = -n[0], n[1] = -n[1], n[2] = -n[2];
        render_scene_root_ground(s, c);
        c[1] = p[1] - (n[0] * (c[0] - p[0]) + n[2] * (c[2] - p[2])) / n[1];
        float thick = 0.01f * size;
        for (int i = 0; i < 3; i++)
            c[i] -= 0.5f * thick * n[i];
        /* x across z: (n x ez) normalised, then z = x x n */
        x[0] = n[1], x[1] = -n[0], x[2] = 0;
        len = sqrtf(x[0] * x[0] + x[1] * x[1]);
        x[0] /= len, x[1] /= len;
        z[0] = x[1] * n[2] - x[2] * n[1], z[1] = x[2] * n[0] - x[0] * n[2],
        z[2] = x[0] * n[1] - x[1] * n[0];
        placement(planes + 12 * grounds++, x, n, z, 3 * size, thick, 3 * size, c);
    }
    return render_markers_draw(&s->grounds, renderer, planes, grounds) &&
           render_markers_draw(&s->targets, renderer, targets, count);
}

void render_scene_close(render_scene *s) {
    if (s->has_markers) render_markers_close(&s->targets), render_markers_close(&s->grounds);
    for (uint32_t i = 0; s->characters && i < s->instances; i++)
        ossa_character_free(s->characters[i]);
    free(s->characters);
    free(s->clips);
    free(s->clocks);
    free(s->placements);
    free(s->cpu_positions);
    free(s->cpu_normals);
    free(s->selection);
    free(s->selection_times);
    ossa_gpu_instances_destroy(s->gpu_instances);
    ossa_gpu_model_destroy(s->gpu);
    ossa_model_free(s->model);
    memset(s, 0, sizeof *s);
}

uint32_t render_scene_clip_count(const render_scene *s) {
    return ossa_model_clip_count(s->model);
}

const ossa_clip *render_scene_clip(const render_scene *s, int clip) {
    return clip >= 0 ? ossa_model_clip(s->model, (uint32_t)clip) : NULL;
}

int render_scene_select(render_scene *s, const uint32_t *clips, uint32_t count) {
    free(s->selection);
    free(s->selection_times);
    s->selection = malloc(sizeof *s->selection * (count + 1));
    s->selection_times = malloc(sizeof *s->selection_times * (count + 1));
    s->selection_count = s->selection && s->selection_times ? count : 0;
    for (uint32_t i = 0; i < s->selection_count; i++)
        s->selection[i] = ossa_model_clip(s->model, clips[i]);
    return s->selection_count == count;
}

int render_scene_range(const render_scene *s, int clip, double *start, double *duration) {
    const ossa_clip *c = render_scene_clip(s, clip);
    uint32_t n = clip == RENDER_SCENE_SELECTION ? s->selection_count : c != NULL;
    const ossa_clip *const *clips = clip == RENDER_SCENE_SELECTION ? s->selection : &c;
    double lo = INFINITY, hi = -INFINITY;
    for (uint32_t i = 0; i < n; i++) {
        lo = fmin(lo, ossa_clip_start(clips[i]));
        hi = fmax(hi, ossa_clip_end(clips[i]));
    }
    *start = n ? lo : 0;
    *duration = n ? hi - lo : 0;
    return n > 0;
}

double render_scene_time(const render_scene *s, int clip, double clock, int loop) {
    const ossa_clip *c = render_scene_clip(s, clip);
    if (c) return ossa_clip_time(c, clock, loop ? OSSA_WRAP_LOOP : OSSA_WRAP_CLAMP);
    double start, duration;
    if (!render_scene_range(s, clip, &start, &duration)) return 0;
    if (!(duration > 0) || isnan(clock)) return start;
    if (loop) {
        double r = fmod(clock - start, duration);
        return start + (r < 0 ? r + duration : r);
    }
    return fmin(fmax(clock, start), start + duration);
}

/* Where instance i stands: a square grid centred on the origin. */
static void instance_offset(const render_scene *s, uint32_t i, float out[3]) {
    uint32_t cols = (uint32_t)ceil(sqrt((double)s->instances));
    uint32_t rows = (s->instances + cols - 1) / cols;
    out[0] = ((float)(i % cols) - 0.5f * (float)(cols - 1)) * s->spacing;
    out[1] = 0;
    out[2] = ((float)(i / cols) - 0.5f * (float)(rows - 1)) * s->spacing;
}

/* The selected clips together on every character: each clip at the time clamped to its own
 * range (clips of one file share its timeline), writing only what it animates. */
static void evaluate_selection(render_scene *s, const double *times) {
    for (uint32_t i = 0; i < s->instances; i++) {
        for (uint32_t k = 0; k < s->selection_count; k++)
            s->selection_times[k] = ossa_clip_time(s->selection[k], times[i], OSSA_WRAP_CLAMP);
        ossa_clips_sample(ossa_model_rig(s->model), s->selection, s->selection_times,
                          s->selection_count, NULL, ossa_character_pose(s->characters[i]));
        ossa_character_sample_materials(s->characters[i], s->selection, s->selection_times,
                                        s->selection_count);
        ossa_character_finish(s->characters[i]);
    }
}

void render_scene_evaluate(render_scene *s, int clip, const double *times) {
    if (s->mix) {
        ossa_error error;
        for (uint32_t i = 0; i < s->instances; i++)
            if (sample_mix_pose(s->mix, times[i], 1, s->characters[i], &error) != OSSA_OK)
                fail("mixing", &error);
        return;
    }
    if (clip == RENDER_SCENE_SELECTION) {
        evaluate_selection(s, times);
        return;
    }
    const ossa_clip *c = render_scene_clip(s, clip);
    for (uint32_t i = 0; i < s->instances; i++) {
        s->clips[i] = c;
        s->clocks[i] = c ? times[i] : 0;
    }
    /* times are clip seconds already: clamping leaves them as they are */
    ossa_error error;
    if (ossa_characters_update(s->characters, s->instances, s->clips, s->clocks, OSSA_WRAP_CLAMP,
                               NULL, &error) != OSSA_OK)
        fail("updating the characters", &error); /* the clips are the model's: cannot happen */
}

int render_scene_upload(render_scene *s) {
    for (uint32_t i = 0; i < s->instances; i++) {
        float *m = s->placements + 12 * (size_t)i, offset[3];
        instance_offset(s, i, offset);
        memset(m, 0, 12 * sizeof(float));
        m[0] = m[5] = m[10] = 1;
        m[3] = offset[0], m[7] = offset[1], m[11] = offset[2];
    }
    ossa_error error;
    if (ossa_gpu_instances_upload(s->gpu_instances, s->characters, s->instances, s->placements,
                                  &error) != OSSA_OK)
        return fail("uploading the characters", &error);
    return 1;
}

/* Skins every primitive of character i on the CPU and draws it, moved to its place. */
static int draw_cpu_instance(render_scene *s, ossa_gpu_renderer *renderer, ossa_skin_mode mode,
                             uint32_t i) {
    ossa_error error;
    for (uint32_t p = 0; p < ossa_model_primitive_count(s->model); p++) {
        const ossa_model_primitive *info = ossa_model_primitive_info(s->model, p);
        ossa_skin_output out = {0};
        out.positions = s->cpu_positions;
        out.normals = info->has_normals ? s->cpu_normals : NULL;
        if (ossa_character_skin(s->characters[i], p, mode, &out, s->cpu_capacity, &error) !=
                OSSA_OK ||
            ossa_gpu_model_set_vertices(s->gpu, p, out.positions, out.normals, info->vertex_count,
                                        &error) != OSSA_OK)
            return fail("skinning on the CPU", &error);
    }
    ossa_gpu_draw_desc desc = {0};
    desc.first_instance = i;
    desc.instance_count = 1;
    desc.vertices_skinned = 1;
    return ossa_gpu_renderer_draw_model(renderer, s->gpu, s->gpu_instances, &desc, &error) ==
               OSSA_OK ||
           fail("drawing", &error);
}

int render_scene_draw(render_scene *s, ossa_gpu_renderer *renderer, ossa_gpu_palette_path path,
                      ossa_gpu_skinning_method method, int cpu_skinning) {
    if (cpu_skinning) {
        ossa_skin_mode mode = method == OSSA_GPU_DUAL_QUATERNION ? OSSA_SKIN_DQS : OSSA_SKIN_LBS;
        for (uint32_t i = 0; i < s->instances; i++)
            if (!draw_cpu_instance(s, renderer, mode, i)) return 0;
        return 1;
    }
    ossa_gpu_draw_desc desc = {0};
    desc.path = path;
    desc.method = method;
    ossa_error error;
    return ossa_gpu_renderer_draw_model(renderer, s->gpu, s->gpu_instances, &desc, &error) ==
               OSSA_OK ||
           fail("drawing", &error);
}

/* Grows lo/hi by the GPU-skinned vertices of instance 0 as uploaded (every static copy of an
 * instanced node's primitives). */
static void grow_bounds(render_scene *s, float lo[3], float hi[3]) {
    ossa_gpu_draw_desc desc = {0};
    desc.instance_count = 1;
    for (uint32_t p = 0; p < ossa_model_primitive_count(s->model); p++) {
        const ossa_model_primitive *info = ossa_model_primitive_info(s->model, p);
        size_t n = (size_t)info->vertex_count * (info->instance_count ? info->instance_count : 1);
        float *positions = n > s->cpu_capacity ? malloc(sizeof(float) * 3 * n) : s->cpu_positions;
        if (positions && ossa_gpu_model_skin_feedback(s->context, s->gpu, p, s->gpu_instances,
                                                      &desc, positions, NULL, n, NULL) == OSSA_OK)
            for (size_t v = 0; v < n; v++)
                for (int c = 0; c < 3; c++) {
                    float x = positions[3 * v + c];
                    if (x < lo[c]) lo[c] = x;
                    if (x > hi[c]) hi[c] = x;
                }
        if (positions != s->cpu_positions) free(positions);
    }
}

void render_scene_bounds(render_scene *s, int clip, int samples, float lo[3], float hi[3]) {
    for (int c = 0; c < 3; c++)
        lo[c] = INFINITY, hi[c] = -INFINITY;
    double *times = calloc(s->instances, sizeof(double));
    float saved_spacing = s->spacing;
    s->spacing = 0; /* every instance at the origin while measuring one */
    double start, duration;
    render_scene_range(s, clip, &start, &duration);
    for (int k = 0; times && k < samples; k++) {
        double t = start + duration * k / (samples > 1 ? samples - 1 : 1);
        for (uint32_t i = 0; i < s->instances; i++)
            times[i] = t;
        render_scene_evaluate(s, clip, times);
        if (render_scene_upload(s)) grow_bounds(s, lo, hi);
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
    const ossa_clip *c = render_scene_clip(s, clip);
    if (clip == RENDER_SCENE_SELECTION)
        snprintf(buf, size, "%u animations together", s->selection_count);
    else if (!c)
        snprintf(buf, size, "rest pose");
    else if (ossa_clip_name(c))
        snprintf(buf, size, "%s", ossa_clip_name(c));
    else
        snprintf(buf, size, "animation %d", clip);
    return buf;
}
