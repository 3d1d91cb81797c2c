/* Resource limits and allocation failures.
 *
 * 1. Each limit of ossa_load_options (max_file_bytes, max_buffer_bytes, max_elements) is
 *    enforced: one below what a model needs gives OSSA_ERROR_LIMIT (with a JSON path where the
 *    limit is about a part of the file), exactly what it needs loads.
 * 2. An allocator failing on its Nth call, for every N until the call succeeds, for every shared
 *    model: loading, then building the rig, the clips and every prepared skin mesh with that
 *    allocator; and the built-in demo (writing its GLB, then loading it). Each failure must be
 * OSSA_ERROR_OUT_OF_MEMORY with no object returned and every block given back (never a crash or a
 * leak). Every N is tried: nothing is skipped. */
#include <stdlib.h>
#include <string.h>

#include "ossa/clip.h"
#include "ossa/demo.h"
#include "ossa/document.h"
#include "ossa/rig.h"
#include "ossa/skin.h"
#include "test_support.h"

/* ---- limits ---------------------------------------------------------------------------- */

static ossa_result load_with(const unsigned char *data, size_t size, ossa_load_options options,
                             ossa_error *error) {
    ossa_document *doc = NULL;
    options.name = "limits.glb";
    ossa_result r = ossa_document_load_memory(data, size, &options, &doc, error);
    CHECK((r == OSSA_OK) == (doc != NULL));
    ossa_document_free(doc);
    return r;
}

/* The limit is refused one below `needed` (error path must start with `path`), accepted at it. */
static void check_limit(const char *what, const unsigned char *data, size_t size, uint64_t *option,
                        ossa_load_options *options, uint64_t needed, const char *path) {
    ossa_error error;
    *option = needed - 1;
    ossa_result r = load_with(data, size, *options, &error);
    CHECKF(r == OSSA_ERROR_LIMIT, "%s = %llu: %s (%s)", what, (unsigned long long)*option,
           ossa_result_name(r), error.message);
    if (r == OSSA_ERROR_LIMIT) {
        CHECKF(!strncmp(error.path, path, strlen(path)), "%s: path '%s', expected '%s...'", what,
               error.path, path);
        printf("limit %-16s = %-8llu -> %s: %s: %s\n", what, (unsigned long long)*option,
               ossa_result_name(r), error.path, error.message);
    }
    *option = needed;
    r = load_with(data, size, *options, &error);
    CHECKF(r == OSSA_OK, "%s = %llu (exactly what is needed): %s (%s)", what,
           (unsigned long long)needed, ossa_result_name(r), error.message);
    *option = 0;
}

static void check_limits(void) {
    size_t size;
    unsigned char *data = ossa_test_read_file(ossa_test_shared_path("models/Fox/Fox.glb"), &size);
    CHECK(data != NULL);
    if (!data) return;
    ossa_document *doc = NULL;
    CHECK(ossa_document_load_memory(data, size, NULL, &doc, NULL) == OSSA_OK);
    if (doc) {
        uint64_t buffer_bytes = 0, largest = 0;
        for (uint32_t b = 0; b < doc->buffer_count; b++)
            buffer_bytes += doc->buffers[b].byte_length;
        for (uint32_t a = 0; a < doc->accessor_count; a++)
            if (doc->accessors[a].count > largest) largest = doc->accessors[a].count;
        ossa_load_options options;
        memset(&options, 0, sizeof options);
        check_limit("max_file_bytes", data, size, &options.max_file_bytes, &options, size, "");
        check_limit("max_buffer_bytes", data, size, &options.max_buffer_bytes, &options,
                    buffer_bytes, "buffers");
        check_limit("max_elements", data, size, &options.max_elements, &options, largest,
                    "accessors");
    }
    ossa_document_free(doc);
    free(data);

    /* Arrays count as elements too: 5 nodes. */
    static const char nodes[] = "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{},{},{},{},{}]}";
    ossa_load_options options;
    memset(&options, 0, sizeof options);
    check_limit("max_elements", (const unsigned char *)nodes, sizeof nodes - 1,
                &options.max_elements, &options, 5, "nodes");

    /* The file limit also holds for files on disk, before anything is read. */
    ossa_error error;
    memset(&options, 0, sizeof options);
    options.max_file_bytes = 100;
    ossa_document *big = NULL;
    ossa_result r = ossa_document_load_file(ossa_test_shared_path("models/Fox/Fox.glb"), &options,
                                            &big, &error);
    CHECKF(r == OSSA_ERROR_LIMIT && big == NULL, "Fox.glb over a 100-byte limit: %s",
           ossa_result_name(r));
    ossa_document_free(big);
}

/* ---- allocation failures --------------------------------------------------------------- */

typedef struct failing {
    long calls, fail_at, live;
} failing;

static void *failing_alloc(void *user, size_t size) {
    failing *f = user;
    if (++f->calls == f->fail_at) return NULL;
    void *p = malloc(size ? size : 1);
    if (p) f->live++;
    return p;
}

static void failing_free(void *user, void *ptr) {
    failing *f = user;
    if (ptr) f->live--;
    free(ptr);
}

/* What a model stage is tried with: builds something with the allocator, frees it. */
typedef struct stage {
    const char *name;
    const ossa_document *doc;
    const ossa_rig *rig;
    uint32_t mesh, primitive;
    int32_t skin;
} stage;

