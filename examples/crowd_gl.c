/* crowd_gl: a crowd drawn headless with libossa-gl. N characters of one model, each at its own
 * time of one animation, updated over a thread pool, placed on a grid and drawn offscreen with
 * one instanced draw per primitive. Writes nothing: prints how much of the frame the crowd
 * covers and the centre pixel.
 *
 *   usage: crowd_gl [MODEL.gltf|MODEL.glb] [CHARACTERS] [ANIMATION-INDEX]
 *
 * Built against an installed ossa-gl: with CMake (find_package(ossa COMPONENTS gl), ossa::gl,
 * see CMakeLists.txt here) or with pkg-config: cc crowd_gl.c $(pkg-config --cflags --libs
 * ossa-gl). Needs an EGL driver (Mesa's llvmpipe draws without a GPU). */
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ossa/demo.h>
#include <ossa/gl.h>

enum { WIDTH = 320, HEIGHT = 240 };

typedef struct crowd {
    ossa_model *model;
    uint32_t count;
    ossa_character **characters;
    const ossa_clip **clips;
    double *clocks;
    float *placements;  /* 12 floats (3x4 rows) per character */
    float lo[3], hi[3]; /* box around the whole crowd */
} crowd;

static int fail(const char *what, const ossa_error *error) {
    char text[1024];
    ossa_error_format(error, text, sizeof text);
    fprintf(stderr, "crowd_gl: %s: %s\n", what, text);
    return 1;
}

/* Box around character 0's skinned vertices (skinned on the CPU once, to place the crowd). */
static int character_bounds(const crowd *c, float lo[3], float hi[3]) {
    uint32_t capacity = ossa_model_max_vertex_count(c->model);
    float *positions = malloc(sizeof(float) * 3 * ((size_t)capacity + 1));
    if (!positions) return 0;
    for (int k = 0; k < 3; k++)
        lo[k] = FLT_MAX, hi[k] = -FLT_MAX;
    ossa_skin_output out = {positions, 0, NULL, 0, NULL, 0};
    for (uint32_t p = 0; p < ossa_model_primitive_count(c->model); p++) {
        if (ossa_character_skin(c->characters[0], p, OSSA_SKIN_LBS, &out, capacity, NULL)) continue;
        for (uint32_t v = 0; v < ossa_model_primitive_info(c->model, p)->vertex_count; v++)
            for (int k = 0; k < 3; k++) {
                float x = positions[3 * v + k];
                lo[k] = x < lo[k] ? x : lo[k];
                hi[k] = x > hi[k] ? x : hi[k];
            }
    }
    free(positions);
    return lo[0] <= hi[0];
}

/* Characters on a square grid, one and a half character widths apart. */
static void place(crowd *c) {
    float lo[3] = {-1, -1, -1}, hi[3] = {1, 1, 1};
    character_bounds(c, lo, hi);
    float size = hi[0] - lo[0] > hi[2] - lo[2] ? hi[0] - lo[0] : hi[2] - lo[2];
    float spacing = 1.5f * (size > 0 ? size : 1);
    uint32_t cols = 1;
    while (cols * cols < c->count)
        cols++;
    for (uint32_t i = 0; i < c->count; i++) {
        float *m = c->placements + 12 * (size_t)i;
        memset(m, 0, 12 * sizeof(float));
        m[0] = m[5] = m[10] = 1;
        m[3] = spacing * (float)(i % cols), m[11] = spacing * (float)(i / cols);
    }
    float extent = spacing * (float)(cols - 1);
    for (int k = 0; k < 3; k++)
        c->lo[k] = lo[k], c->hi[k] = hi[k] + (k == 1 ? 0 : extent);
}

/* Every character plays `clip`, character i ahead of the first by i/N of the clip. */
static int update(crowd *c, const ossa_clip *clip, double clock, ossa_thread_pool *pool) {
    for (uint32_t i = 0; i < c->count; i++) {
        c->clips[i] = clip;
        c->clocks[i] = clock + (clip ? ossa_clip_duration(clip) * i / c->count : 0);
    }
    ossa_error error;
    if (ossa_characters_update(c->characters, c->count, c->clips, c->clocks, OSSA_WRAP_LOOP, pool,
                               &error))
        return fail("update", &error);
    return 0;
}

