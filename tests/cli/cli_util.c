/* Helpers of the CLI suites (see cli_util.h). */
#define _POSIX_C_SOURCE 200809L
#include "cli_util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test_support.h"

char *cli_out, *cli_err;

int cli(const char *format, ...) {
    char args[8192];
    va_list ap;
    va_start(ap, format);
    vsnprintf(args, sizeof args, format, ap);
    va_end(ap);
    free(cli_out);
    free(cli_err);
    int code = ossa_test_run_cli(args, &cli_out, &cli_err);
    if (!cli_out) cli_out = calloc(1, 1);
    if (!cli_err) cli_err = calloc(1, 1);
    return code;
}

int occurrences(const char *text, const char *needle) {
    int n = 0;
    for (const char *p = text; p && (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

const char *scratch_dir(void) {
    static char dir[64];
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "/tmp/ossa-cli-XXXXXX");
        if (!mkdtemp(dir)) dir[0] = '\0';
    }
    return dir;
}

const char *scratch_path(const char *relative) {
    static char path[4][1024];
    static int which;
    which = (which + 1) % 4;
    snprintf(path[which], sizeof path[which], "%s/%s", scratch_dir(), relative);
    return path[which];
}

int copy_file(const char *from, const char *to) {
    size_t size;
    unsigned char *data = ossa_test_read_file(from, &size);
    FILE *f = data ? fopen(to, "wb") : NULL;
    int ok = f && fwrite(data, 1, size, f) == size;
    if (f) ok = fclose(f) == 0 && ok;
    free(data);
    return ok;
}

const char *write_blender_copy(const char *relative, const char *buffer_uri, const char *members) {
    char gltf[1200], bin[1200];
    snprintf(gltf, sizeof gltf, "%s",
             ossa_test_shared_path("models/BlenderAllAnimations/03_all_animations.gltf"));
    snprintf(bin, sizeof bin, "%s",
             ossa_test_shared_path("models/BlenderAllAnimations/03_all_animations.bin"));
    mkdir(scratch_path("sub"), 0777);
    if (!copy_file(bin, scratch_path("03_all_animations.bin"))) return NULL;
    size_t size;
    char *text = (char *)ossa_test_read_file(gltf, &size);
    if (!text) return NULL;
    const char *uri = "\"03_all_animations.bin\"";
    char *at = strstr(text, uri), *open = strchr(text, '{');
    const char *out_path = scratch_path(relative);
    FILE *f = at && open && open < at ? fopen(out_path, "wb") : NULL;
    if (f) {
        fwrite(text, 1, (size_t)(open + 1 - text), f);
        fputs(members, f);
        fwrite(open + 1, 1, (size_t)(at - open - 1), f);
        fprintf(f, "\"%s\"", buffer_uri);
        fputs(at + strlen(uri), f);
        fclose(f);
    }
    free(text);
    return f ? out_path : NULL;
}

const char *write_unsafe_model(void) {
    return write_blender_copy("sub/model.gltf", "../03_all_animations.bin", "");
}
