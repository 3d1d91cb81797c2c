/* EXT_meshopt_compression, lossless modes: every model with golden values is compressed here with
 * libmeshoptimizer's encoders (ATTRIBUTES, TRIANGLES, INDICES, no filter) into a GLB whose views
 * decode into a fallback buffer. Loaded by ossa, every view holds the original bytes (TRIANGLES:
 * the same triangles, which the encoder may rotate) and the golden values hold exactly as for the
 * original file, through the library and through `ossa sample --json`. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anim_fixture.h"
#include "meshopt_pack.h"
#include "test_support.h"

static uint32_t packed_models = 0, views_by_mode[3];

static uint32_t read_index(const uint8_t *p, uint32_t size) {
    if (size == 2) return (uint32_t)p[0] | (uint32_t)p[1] << 8;
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Triangles (a, b, c) equal up to a rotation that keeps the winding. */
static int same_triangles(const uint8_t *x, const uint8_t *y, uint64_t length, uint32_t size) {
    for (uint64_t t = 0; t < length / (3 * size); t++) {
        uint32_t a[3], b[3];
        for (int k = 0; k < 3; k++) {
            a[k] = read_index(x + (t * 3 + (uint64_t)k) * size, size);
            b[k] = read_index(y + (t * 3 + (uint64_t)k) * size, size);
        }
        int found = 0;
        for (int r = 0; r < 3 && !found; r++)
            found = a[0] == b[r] && a[1] == b[(r + 1) % 3] && a[2] == b[(r + 2) % 3];
        if (!found) return 0;
    }
    return 1;
}

static uint32_t index_size(const ossa_document *doc, uint32_t view) {
    for (uint32_t a = 0; a < doc->accessor_count; a++)
        if (doc->accessors[a].buffer_view == (int32_t)view)
            return ossa_component_size(doc->accessors[a].component_type);
    return 4;
}

/* Every buffer view of the copy holds the original's bytes. */
static void check_views(const char *model, const char *copy, const pack_result *p) {
    ossa_document *a = NULL, *b = NULL;
    ossa_error error;
    CHECKF(ossa_document_load_file(ossa_test_shared_path(model), NULL, &a, &error) == OSSA_OK,
           "%s loads", model);
    int loaded = ossa_document_load_file(copy, NULL, &b, &error) == OSSA_OK;
    CHECKF(loaded, "%s loads: %s at %s", copy, error.message, error.path);
    if (a && b) {
        CHECK(a->buffer_view_count == b->buffer_view_count);
        for (uint32_t i = 0; i < a->buffer_view_count && i < b->buffer_view_count; i++) {
            const ossa_buffer_view *va = &a->buffer_views[i], *vb = &b->buffer_views[i];
            CHECK(va->byte_length == vb->byte_length);
            const uint8_t *x = a->buffers[va->buffer].data + va->byte_offset;
            const uint8_t *y = b->buffers[vb->buffer].data + vb->byte_offset;
            CHECKF(vb->buffer == (p->view_mode[i] == PACK_PLAIN ? 0 : 1),
                   "%s view %u is in the buffer its mode says", copy, i);
            if (p->view_mode[i] == PACK_TRIANGLES)
                CHECKF(same_triangles(x, y, va->byte_length, index_size(a, i)),
                       "%s view %u (TRIANGLES): the original triangles", copy, i);
            else
                CHECKF(!memcmp(x, y, (size_t)va->byte_length),
                       "%s view %u (mode %d): the original bytes", copy, i, p->view_mode[i]);
        }
    }
    ossa_document_free(a);
    ossa_document_free(b);
}

static void check_golden_library(const char *copy, const cJSON *golden, const char *name) {
    int anim = cJSON_GetObjectItem(golden, "animation")->valueint;
    double tol = cJSON_GetObjectItem(golden, "tolerance")->valuedouble;
    double tol_u = cJSON_GetObjectItem(golden, "tolerance_unitless")->valuedouble;
    anim_fixture f;
    int loaded = anim_fixture_load(&f, copy, NULL);
    CHECKF(loaded, "%s: %s loads", name, copy);
    if (!loaded) return;
    int exists = anim >= 0 && (uint32_t)anim < ossa_clip_set_count(f.clips);
    CHECKF(exists, "%s: animation %d exists in %s", name, anim, copy);
    const cJSON *samples = exists ? cJSON_GetObjectItem(golden, "samples") : NULL, *sample;
    cJSON_ArrayForEach(sample, samples) {
        double t = cJSON_GetObjectItem(sample, "time")->valuedouble;
        anim_fixture_eval(&f, ossa_clip_set_clip(f.clips, anim), (float)t, NULL);
        cJSON *ours = anim_fixture_frame_json(&f);
        char label[700];
        snprintf(label, sizeof label, "%s [compressed %s] t=%.9g", name, copy, t);
        anim_compare_sample(sample, ours, tol, tol_u, label);
        cJSON_Delete(ours);
    }
    anim_fixture_free(&f);
}