/* Runs a stage with an allocator failing at call fail_at (0: never); returns its result and
 * checks the object/result agreement. */
static ossa_result run_stage(const stage *s, const char *model_path, failing *f) {
    ossa_allocator allocator = {failing_alloc, failing_free, f};
    ossa_error error;
    ossa_result r;
    if (!strcmp(s->name, "load")) {
        ossa_load_options options;
        memset(&options, 0, sizeof options);
        options.allocator = allocator;
        ossa_document *doc = NULL;
        r = ossa_document_load_file(model_path, &options, &doc, &error);
        CHECK((r == OSSA_OK) == (doc != NULL));
        ossa_document_free(doc);
    } else if (!strcmp(s->name, "demo")) {
        ossa_demo_desc desc;
        memset(&desc, 0, sizeof desc);
        desc.allocator = allocator;
        ossa_document *doc = NULL;
        r = ossa_demo_load(&desc, &doc, &error);
        CHECK((r == OSSA_OK) == (doc != NULL));
        ossa_document_free(doc);
    } else if (!strcmp(s->name, "rig")) {
        ossa_rig *rig = NULL;
        r = ossa_rig_build(s->doc, &allocator, &rig, &error);
        CHECK((r == OSSA_OK) == (rig != NULL));
        ossa_rig_free(rig);
    } else if (!strcmp(s->name, "clips")) {
        ossa_clip_set *clips = NULL;
        r = ossa_clip_set_build(s->doc, s->rig, &allocator, &clips, &error);
        CHECK((r == OSSA_OK) == (clips != NULL));
        ossa_clip_set_free(clips);
    } else {
        ossa_skin_mesh *mesh = NULL;
        r = ossa_skin_mesh_from_document(s->doc, s->mesh, s->primitive, s->skin, &allocator, &mesh,
                                         &error);
        CHECK((r == OSSA_OK) == (mesh != NULL));
        ossa_skin_mesh_free(mesh);
    }
    if (r != OSSA_OK)
        CHECKF(error.code == r, "%s: result %d, error.code %d", s->name, r, error.code);
    return r;
}

/* Fails call N for N = 1, 2, ... until the stage succeeds; returns the allocations it needs. */
static long exhaust(const stage *s, const char *model_path, const char *model) {
    long n;
    long wrong = 0;
    for (n = 1;; n++) {
        failing f = {0, n, 0};
        ossa_result r = run_stage(s, model_path, &f);
        if (f.live != 0) wrong++;
        if (r == OSSA_OK) {
            CHECKF(f.calls < n, "%s %s: succeeded although allocation %ld failed", model, s->name,
                   n);
            break;
        }
        if (r != OSSA_ERROR_OUT_OF_MEMORY) {
            CHECKF(0, "%s %s: allocation %ld failed, result %s", model, s->name, n,
                   ossa_result_name(r));
            break;
        }
        if (n > 1000000) break;
    }
    CHECKF(wrong == 0, "%s %s: %ld of %ld runs leaked", model, s->name, wrong, n);
    return n - 1;
}

static void exhaust_model(const char *path, void *user) {
    (void)user;
    const char *model = strstr(path, "models/");
    model = model ? model : path;
    stage s;
    memset(&s, 0, sizeof s);
    s.name = "load";
    long loads = exhaust(&s, path, model);
    ossa_document *doc = NULL;
    ossa_rig *rig = NULL;
    CHECK(ossa_document_load_file(path, NULL, &doc, NULL) == OSSA_OK);
    if (!doc) return;
    s.doc = doc;
    s.name = "rig";
    long rigs = exhaust(&s, path, model);
    CHECK(ossa_rig_build(doc, NULL, &rig, NULL) == OSSA_OK);
    long clips = 0, skins = 0;
    uint32_t prepared = 0;
    if (rig) {
        s.rig = rig;
        s.name = "clips";
        clips = exhaust(&s, path, model);
        s.name = "skin mesh";
        for (uint32_t node = 0; node < rig->node_count; node++) {
            if (rig->mesh[node] < 0) continue;
            s.mesh = (uint32_t)rig->mesh[node];
            s.skin = rig->skin[node];
            for (s.primitive = 0; s.primitive < doc->meshes[s.mesh].primitive_count;
                 s.primitive++) {
                failing f = {0, 0, 0};
                if (run_stage(&s, path, &f) != OSSA_OK) continue; /* refused, not our case */
                skins += exhaust(&s, path, model);
                prepared++;
            }
        }
    }
    printf("%-58s allocations: load %ld, rig %ld, clips %ld, %u skin meshes %ld\n", model, loads,
           rigs, clips, prepared, skins);
    CHECKF(loads > 0, "%s: the load allocated nothing through the allocator", model);
    ossa_rig_free(rig);
    ossa_document_free(doc);
}

int main(void) {
    check_limits();
    const char *models = ossa_test_shared_path("models");
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", models);
    ossa_test_walk(dir, ".gltf", exhaust_model, NULL);
    ossa_test_walk(dir, ".glb", exhaust_model, NULL);
    /* The built-in demo: its GLB bytes and the document it loads share the allocator. */
    stage demo;
    memset(&demo, 0, sizeof demo);
    demo.name = "demo";
    printf("%-58s allocations: %ld\n", "ossa-demo.glb (write + load)",
           exhaust(&demo, NULL, "ossa-demo.glb"));
    return ossa_test_finish("limits");
}
