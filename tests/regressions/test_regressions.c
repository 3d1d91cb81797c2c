/* Replays tests/regressions/inputs/ through the fuzz pipeline (fuzz/fuzz_pipeline.h), which
 * aborts on any broken contract, and checks how far each input gets. An input's expected
 * outcome is part of its name: NAME.loader.EXT (refused by the loader), NAME.rig.EXT,
 * NAME.clips.EXT or NAME.animated.EXT (every stage ran). The self-contained shared models
 * (.glb) and the built-in demo must go all the way. Each input runs in a child process, so an
 * input that still crashes fails the suite without hiding the others. */
#define _XOPEN_SOURCE 700
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fuzz_pipeline.h"
#include "ossa/demo.h"
#include "test_support.h"

static int replayed;

static int expected_outcome(const char *path, fuzz_outcome *out) {
    static const struct {
        const char *tag;
        fuzz_outcome outcome;
    } tags[] = {{".loader.", FUZZ_REFUSED_BY_LOADER},
                {".rig.", FUZZ_REFUSED_BY_RIG},
                {".clips.", FUZZ_REFUSED_BY_CLIPS},
                {".animated.", FUZZ_ANIMATED}};
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    for (size_t i = 0; i < sizeof tags / sizeof tags[0]; i++)
        if (strstr(base, tags[i].tag)) {
            *out = tags[i].outcome;
            return 1;
        }
    return 0;
}

static void replay(const char *name, const unsigned char *data, size_t size,
                   fuzz_outcome expected) {
    replayed++;
    fflush(stdout);
    pid_t child = fork();
    CHECKF(child >= 0, "cannot fork to replay %s", name);
    if (child == 0) {
        char message[1024];
        fuzz_outcome got = fuzz_pipeline_run(data, size, message, sizeof message);
        printf("%-60s %-18s %s\n", name, fuzz_outcome_name(got), message);
        fflush(stdout);
        exit((int)got); /* exit, not _exit: LeakSanitizer checks the child at exit */
    }
    if (child < 0) return;
    int status = 0;
    CHECK(waitpid(child, &status, 0) == child);
    if (!WIFEXITED(status)) {
        CHECKF(0, "%s: the pipeline crashed (signal %d)", name,
               WIFSIGNALED(status) ? WTERMSIG(status) : 0);
        return;
    }
    int code = WEXITSTATUS(status);
    CHECKF(code <= FUZZ_ANIMATED, "%s: exit code %d (a sanitizer report?)", name, code);
    if (code > FUZZ_ANIMATED) return;
    fuzz_outcome got = (fuzz_outcome)code;
    CHECKF(got == expected, "%s: %s, expected %s", name, fuzz_outcome_name(got),
           fuzz_outcome_name(expected));
}

static void replay_file(const char *path, void *user) {
    fuzz_outcome expected = FUZZ_ANIMATED;
    if (user && !expected_outcome(path, &expected)) {
        if (strstr(path, "README")) return;
        CHECKF(0, "%s: the name does not say the expected outcome", path);
        return;
    }
    size_t size;
    unsigned char *data = ossa_test_read_file(path, &size);
    CHECKF(data != NULL, "cannot read %s", path);
    if (data) replay(path, data, size, expected);
    free(data);
}

int main(void) {
    int tagged = 1;
    ossa_test_walk(OSSA_REGRESSIONS_DIR, "", replay_file, &tagged);
    ossa_test_walk(ossa_test_shared_path("models"), ".glb", replay_file, NULL);
    void *demo = NULL;
    size_t size = 0;
    CHECK(ossa_demo_write_glb(NULL, &demo, &size, NULL) == OSSA_OK);
    if (demo) replay("ossa-demo.glb", demo, size, FUZZ_ANIMATED);
    ossa_demo_free_glb(NULL, demo);
    CHECK(replayed >= 7); /* six shared .glb models and the demo */
    return ossa_test_finish("regressions_replay");
}
