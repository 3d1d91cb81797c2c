#define _POSIX_C_SOURCE 200809L
#include "test_support.h"

#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

int ossa_test_failures = 0;
int ossa_test_checks = 0;

int ossa_test_near(double a, double b, double tol) {
    if (isnan(a) || isnan(b)) return 0;
    return fabs(a - b) <= tol;
}

int ossa_test_finish(const char *suite) {
    printf("%s: %d checks, %d failed\n", suite, ossa_test_checks, ossa_test_failures);
    if (ossa_test_checks == 0) {
        fprintf(stderr, "%s: no check ran\n", suite);
        return 1;
    }
    return ossa_test_failures == 0 ? 0 : 1;
}

const char *ossa_test_shared_dir(void) {
    const char *env = getenv("OSSA_SHARED");
    return (env && *env) ? env : OSSA_SHARED_DIR;
}

const char *ossa_test_shared_path(const char *relative) {
    static char buf[4096];
    snprintf(buf, sizeof buf, "%s/%s", ossa_test_shared_dir(), relative);
    return buf;
}

void ossa_test_write_file(const char *path, const void *data, size_t size) {
    FILE *f = fopen(path, "wb");
    CHECKF(f != NULL, "cannot write %s", path);
    if (!f) return;
    CHECK(fwrite(data, 1, size, f) == size);
    fclose(f);
}

unsigned char *ossa_test_read_file(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    if (fseek(f, 0, SEEK_END) != 0) {
        fclose(f);
        return NULL;
    }
    long n = ftell(f);
    if (n < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        return NULL;
    }
    unsigned char *data = malloc((size_t)n + 1);
    if (data && fread(data, 1, (size_t)n, f) != (size_t)n) {
        free(data);
        data = NULL;
    }
    fclose(f);
    if (data) {
        data[n] = 0;
        *size = (size_t)n;
    }
    return data;
}

static int compare_strings(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void collect(const char *dir, const char *suffix, char ***list, size_t *count, size_t *cap) {
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        size_t len = strlen(dir) + strlen(e->d_name) + 2;
        char *path = malloc(len);
        snprintf(path, len, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(path, &st) != 0) {
            free(path);
            continue;
        }
        if (S_ISDIR(st.st_mode)) {
            collect(path, suffix, list, count, cap);
            free(path);
            continue;
        }
        size_t n = strlen(path), s = strlen(suffix);
        if (!S_ISREG(st.st_mode) || n < s || strcmp(path + n - s, suffix) != 0) {
            free(path);
            continue;
        }
        if (*count == *cap) {
            *cap = *cap ? *cap * 2 : 64;
            *list = realloc(*list, *cap * sizeof **list);
        }
        (*list)[(*count)++] = path;
    }
    closedir(d);
}

void ossa_test_walk(const char *dir, const char *suffix, void (*fn)(const char *path, void *user),
                    void *user) {
    char **list = NULL;
    size_t count = 0, cap = 0;
    collect(dir, suffix, &list, &count, &cap);
    qsort(list, count, sizeof *list, compare_strings);
    for (size_t i = 0; i < count; i++) {
        fn(list[i], user);
        free(list[i]);
    }
    free(list);
}

/* A fresh temporary file's name in buf (the file is created empty); 0 on failure. */
static int temp_name(char *buf, size_t size, const char *what) {
    snprintf(buf, size, "/tmp/ossa-test-%s-XXXXXX", what);
    int fd = mkstemp(buf);
    if (fd < 0) return 0;
    close(fd);
    return 1;
}

int ossa_test_run_cli(const char *args, char **out, char **err) {
    char out_path[64], err_path[64], command[8192];
    if (out) *out = NULL;
    if (err) *err = NULL;
    const char *cli = getenv("OSSA_CLI");
    if (!cli || !temp_name(out_path, sizeof out_path, "out")) return -1;
    if (!temp_name(err_path, sizeof err_path, "err")) {
        remove(out_path);
        return -1;
    }
    snprintf(command, sizeof command, "'%s' %s >'%s' 2>'%s'", cli, args, out_path, err_path);
    int status = system(command);
    size_t size;
    if (out) *out = (char *)ossa_test_read_file(out_path, &size);
    if (err) *err = (char *)ossa_test_read_file(err_path, &size);
    remove(out_path);
    remove(err_path);
    return status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

void *ossa_test_counting_alloc(void *user, size_t size) {
    ossa_test_counting *c = user;
    if (++c->calls == c->fail_at) return NULL;
    c->live++;
    return malloc(size);
}

void ossa_test_counting_free(void *user, void *ptr) {
    ossa_test_counting *c = user;
    if (ptr) c->live--;
    free(ptr);
}

void ossa_test_base64(const unsigned char *in, size_t n, char *out) {
    static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t o = 0;
    for (size_t i = 0; i < n; i += 3) {
        unsigned v = (unsigned)in[i] << 16 | (i + 1 < n ? (unsigned)in[i + 1] << 8 : 0) |
                     (i + 2 < n ? in[i + 2] : 0);
        out[o++] = digits[v >> 18 & 63];
        out[o++] = digits[v >> 12 & 63];
        out[o++] = i + 1 < n ? digits[v >> 6 & 63] : '=';
        out[o++] = i + 2 < n ? digits[v & 63] : '=';
    }
    out[o] = '\0';
}

char *ossa_test_two_track_gltf(const float t[3][3], const float r[3][4], char *out, size_t cap) {
    float data[3 + 9 + 12] = {0.0f, 1.0f, 2.0f};
    memcpy(data + 3, t, 9 * sizeof(float));
    memcpy(data + 12, r, 12 * sizeof(float));
    char b64[4 * ((sizeof data + 2) / 3) + 1];
    ossa_test_base64((const unsigned char *)data, sizeof data, b64);
    snprintf(out, cap,
             "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"children\":[1]},{\"children\":[2]},"
             "{}],\"buffers\":[{\"byteLength\":%zu,\"uri\":\"data:application/octet-stream;"
             "base64,%s\"}],\"bufferViews\":[{\"buffer\":0,\"byteLength\":12},{\"buffer\":0,"
             "\"byteOffset\":12,\"byteLength\":36},{\"buffer\":0,\"byteOffset\":48,"
             "\"byteLength\":48}],\"accessors\":[{\"bufferView\":0,\"componentType\":5126,"
             "\"count\":3,\"type\":\"SCALAR\",\"min\":[0],\"max\":[2]},{\"bufferView\":1,"
             "\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"},{\"bufferView\":2,"
             "\"componentType\":5126,\"count\":3,\"type\":\"VEC4\"}],\"animations\":[{"
             "\"samplers\":[{\"input\":0,\"output\":1},{\"input\":0,\"output\":2}],\"channels\":["
             "{\"sampler\":0,\"target\":{\"node\":1,\"path\":\"translation\"}},{\"sampler\":1,"
             "\"target\":{\"node\":1,\"path\":\"rotation\"}}]}]}",
             sizeof data, b64);
    return out;
}
