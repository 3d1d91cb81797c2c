/* `ossa demo`: help, usage errors (exit 2), write errors (exit 1), and the file it writes is
 * exactly the library's demo GLB. Runs the CLI named by $OSSA_CLI. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ossa/demo.h"
#include "test_support.h"

static char dir[64];
static char out_path[128], err_path[128];

/* Runs `$OSSA_CLI ARGS` with stdout and stderr captured; returns the exit code (-1: none). */
static int run(const char *args) {
    char command[1024];
    snprintf(command, sizeof command, "\"%s\" %s >%s 2>%s", getenv("OSSA_CLI"), args, out_path,
             err_path);
    int status = system(command);
    return (status != -1 && WIFEXITED(status)) ? WEXITSTATUS(status) : -1;
}

static int file_contains(const char *path, const char *text) {
    size_t size;
    unsigned char *data = ossa_test_read_file(path, &size);
    int found = data && strstr((const char *)data, text) != NULL;
    free(data);
    return found;
}

/* stderr holds the expected message and nothing from a sanitizer. */
static void check_stderr(const char *text) {
    CHECKF(file_contains(err_path, text), "stderr lacks \"%s\"", text);
    CHECK(!file_contains(err_path, "Sanitizer") && !file_contains(err_path, "runtime error"));
}

static int same_as_library(const char *path, ossa_demo_model model) {
    ossa_demo_desc desc = {0};
    desc.model = model;
    void *expected = NULL;
    size_t expected_size = 0, size = 0;
    if (ossa_demo_write_glb(&desc, &expected, &expected_size, NULL) != OSSA_OK) return 0;
    unsigned char *written = ossa_test_read_file(path, &size);
    int same = written && size == expected_size && !memcmp(written, expected, size);
    free(written);
    ossa_demo_free_glb(&desc, expected);
    return same;
}

int main(void) {
    CHECK(getenv("OSSA_CLI") != NULL);
    if (!getenv("OSSA_CLI")) return ossa_test_finish("demo_cli");
    snprintf(dir, sizeof dir, "/tmp/ossa-demo-cli-XXXXXX");
    CHECK(mkdtemp(dir) != NULL);
    snprintf(out_path, sizeof out_path, "%s/stdout", dir);
    snprintf(err_path, sizeof err_path, "%s/stderr", dir);
    char args[512], glb[128];
    snprintf(glb, sizeof glb, "%s/demo.glb", dir);

    CHECK(run("--help") == 0);
    CHECK(file_contains(out_path, "demo "));
    CHECK(run("demo --help") == 0);
    CHECK(file_contains(out_path, "usage: ossa demo -o FILE"));
    CHECK(run("demo -h") == 0);

    CHECK(run("demo") == 2);
    check_stderr("-o FILE is required");
    CHECK(run("demo -o") == 2);
    check_stderr("-o needs a value");
    CHECK(run("demo --frobnicate") == 2);
    check_stderr("unexpected argument '--frobnicate'");
    snprintf(args, sizeof args, "demo -o %s --model octopus", glb);
    CHECK(run(args) == 2);
    check_stderr("unknown model 'octopus'");
    CHECK(access(glb, F_OK) != 0); /* nothing written on a usage error */
    snprintf(args, sizeof args, "demo -o %s/demo.gltf", dir);
    CHECK(run(args) == 2); /* GLB bytes under a .gltf name would mislead */
    check_stderr("name the file .glb");

    snprintf(args, sizeof args, "demo -o %s/missing-folder/demo.glb", dir);
    CHECK(run(args) == 1);
    check_stderr("cannot write");
    check_stderr("missing-folder/demo.glb");

    snprintf(args, sizeof args, "demo -o %s", glb);
    CHECK(run(args) == 0);
    CHECK(file_contains(out_path, "wrote "));
    CHECK(same_as_library(glb, OSSA_DEMO_BOTH));

    CHECK(run("demo --model tentacle -o -") == 0);
    CHECK(same_as_library(out_path, OSSA_DEMO_TENTACLE));
    snprintf(args, sizeof args, "demo --model windmill --output %s", glb);
    CHECK(run(args) == 0);
    CHECK(same_as_library(glb, OSSA_DEMO_WINDMILL));

    remove(glb);
    remove(out_path);
    remove(err_path);
    rmdir(dir);
    return ossa_test_finish("demo_cli");
}