/* Draws the crowd once and prints what the frame shows. */
static int draw(crowd *c, ossa_gpu_context *context) {
    ossa_gpu_model *gpu = NULL;
    ossa_gpu_instances *instances = NULL;
    ossa_gpu_renderer *renderer = NULL;
    uint8_t *rgb = malloc((size_t)WIDTH * HEIGHT * 3);
    ossa_error error;
    int status = 0;
    if (!rgb) status = 1;
    if (!status && ossa_gpu_model_create(context, c->model, NULL, &gpu, &error))
        status = fail("upload the model", &error);
    if (!status && ossa_gpu_instances_create(gpu, &instances, &error))
        status = fail("instance buffers", &error);
    if (!status && ossa_gpu_renderer_create(context, WIDTH, HEIGHT, &renderer, &error))
        status = fail("renderer", &error);
    /* one frame: stream every character's palettes and weights, then one draw per primitive */
    if (!status &&
        ossa_gpu_instances_upload(instances, c->characters, c->count, c->placements, &error))
        status = fail("upload the characters", &error);
    if (!status) {
        ossa_gpu_camera camera;
        ossa_gpu_camera_frame_bounds(&camera, c->lo, c->hi, 0.6f, 0.5f, 1.0f);
        ossa_gpu_renderer_begin(renderer, &camera, WIDTH, HEIGHT, 0, 0, 0);
        if (ossa_gpu_renderer_draw_model(renderer, gpu, instances, NULL, &error))
            status = fail("draw", &error);
    }
    if (!status) {
        ossa_gpu_renderer_read_rgb(renderer, rgb);
        uint8_t background[3];
        ossa_gpu_renderer_background(background);
        size_t covered = 0;
        for (size_t i = 0; i < (size_t)WIDTH * HEIGHT; i++)
            covered += memcmp(rgb + 3 * i, background, 3) != 0;
        const uint8_t *centre = rgb + 3 * ((size_t)WIDTH * (HEIGHT / 2) + WIDTH / 2);
        printf("frame %dx%d: %zu foreground pixels (%.1f%%), centre pixel %u %u %u\n", WIDTH,
               HEIGHT, covered, 100.0 * (double)covered / (WIDTH * HEIGHT), centre[0], centre[1],
               centre[2]);
        if (!covered) {
            fprintf(stderr, "crowd_gl: the frame is empty\n");
            status = 1;
        }
    }
    ossa_gpu_renderer_destroy(renderer);
    ossa_gpu_instances_destroy(instances);
    ossa_gpu_model_destroy(gpu);
    free(rgb);
    return status;
}

int main(int argc, char **argv) {
    ossa_document *doc = NULL;
    ossa_error error;
    crowd c = {0};
    ossa_result result = argc > 1 ? ossa_document_load_file(argv[1], NULL, &doc, &error)
                                  : ossa_demo_load(NULL, &doc, &error);
    if (result) return fail("load", &error);
    result = ossa_model_create(doc, NULL, &c.model, &error);
    ossa_document_free(doc); /* the model (and the GPU model) keep what they need */
    if (result) return fail("model", &error);
    long count = argc > 2 ? strtol(argv[2], NULL, 10) : 16;
    uint32_t animation = argc > 3 ? (uint32_t)strtoul(argv[3], NULL, 10) : 0;
    c.count = count > 0 && count <= 100000 ? (uint32_t)count : 16;
    c.characters = calloc(c.count, sizeof *c.characters);
    c.clips = calloc(c.count, sizeof *c.clips);
    c.clocks = calloc(c.count, sizeof *c.clocks);
    c.placements = calloc((size_t)c.count * 12, sizeof *c.placements);
    int status = c.characters && c.clips && c.clocks && c.placements ? 0 : 1;
    for (uint32_t i = 0; i < c.count && !status; i++)
        if (ossa_character_create(c.model, &c.characters[i], &error))
            status = fail("character", &error);
    const ossa_clip *clip = ossa_model_clip(c.model, animation);
    ossa_thread_pool *pool = NULL;
    ossa_gpu_context *context = NULL;
    if (!status && ossa_thread_pool_create(0, &pool)) {
        fprintf(stderr, "crowd_gl: no thread pool\n");
        status = 1;
    }
    if (!status) place(&c);
    if (!status) status = update(&c, clip, clip ? ossa_clip_start(clip) : 0, pool);
    if (!status && ossa_gpu_context_create_headless(&context, &error))
        status = fail("headless OpenGL", &error);
    if (!status) {
        const char *name = clip ? ossa_clip_name(clip) : NULL;
        printf("%s: %u characters, %u primitives (one instanced draw each), animation %u '%s'\n",
               ossa_model_file(c.model), c.count, ossa_model_primitive_count(c.model), animation,
               clip ? (name ? name : "") : "rest pose");
        status = draw(&c, context);
    }
    ossa_gpu_context_destroy(context);
    ossa_thread_pool_free(pool);
    for (uint32_t i = 0; c.characters && i < c.count; i++)
        ossa_character_free(c.characters[i]);
    free(c.characters);
    free(c.clips);
    free(c.clocks);
    free(c.placements);
    ossa_model_free(c.model);
    return status;
}
