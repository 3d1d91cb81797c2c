/* Property tests on every shared model: the cursor gives bit-identical poses to the stateless
 * search over long random time sequences, so do the portable and the AVX-512 batches of tracks
 * (where the CPU runs them), sampling writes the whole pose whatever it held, and reordering the
 * glTF nodes of a file (a shuffled copy written by this test) changes no result. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "anim/track_batch.h"
#include "anim_fixture.h"
#include "test_support.h"

static uint64_t rng = 0x2545f4914f6cdd1dull;
static double frand(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}

static int models_checked = 0, shuffles_checked = 0;
static char temp_dir[256];

/* Cursor vs binary search: small forward steps, big jumps, backward, beyond both ends. */
static void check_cursor(anim_fixture *f, const char *name) {
    uint32_t n = f->rig->node_count, w = f->rig->weight_total;
    ossa_trs *other_local = calloc(n + 1, sizeof *other_local);
    float *other_weights = calloc(w + 1, sizeof *other_weights);
    ossa_pose other = {other_local, other_weights};
    for (uint32_t c = 0; c < ossa_clip_set_count(f->clips); c++) {
        const ossa_clip *clip = ossa_clip_set_clip(f->clips, c);
        ossa_cursor cursor = {f->cursor, f->cursor_capacity};
        ossa_cursor_reset(clip, &cursor);
        double span = clip->duration > 0.0f ? clip->duration : 1.0;
        double t = clip->start - 0.1 * span;
        int mismatches = 0, portable_mismatches = 0;
        for (int step = 0; step < 5000; step++) {
            double r = frand();
            if (r < 0.7)
                t += frand() * span / 60.0;
            else if (r < 0.8)
                t -= frand() * span / 20.0;
            else if (r < 0.9)
                t = clip->start + (frand() * 1.4 - 0.2) * span;
            else if (r < 0.95 && clip->timeline_count) { /* exactly on a key */
                const ossa_timeline *tl =
                    &clip->timelines[(uint32_t)(frand() * clip->timeline_count)];
                t = clip->times[tl->time_offset + (uint32_t)(frand() * tl->key_count)];
            } else
                t = clip->end + frand() * span;
            ossa_clip_sample(f->rig, clip, (float)t, &cursor, &f->pose);
            ossa_clip_sample(f->rig, clip, (float)t, NULL, &other);
            if (memcmp(f->pose.local, other.local, n * sizeof *other.local) != 0 ||
                (w && memcmp(f->pose.weights, other.weights, w * sizeof(float)) != 0))
                mismatches++;
            ossa_anim_force_portable(1);
            ossa_clip_sample(f->rig, clip, (float)t, NULL, &other);
            ossa_anim_force_portable(0);
            if (memcmp(f->pose.local, other.local, n * sizeof *other.local) != 0 ||
                (w && memcmp(f->pose.weights, other.weights, w * sizeof(float)) != 0))
                portable_mismatches++;
        }
        CHECKF(mismatches == 0, "%s clip %u: %d cursor/search mismatches", name, c, mismatches);
        CHECKF(portable_mismatches == 0, "%s clip %u: %d portable/AVX-512 mismatches", name, c,
               portable_mismatches);
    }
    free(other_local);
    free(other_weights);
}

/* Sampling writes the whole pose whatever it held (nodes whose T, R and S are all animated are
 * not copied from the base first, the others are): two poses filled with different bytes come
 * out equal, and every clip's base spans plus its fully animated nodes cover every node. */
