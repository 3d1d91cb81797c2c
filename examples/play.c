/* play: load a glTF model (or ossa's built-in demo), play one animation on a character, skin
 * every primitive on the CPU and print where its vertices went.
 *
 *   usage: play [MODEL.gltf|MODEL.glb] [ANIMATION-INDEX] [FRAMES]
 *
 * Built against an installed ossa: with CMake (find_package(ossa), see CMakeLists.txt here)
 * or with pkg-config: cc play.c $(pkg-config --cflags --libs ossa).
 * Every buffer is made before the first frame: playing allocates nothing. */
#include <float.h>
#include <stdio.h>
#include <stdlib.h>

#include <ossa/demo.h>
#include <ossa/model.h>

static int fail(const char *what, const ossa_error *error) {
    char text[1024];
    ossa_error_format(error, text, sizeof text);
    fprintf(stderr, "play: %s: %s\n", what, text);
    return 1;
}

/* Prints the box around a primitive's skinned vertices. */
static void print_bounds(const ossa_model_primitive *p, const float *positions) {
    float lo[3] = {FLT_MAX, FLT_MAX, FLT_MAX}, hi[3] = {-FLT_MAX, -FLT_MAX, -FLT_MAX};
    for (uint32_t v = 0; v < p->vertex_count; v++)
        for (int c = 0; c < 3; c++) {
            float x = positions[3 * v + c];
            lo[c] = x < lo[c] ? x : lo[c];
            hi[c] = x > hi[c] ? x : hi[c];
        }
    printf("    mesh %u/%u: %u vertices in [%.3f %.3f %.3f] .. [%.3f %.3f %.3f]\n", p->mesh,
           p->primitive, p->vertex_count, lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]);
}

static int play(const ossa_model *model, uint32_t animation, int frames) {
    const ossa_clip *clip = ossa_model_clip(model, animation);
    if (!clip) {
        fprintf(stderr, "play: the model has %u animations\n", ossa_model_clip_count(model));
        return 1;
    }
    ossa_character *character;
    ossa_error error;
    if (ossa_character_create(model, &character, &error)) return fail("character", &error);
    size_t capacity = ossa_model_max_vertex_count(model);
    float *positions = malloc((capacity ? capacity : 1) * 3 * sizeof(float));
    int status = positions ? 0 : 1;
    const char *name = ossa_clip_name(clip);
    printf("animation %u '%s': %.3f s\n", animation, name ? name : "", ossa_clip_duration(clip));
    for (int f = 0; f < frames && !status; f++) {
        double clock = ossa_clip_start(clip) + ossa_clip_duration(clip) * f / 4.0;
        if (ossa_character_update(character, clip, clock, OSSA_WRAP_LOOP, &error)) {
            status = fail("update", &error);
            break;
        }
        printf("  clock %.3f s\n", clock);
        ossa_skin_output out = {positions, 0, NULL, 0, NULL, 0};
        for (uint32_t p = 0; p < ossa_model_primitive_count(model) && !status; p++) {
            if (ossa_character_skin(character, p, OSSA_SKIN_LBS, &out, capacity, &error))
                status = fail("skin", &error);
            else
                print_bounds(ossa_model_primitive_info(model, p), positions);
        }
    }
    free(positions);
    ossa_character_free(character);
    return status;
}

int main(int argc, char **argv) {
    ossa_document *doc = NULL;
    ossa_model *model = NULL;
    ossa_error error;
    ossa_result result = argc > 1 ? ossa_document_load_file(argv[1], NULL, &doc, &error)
                                  : ossa_demo_load(NULL, &doc, &error);
    if (result != OSSA_OK) return fail("load", &error);
    result = ossa_model_create(doc, NULL, &model, &error);
    ossa_document_free(doc); /* the model keeps what it needs */
    if (result != OSSA_OK) return fail("model", &error);
    const ossa_rig *rig = ossa_model_rig(model);
    printf("%s: %u nodes, %u primitives, %u skins, %u animations\n", ossa_model_file(model),
           rig->node_count, ossa_model_primitive_count(model), rig->skin_count,
           ossa_model_clip_count(model));
    int frames = argc > 3 ? atoi(argv[3]) : 4;
    int status = play(model, argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 10) : 0, frames);
    ossa_model_free(model);
    return status;
}
