/* What the runtime API refuses: every check is an OSSA_ERROR_ARGUMENT with a message, and nothing
 * is written (outputs are filled with a guard pattern and compared afterwards). */
#include <stdlib.h>
#include <string.h>

#include "ossa/model.h"
#include "test_support.h"

#define GUARD 0x5A

static ossa_model *load(const char *relative, int dual_quats, int skip_cpu) {
    ossa_document *doc = NULL;
    ossa_model *model = NULL;
    if (ossa_document_load_file(ossa_test_shared_path(relative), NULL, &doc, NULL) != OSSA_OK)
        return NULL;
    ossa_model_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.dual_quaternions = dual_quats;
    desc.skip_cpu_skinning = skip_cpu;
    CHECK(ossa_model_create(doc, &desc, &model, NULL) == OSSA_OK);
    ossa_document_free(doc);
    return model;
}

static int all_guard(const void *data, size_t size) {
    const unsigned char *bytes = data;
    for (size_t i = 0; i < size; i++)
        if (bytes[i] != GUARD) return 0;
    return 1;
}

/* The call failed with ARGUMENT and said why. */
#define CHECK_REFUSED(call, error)                                                                 \
    do {                                                                                           \
        memset(&(error), 0, sizeof(error));                                                        \
        CHECK((call) == OSSA_ERROR_ARGUMENT);                                                      \
        CHECK((error).code == OSSA_ERROR_ARGUMENT && (error).message[0]);                          \
    } while (0)

static void check_init(const ossa_model *model) {
    ossa_error error;
    ossa_character *c = (ossa_character *)&error; /* must be reset to NULL */
    size_t size = ossa_character_size(model), align = ossa_character_alignment();
    unsigned char *memory = aligned_alloc(align, size + align);
    CHECK_REFUSED(ossa_character_init(model, NULL, size, &c, &error), error);
    CHECK(c == NULL && strstr(error.message, "no character memory"));
    memset(memory, GUARD, size + align);
    CHECK_REFUSED(ossa_character_init(model, memory + 8, size, &c, &error), error);
    CHECK_REFUSED(ossa_character_init(model, memory, size - 1, &c, &error), error);
    CHECK(c == NULL && all_guard(memory, size + align));
    CHECK(ossa_character_init(model, memory, size, &c, NULL) == OSSA_OK && c);
    free(memory);
    ossa_model *none = NULL;
    CHECK(ossa_model_create(NULL, NULL, &none, &error) == OSSA_ERROR_ARGUMENT && !none);
}

/* A clip of another model: refused by update, by crowds (before any character changes) and by
 * plain sampling; a cursor smaller than the clip's is refused too. */