static void check_whole_pose(anim_fixture *f, const char *name) {
    uint32_t n = f->rig->node_count, w = f->rig->weight_total;
    size_t local_bytes = n * sizeof(ossa_trs), weight_bytes = w * sizeof(float);
    ossa_pose a = {malloc(local_bytes + 1), malloc(weight_bytes + 1)};
    ossa_pose b = {malloc(local_bytes + 1), malloc(weight_bytes + 1)};
    int differences = 0, uncovered = 0;
    for (uint32_t c = 0; c < ossa_clip_set_count(f->clips); c++) {
        const ossa_clip *clip = ossa_clip_set_clip(f->clips, c);
        for (int k = 0; k < 7; k++) {
            float t = clip->start + (clip->end - clip->start) * (float)(k - 1) / 4.0f;
            memset(a.local, 0x7f, local_bytes), memset(a.weights, 0x7f, weight_bytes);
            memset(b.local, 0, local_bytes), memset(b.weights, 0, weight_bytes);
            ossa_clip_sample(f->rig, clip, t, NULL, &a);
            ossa_clip_sample(f->rig, clip, t, NULL, &b);
            differences += memcmp(a.local, b.local, local_bytes) != 0 ||
                           memcmp(a.weights, b.weights, weight_bytes) != 0;
        }
        /* nodes outside the spans have T, R and S animated (so written at every time) */
        unsigned char *covered = calloc(n + 1, 1);
        for (uint32_t s = 0; s < clip->base_span_count; s++)
            for (uint32_t i = 0; i < clip->base_spans[2 * s + 1]; i++)
                covered[clip->base_spans[2 * s] + i] |= 0x80;
        for (uint32_t t = 0; t < clip->track_count; t++)
            if (clip->tracks[t].path != OSSA_PATH_WEIGHTS)
                covered[clip->tracks[t].node] |= (unsigned char)(1u << clip->tracks[t].path);
        const unsigned trs =
            (1u << OSSA_PATH_TRANSLATION) | (1u << OSSA_PATH_ROTATION) | (1u << OSSA_PATH_SCALE);
        for (uint32_t i = 0; i < n; i++)
            uncovered += !(covered[i] & 0x80) && (covered[i] & trs) != trs;
        free(covered);
    }
    CHECKF(differences == 0, "%s: %d samples depend on what the pose held", name, differences);
    CHECKF(uncovered == 0, "%s: %d nodes neither copied nor animated", name, uncovered);
    free(a.local), free(a.weights), free(b.local), free(b.weights);
}

static void remap_index(cJSON *item, const int *perm) {
    if (cJSON_IsNumber(item)) cJSON_SetNumberValue(item, perm[item->valueint]);
}

static void remap_array(cJSON *array, const int *perm) {
    cJSON *item;
    cJSON_ArrayForEach(item, array) remap_index(item, perm);
}

/* Makes relative buffer/image URIs absolute so the copy loads from another folder. */
static void absolute_uris(cJSON *array, const char *model_dir) {
    cJSON *item;
    cJSON_ArrayForEach(item, array) {
        cJSON *uri = cJSON_GetObjectItem(item, "uri");
        if (!cJSON_IsString(uri) || !strncmp(uri->valuestring, "data:", 5)) continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", model_dir, uri->valuestring);
        cJSON_SetValuestring(uri, path);
    }
}

/* Rewrites the glTF JSON with node i moved to perm[i]. */
static char *shuffled_json(const char *json, size_t size, const int *perm, int count,
                           const char *model_dir) {
    cJSON *root = cJSON_ParseWithLength(json, size);
    if (!root) return NULL;
    cJSON *nodes = cJSON_GetObjectItem(root, "nodes");
    cJSON **moved = calloc((size_t)count, sizeof *moved);
    for (int i = count - 1; i >= 0; i--)
        moved[perm[i]] = cJSON_DetachItemFromArray(nodes, i);
    for (int i = 0; i < count; i++) {
        remap_array(cJSON_GetObjectItem(moved[i], "children"), perm);
        cJSON_AddItemToArray(nodes, moved[i]);
    }
    free(moved);
    cJSON *item;
    cJSON_ArrayForEach(item, cJSON_GetObjectItem(root, "scenes"))
        remap_array(cJSON_GetObjectItem(item, "nodes"), perm);
    cJSON_ArrayForEach(item, cJSON_GetObjectItem(root, "skins")) {
        remap_array(cJSON_GetObjectItem(item, "joints"), perm);
        remap_index(cJSON_GetObjectItem(item, "skeleton"), perm);
    }
    cJSON *anim;
    cJSON_ArrayForEach(anim, cJSON_GetObjectItem(root, "animations")) {
        cJSON_ArrayForEach(item, cJSON_GetObjectItem(anim, "channels"))
            remap_index(cJSON_GetObjectItem(cJSON_GetObjectItem(item, "target"), "node"), perm);
    }
    absolute_uris(cJSON_GetObjectItem(root, "buffers"), model_dir);
    absolute_uris(cJSON_GetObjectItem(root, "images"), model_dir);
    char *text = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    return text;
}