/* The CLI on the same copy: `ossa sample --json` at the golden times. */
static void check_golden_cli(const char *copy, const cJSON *golden, const char *name) {
    int anim = cJSON_GetObjectItem(golden, "animation")->valueint;
    double tol = cJSON_GetObjectItem(golden, "tolerance")->valuedouble;
    double tol_u = cJSON_GetObjectItem(golden, "tolerance_unitless")->valuedouble;
    char args[8192];
    size_t len = (size_t)snprintf(args, sizeof args, "sample '%s' --anim %d --json --vertices 0",
                                  copy, anim);
    const cJSON *sample;
    cJSON_ArrayForEach(sample, cJSON_GetObjectItem(golden, "samples")) {
        if (len + 40 < sizeof args)
            len += (size_t)snprintf(args + len, sizeof args - len, " --time %.17g",
                                    cJSON_GetObjectItem(sample, "time")->valuedouble);
    }
    char *out = NULL;
    int rc = ossa_test_run_cli(args, &out, NULL);
    CHECKF(rc == 0, "%s: ossa sample on %s exits 0 (%d)", name, copy, rc);
    cJSON *ours = out ? cJSON_Parse(out) : NULL;
    free(out);
    CHECKF(ours != NULL, "%s: ossa sample prints JSON", name);
    const cJSON *mine = cJSON_GetObjectItem(ours, "samples");
    CHECK(cJSON_GetArraySize(mine) == cJSON_GetArraySize(cJSON_GetObjectItem(golden, "samples")));
    int i = 0;
    const cJSON *samples = ours ? cJSON_GetObjectItem(golden, "samples") : NULL;
    cJSON_ArrayForEach(sample, samples) {
        const cJSON *m = cJSON_GetArrayItem(mine, i++);
        if (!m) break;
        char label[700];
        snprintf(label, sizeof label, "%s [cli compressed %s] t=%.9g", name, copy,
                 cJSON_GetObjectItem(sample, "time")->valuedouble);
        anim_compare_sample(sample, m, tol, tol_u, label);
    }
    cJSON_Delete(ours);
}

static void check_golden(const char *path, void *user) {
    (void)user;
    const char *base = strrchr(path, '/');
    if (strncmp(base ? base + 1 : path, "anim", 4) != 0) return;
    size_t size;
    char *text = (char *)ossa_test_read_file(path, &size);
    cJSON *golden = text ? cJSON_Parse(text) : NULL;
    free(text);
    CHECKF(golden != NULL, "%s parses", path);
    if (!golden) return;
    const char *name = path + strlen(ossa_test_shared_dir()) + 1;
    const char *model = cJSON_GetObjectItem(golden, "model")->valuestring;
    for (int triangles = 1; triangles >= 0; triangles--) {
        pack_result p;
        int packed = pack_model(ossa_test_shared_path(model), triangles, &p);
        CHECKF(packed, "%s compresses", model);
        if (!packed) continue;
        char copy[64];
        snprintf(copy, sizeof copy, "packed_%u_%s.glb", packed_models++,
                 triangles ? "triangles" : "indices");
        CHECKF(pack_write_file(copy, p.glb, p.glb_size), "%s written", copy);
        for (int m = 0; m < 3; m++)
            views_by_mode[m] += p.count[m];
        CHECKF(p.count[PACK_ATTRIBUTES] > 0, "%s: some views compressed", model);
        check_views(model, copy, &p);
        check_golden_library(copy, golden, name);
        if (triangles) check_golden_cli(copy, golden, name);
        pack_result_free(&p);
    }
    cJSON_Delete(golden);
}

int main(void) {
    char golden_dir[4096];
    snprintf(golden_dir, sizeof golden_dir, "%s", ossa_test_shared_path("golden"));
    ossa_test_walk(golden_dir, ".json", check_golden, NULL);
    CHECKF(packed_models >= 60, "compressed %u copies", packed_models);
    CHECKF(views_by_mode[PACK_ATTRIBUTES] > 0 && views_by_mode[PACK_TRIANGLES] > 0 &&
               views_by_mode[PACK_INDICES] > 0,
           "views per mode: ATTRIBUTES %u, TRIANGLES %u, INDICES %u",
           views_by_mode[PACK_ATTRIBUTES], views_by_mode[PACK_TRIANGLES],
           views_by_mode[PACK_INDICES]);
    printf("meshopt_lossless: %u compressed copies; views: ATTRIBUTES %u, TRIANGLES %u, INDICES "
           "%u\n",
           packed_models, views_by_mode[PACK_ATTRIBUTES], views_by_mode[PACK_TRIANGLES],
           views_by_mode[PACK_INDICES]);
    return ossa_test_finish("meshopt_lossless");
}