static void check_foreign_clips(const ossa_model *fox, const ossa_model *man) {
    ossa_error error;
    ossa_character *a, *b;
    CHECK(ossa_character_create(fox, &a, NULL) == OSSA_OK);
    CHECK(ossa_character_create(fox, &b, NULL) == OSSA_OK);
    const ossa_clip *walk = ossa_model_clip(fox, 1), *foreign = ossa_model_clip(man, 0);
    size_t bytes = 12 * sizeof(float) * ossa_model_rig(fox)->node_count;
    float *before = malloc(bytes);
    CHECK(ossa_character_update(a, walk, 0.3, OSSA_WRAP_LOOP, NULL) == OSSA_OK);
    memcpy(before, ossa_character_world(a), bytes);
    CHECK_REFUSED(ossa_character_update(a, foreign, 0.1, OSSA_WRAP_LOOP, &error), error);
    CHECK(!memcmp(before, ossa_character_world(a), bytes));

    ossa_character *crowd[3] = {b, a, b};
    const ossa_clip *clips[3] = {walk, foreign, walk};
    double clocks[3] = {0.5, 0.5, 0.5};
    CHECK(ossa_character_update(b, NULL, 0, OSSA_WRAP_LOOP, NULL) == OSSA_OK);
    CHECK_REFUSED(ossa_characters_update(crowd, 3, clips, clocks, OSSA_WRAP_LOOP, NULL, &error),
                  error);
    CHECK(strstr(error.message, "character 1") != NULL);
    CHECK(!memcmp(before, ossa_character_world(a), bytes));
    ossa_character *with_null[2] = {a, NULL};
    CHECK_REFUSED(ossa_characters_update(with_null, 2, NULL, clocks, OSSA_WRAP_LOOP, NULL, &error),
                  error);
    CHECK_REFUSED(ossa_characters_update(crowd, 3, clips, NULL, OSSA_WRAP_LOOP, NULL, &error),
                  error);
    CHECK(!memcmp(before, ossa_character_world(a), bytes));
    /* a wrap outside the enum */
    const ossa_clip *walks[3] = {walk, walk, walk};
    CHECK_REFUSED(ossa_character_update(a, walk, 0.1, (ossa_wrap)7, &error), error);
    CHECK(strstr(error.message, "unknown wrap") != NULL);
    CHECK_REFUSED(ossa_characters_update(crowd, 3, walks, clocks, (ossa_wrap)-1, NULL, &error),
                  error);
    CHECK(!memcmp(before, ossa_character_world(a), bytes));

    /* A crowd large enough to be checked over the pool: still the first refused character is
     * named, and no character changes. */
    enum { LARGE = 3000 };
    ossa_character **large = malloc(LARGE * sizeof *large);
    const ossa_clip **large_clips = malloc(LARGE * sizeof *large_clips);
    double *large_clocks = malloc(LARGE * sizeof *large_clocks);
    for (int i = 0; i < LARGE; i++) {
        large[i] = b;
        large_clips[i] = walk;
        large_clocks[i] = 0.7;
    }
    large[2100] = a;
    large_clips[2100] = foreign;
    large[2900] = NULL;
    ossa_thread_pool *pool = NULL;
    CHECK(ossa_thread_pool_create(2, &pool) == OSSA_OK);
    memcpy(before, ossa_character_world(b), bytes);
    CHECK_REFUSED(ossa_characters_update(large, LARGE, large_clips, large_clocks, OSSA_WRAP_LOOP,
                                         pool, &error),
                  error);
    CHECK(strstr(error.message, "character 2100 ") != NULL);
    CHECK(!memcmp(before, ossa_character_world(b), bytes));
    large[2100] = b;
    large_clips[2100] = walk;
    CHECK_REFUSED(ossa_characters_update(large, LARGE, large_clips, large_clocks, OSSA_WRAP_LOOP,
                                         pool, &error),
                  error);
    CHECK(strstr(error.message, "character 2900 is NULL") != NULL);
    CHECK(!memcmp(before, ossa_character_world(b), bytes));
    large[2900] = b;
    CHECK(ossa_characters_update(large, LARGE, large_clips, large_clocks, OSSA_WRAP_LOOP, pool,
                                 NULL) == OSSA_OK);
    CHECK(memcmp(before, ossa_character_world(b), bytes) != 0); /* posed by walk, not at rest */
    ossa_thread_pool_free(pool);
    free(large), free(large_clips), free(large_clocks);

    const ossa_rig *rig = ossa_model_rig(fox);
    ossa_pose pose = {malloc(rig->node_count * sizeof(ossa_trs)),
                      malloc((rig->weight_total + 1) * sizeof(float))};
    memset(pose.local, GUARD, rig->node_count * sizeof(ossa_trs));
    CHECK(ossa_clip_sample(rig, foreign, 0.1f, NULL, &pose) == OSSA_ERROR_ARGUMENT);
    uint32_t keys[64];
    ossa_cursor short_cursor = {keys, ossa_cursor_size(walk) - 1};
    CHECK(ossa_cursor_size(walk) >= 1 && ossa_cursor_size(walk) <= 64);
    CHECK(ossa_clip_sample(rig, walk, 0.1f, &short_cursor, &pose) == OSSA_ERROR_ARGUMENT);
    CHECK(all_guard(pose.local, rig->node_count * sizeof(ossa_trs)));
    free(pose.local), free(pose.weights), free(before);
    ossa_character_free(a), ossa_character_free(b);
}

/* Skinning: a primitive out of range, outputs too small, DQS without tables, a model built
 * without CPU skinning. */
static void check_skin(const ossa_model *plain, const ossa_model *gpu_only) {
    ossa_error error;
    ossa_character *c, *g;
    CHECK(ossa_character_create(plain, &c, NULL) == OSSA_OK);
    CHECK(ossa_character_create(gpu_only, &g, NULL) == OSSA_OK);
    uint32_t n = ossa_model_primitive_info(plain, 0)->vertex_count;
    float *positions = malloc(3 * sizeof(float) * n);
    memset(positions, GUARD, 3 * sizeof(float) * n);
    ossa_skin_output out = {positions, 0, NULL, 0, NULL, 0};
    CHECK_REFUSED(ossa_character_skin(c, 1, OSSA_SKIN_LBS, &out, n, &error), error);
    CHECK_REFUSED(ossa_character_skin(c, 0, OSSA_SKIN_LBS, &out, n - 1, &error), error);
    CHECK_REFUSED(ossa_character_skin(c, 0, OSSA_SKIN_DQS, &out, n, &error), error);
    CHECK(strstr(error.message, "dual_quaternions") != NULL);
    CHECK_REFUSED(ossa_character_skin(c, 0, (ossa_skin_mode)7, &out, n, &error), error);
    CHECK_REFUSED(ossa_character_skin(g, 0, OSSA_SKIN_LBS, &out, n, &error), error);
    CHECK_REFUSED(ossa_character_skin(c, 0, OSSA_SKIN_LBS, NULL, n, &error), error);
    CHECK(all_guard(positions, 3 * sizeof(float) * n));
    CHECK(ossa_character_skin(c, 0, OSSA_SKIN_LBS, &out, n, NULL) == OSSA_OK);
    CHECK(!all_guard(positions, 3 * sizeof(float) * n));
    free(positions);
    ossa_character_free(c), ossa_character_free(g);
}

int main(void) {
    ossa_model *fox = load("models/Fox/Fox.glb", 0, 0);
    ossa_model *fox_gpu = load("models/Fox/Fox.glb", 0, 1);
    ossa_model *man = load("models/CesiumMan/glTF-Binary/CesiumMan.glb", 0, 0);
    CHECK(fox && fox_gpu && man);
    if (fox && fox_gpu && man) {
        check_init(fox);
        check_foreign_clips(fox, man);
        check_skin(fox, fox_gpu);
    }
    ossa_model_free(fox), ossa_model_free(fox_gpu), ossa_model_free(man);
    return ossa_test_finish("model_misuse");
}