static uint32_t read_u32(const unsigned char *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void write_u32(FILE *out, uint32_t v) {
    unsigned char b[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
                          (unsigned char)(v >> 24)};
    fwrite(b, 1, 4, out);
}

/* Writes a shuffled copy of a .gltf or .glb; returns 1 on success. */
static int write_shuffled(const char *model, const int *perm, int count, const char *out_path) {
    size_t size;
    unsigned char *data = ossa_test_read_file(model, &size);
    if (!data) return 0;
    char model_dir[4096];
    snprintf(model_dir, sizeof model_dir, "%s", model);
    char *slash = strrchr(model_dir, '/');
    if (slash) *slash = '\0';
    int glb = size >= 20 && !memcmp(data, "glTF", 4);
    const char *json = (const char *)data;
    size_t json_size = size;
    const unsigned char *bin = NULL;
    size_t bin_size = 0;
    if (glb) {
        json_size = read_u32(data + 12);
        json = (const char *)data + 20;
        size_t next = 20 + ((json_size + 3) & ~(size_t)3);
        if (next + 8 <= size) {
            bin_size = read_u32(data + next);
            bin = data + next + 8;
        }
    }
    char *text = shuffled_json(json, json_size, perm, count, model_dir);
    FILE *out = text ? fopen(out_path, "wb") : NULL;
    if (out && glb) {
        size_t text_len = strlen(text), padded = (text_len + 3) & ~(size_t)3;
        size_t bin_padded = (bin_size + 3) & ~(size_t)3;
        fwrite("glTF", 1, 4, out);
        write_u32(out, 2);
        write_u32(out, (uint32_t)(12 + 8 + padded + (bin ? 8 + bin_padded : 0)));
        write_u32(out, (uint32_t)padded);
        fwrite("JSON", 1, 4, out);
        fwrite(text, 1, text_len, out);
        for (size_t i = text_len; i < padded; i++)
            fputc(' ', out);
        if (bin) {
            write_u32(out, (uint32_t)bin_padded);
            fwrite("BIN\0", 1, 4, out);
            fwrite(bin, 1, bin_size, out);
            for (size_t i = bin_size; i < bin_padded; i++)
                fputc(0, out);
        }
    } else if (out) {
        fputs(text, out);
    }
    int ok = out != NULL;
    if (out) ok = fclose(out) == 0;
    free(text);
    free(data);
    return ok;
}

/* Every result of the original, per glTF node / skin joint, must equal the shuffled copy's. */
static void compare_frames(anim_fixture *a, anim_fixture *b, const int *perm, const char *name,
                           float time) {
    int differences = 0;
    for (uint32_t g = 0; g < a->doc->node_count; g++) {
        int32_t ra = a->rig->rig_from_gltf[g], rb = b->rig->rig_from_gltf[perm[g]];
        if (memcmp(a->world + 12 * (size_t)ra, b->world + 12 * (size_t)rb, 12 * sizeof(float)))
            differences++;
        uint32_t wc = a->rig->weight_count[ra];
        if (wc != b->rig->weight_count[rb] ||
            memcmp(a->pose.weights + a->rig->weight_offset[ra],
                   b->pose.weights + b->rig->weight_offset[rb], wc * sizeof(float)))
            differences++;
    }
    uint32_t palette_floats = 0;
    for (uint32_t s = 0; s < a->rig->skin_count; s++)
        palette_floats += ossa_palette_floats(a->rig, s);
    if (memcmp(a->palettes, b->palettes, palette_floats * sizeof(float))) differences++;
    CHECKF(differences == 0, "%s t=%g: %d results differ after shuffling nodes", name, (double)time,
           differences);
}

static void check_shuffle(anim_fixture *f, const char *path, const char *name) {
    int count = (int)f->doc->node_count;
    if (count < 2) return;
    int *perm = malloc((size_t)count * sizeof *perm);
    for (int i = 0; i < count; i++)
        perm[i] = i;
    for (int i = count - 1; i > 0; i--) {
        int j = (int)(frand() * (i + 1));
        int t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    char copy[512];
    const char *ext = strrchr(path, '.');
    snprintf(copy, sizeof copy, "%s/shuffled%s", temp_dir, ext ? ext : ".gltf");
    int written = write_shuffled(path, perm, count, copy);
    CHECKF(written, "%s: shuffled copy written", name);
    ossa_load_options options = {0};
    options.allow_unsafe_paths = 1; /* the copy names the original buffers by absolute path */
    anim_fixture g;
    int loaded = written && anim_fixture_load(&g, copy, &options);
    CHECKF(loaded, "%s: shuffled copy loads", name);
    if (loaded) {
        shuffles_checked++;
        CHECK(ossa_clip_set_count(g.clips) == ossa_clip_set_count(f->clips));
        for (uint32_t c = 0; c < ossa_clip_set_count(f->clips) && c < ossa_clip_set_count(g.clips);
             c++) {
            const ossa_clip *ca = ossa_clip_set_clip(f->clips, c),
                            *cb = ossa_clip_set_clip(g.clips, c);
            for (int k = 0; k <= 8; k++) {
                float t = ca->start + (ca->duration * (float)k) / 8.0f + (k == 8 ? 0.5f : 0.0f);
                if (k == 3) t = (float)(ca->start + frand() * ca->duration);
                anim_fixture_eval(f, ca, t, NULL);
                anim_fixture_eval(&g, cb, t, NULL);
                compare_frames(f, &g, perm, name, t);
            }
        }
        if (ossa_clip_set_count(f->clips) == 0) {
            anim_fixture_eval(f, NULL, 0.0f, NULL);
            anim_fixture_eval(&g, NULL, 0.0f, NULL);
            compare_frames(f, &g, perm, name, 0.0f);
        }
        anim_fixture_free(&g);
    }
    remove(copy);
    free(perm);
}

static void check_model(const char *path, void *user) {
    (void)user;
    size_t len = strlen(path);
    if (!(len > 5 && !strcmp(path + len - 5, ".gltf")) &&
        !(len > 4 && !strcmp(path + len - 4, ".glb")))
        return;
    const char *name = path + strlen(ossa_test_shared_dir()) + 1;
    anim_fixture f;
    int loaded = anim_fixture_load(&f, path, NULL);
    CHECKF(loaded, "%s loads", name);
    if (!loaded) return;
    models_checked++;
    check_cursor(&f, name);
    check_whole_pose(&f, name);
    check_shuffle(&f, path, name);
    anim_fixture_free(&f);
}

int main(void) {
    snprintf(temp_dir, sizeof temp_dir, "/tmp/ossa_anim_XXXXXX");
    CHECK(mkdtemp(temp_dir) != NULL);
    char models[4096];
    snprintf(models, sizeof models, "%s", ossa_test_shared_path("models"));
    ossa_test_walk(models, "", check_model, NULL);
    rmdir(temp_dir);
    printf("anim_properties: %d models, %d shuffled copies\n", models_checked, shuffles_checked);
    CHECKF(models_checked >= 15, "%d models checked", models_checked);
    return ossa_test_finish("anim_properties");
}
