/* Every case of shared/invalid: a case the Khronos validator (or invalid/MANIFEST.md for the
 * assimp cases) calls an error is refused with a message naming a JSON path, or, where the
 * error cannot change results, loads with a warning at the offending path. Cases without
 * errors load, except those that need a reader newer than glTF 2.0 (asset.minVersion). New cases
 * are picked up by walking the folder. */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "ossa/document.h"
#include "test_support.h"

typedef struct tally {
    int refused, warned, loaded, cases;
} tally;

/* "/animations/0/samplers/1" -> "animations[0].samplers[1]" */
static void pointer_to_path(const char *pointer, char *out, size_t size) {
    size_t n = 0;
    out[0] = '\0';
    const char *p = pointer;
    while (*p == '/') {
        p++;
        const char *end = strchr(p, '/');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        int numeric = len > 0;
        for (size_t i = 0; i < len; i++)
            numeric &= p[i] >= '0' && p[i] <= '9';
        int w = numeric ? snprintf(out + n, size - n, "[%.*s]", (int)len, p)
                        : snprintf(out + n, size - n, "%s%.*s", n ? "." : "", (int)len, p);
        if (w < 0 || (size_t)w >= size - n) return;
        n += (size_t)w;
        p += len;
    }
}

/* The error pointers of a validator report, converted to ossa paths; returns how many errors. */
static int report_errors(const char *report_path, char paths[][256], int max, int *count) {
    size_t size;
    unsigned char *text = ossa_test_read_file(report_path, &size);
    if (!text) return -1;
    cJSON *root = cJSON_ParseWithLength((const char *)text, size);
    free(text);
    if (!root) return -1;
    const cJSON *issues = cJSON_GetObjectItemCaseSensitive(root, "issues");
    int errors = cJSON_GetObjectItemCaseSensitive(issues, "numErrors")->valueint;
    *count = 0;
    const cJSON *message;
    cJSON_ArrayForEach(message, cJSON_GetObjectItemCaseSensitive(issues, "messages")) {
        const cJSON *severity = cJSON_GetObjectItemCaseSensitive(message, "severity");
        const cJSON *pointer = cJSON_GetObjectItemCaseSensitive(message, "pointer");
        if (severity->valueint != 0 || !cJSON_IsString(pointer) || *count >= max) continue;
        pointer_to_path(pointer->valuestring, paths[*count], 256);
        (*count)++;
    }
    cJSON_Delete(root);
    return errors;
}

/* assimp cases have no report; invalid/MANIFEST.md calls all of them errors but one. */
static int assimp_expects_error(const char *path) {
    return strstr(path, "TestNoRootNode/SceneWithoutNodes.gltf") == NULL;
}

static int warning_names(const ossa_document *doc, char paths[][256], int count) {
    for (uint32_t w = 0; w < doc->warning_count; w++)
        for (int k = 0; k < count; k++) {
            size_t n = strlen(paths[k]);
            if (n && !strncmp(doc->warnings[w].path, paths[k], n)) return 1;
            size_t m = strlen(doc->warnings[w].path);
            if (m && !strncmp(doc->warnings[w].path, paths[k], m)) return 1;
        }
    return 0;
}

static void check_case(const char *path, void *user) {
    tally *t = user;
    char report[1024];
    snprintf(report, sizeof report, "%s.report.json", path);
    char paths[64][256];
    int path_count = 0;
    int errors;
    if (strstr(path, "/assimp/"))
        errors = assimp_expects_error(path);
    else
        errors = report_errors(report, paths, 64, &path_count);
    const char *name = strstr(path, "invalid/") ? strstr(path, "invalid/") + 8 : path;
    CHECKF(errors >= 0, "%s: no readable report", name);
    if (errors < 0) return;
    t->cases++;
    ossa_document *doc = NULL;
    ossa_error error;
    ossa_result r = ossa_document_load_file(path, NULL, &doc, &error);
    char text[1200];
    ossa_error_format(&error, text, sizeof text);
    if (errors > 0) {
        if (r != OSSA_OK) {
            t->refused++;
            int container = r == OSSA_ERROR_GLB || r == OSSA_ERROR_JSON || r == OSSA_ERROR_IO;
            CHECKF(error.path[0] || container, "%s: refused without a JSON path: %s", name, text);
            CHECKF(error.message[0] != '\0', "%s: refused without a message", name);
            printf("refused %-60s %s\n", name, text);
        } else {
            int named = warning_names(doc, paths, path_count);
            CHECKF(named,
                   "%s: the validator reports %d errors but it loads without a warning "
                   "naming them (first expected path: %s)",
                   name, errors, path_count ? paths[0] : "(none)");
            if (named) t->warned++;
            printf("warned  %-60s %u warnings, first: %s: %s\n", name, doc->warning_count,
                   doc->warning_count ? doc->warnings[0].path : "",
                   doc->warning_count ? doc->warnings[0].message : "");
        }
    } else if (r == OSSA_ERROR_UNSUPPORTED && !strcmp(error.path, "asset.minVersion")) {
        /* Valid glTF that a 2.0 reader must not load: minVersion above 2.0 (glTF 2.0 spec,
         * asset.minVersion implementation note). */
        t->refused++;
        printf("refused %-60s %s (valid, but needs a newer reader)\n", name, text);
    } else {
        CHECKF(r == OSSA_OK, "%s: has no errors but is refused: %s", name, text);
        if (r == OSSA_OK) t->loaded++;
        printf("loaded  %-60s %u warnings\n", name, doc ? doc->warning_count : 0);
    }
    ossa_document_free(doc);
}

int main(void) {
    tally t = {0, 0, 0, 0};
    const char *dir = ossa_test_shared_path("invalid");
    char root[1024];
    snprintf(root, sizeof root, "%s", dir);
    ossa_test_walk(root, ".gltf", check_case, &t);
    ossa_test_walk(root, ".glb", check_case, &t);
    printf("invalid corpus: %d cases: %d refused, %d loaded with a warning naming the error, %d "
           "without errors loaded\n",
           t.cases, t.refused, t.warned, t.loaded);
    CHECK(t.cases > 100);
    return ossa_test_finish("io_invalid_corpus");
}
