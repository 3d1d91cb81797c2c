/* `ossa render --mix FILE`: frames of a mixed pose (a walk fading into a run) are written and
 * differ over the mix clock; a bad mix file is refused with its JSON path; --help names --mix. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

static unsigned char *render(const char *fox, const char *mix, double t, size_t *size) {
    char args[2048], *err = NULL;
    snprintf(args, sizeof args,
             "render '%s' --mix %s --time %g --size 96x72 --no-grid -o mix_render_test.png", fox,
             mix, t);
    int code = ossa_test_run_cli(args, NULL, &err);
    CHECKF(code == 0, "%s: exit %d: %s", args, code, err ? err : "");
    free(err);
    unsigned char *png = ossa_test_read_file("mix_render_test.png", size);
    remove("mix_render_test.png");
    return png;
}

int main(void) {
    char fox[1024];
    snprintf(fox, sizeof fox, "%s", ossa_test_shared_path("models/Fox/Fox.glb"));
    static const char walk_run[] =
        "{\"layers\":[{\"animation\":\"Walk\",\"weight\":[[1,1],[1.5,0]],\"sync\":\"legs\"},"
        "{\"animation\":\"Run\",\"weight\":[[1,0],[1.5,1]],\"sync\":\"legs\"}]}";
    ossa_test_write_file("mix_render_test.json", walk_run, strlen(walk_run));
    size_t a_size = 0, b_size = 0, c_size = 0;
    unsigned char *a = render(fox, "mix_render_test.json", 0.5, &a_size);
    unsigned char *b = render(fox, "mix_render_test.json", 2.5, &b_size);
    unsigned char *c = render(fox, "mix_render_test.json", 0.5, &c_size);
    CHECK(a && b && c && a_size > 100);
    CHECK(a && b && (a_size != b_size || memcmp(a, b, a_size) != 0)); /* walking vs running */
    CHECK(a && c && a_size == c_size && memcmp(a, c, a_size) == 0);   /* a clock is one pose */
    free(a), free(b), free(c);

    static const char bad_wrap[] = "{\"layers\":[{\"animation\":\"Walk\",\"wrap\":\"bounce\"}]}";
    ossa_test_write_file("mix_render_test.json", bad_wrap, strlen(bad_wrap));
    char args[2048], *err = NULL;
    snprintf(args, sizeof args, "render '%s' --mix mix_render_test.json -o mix_render_test.png",
             fox);
    CHECK(ossa_test_run_cli(args, NULL, &err) == 1);
    CHECKF(err && strstr(err, "mix_render_test.json: layers[0].wrap:"), "%s", err ? err : "");
    free(err);
    char *out = NULL;
    CHECK(ossa_test_run_cli("render --help", &out, NULL) == 0);
    CHECK(out && strstr(out, "--mix FILE"));
    free(out);
    CHECK(ossa_test_run_cli("view --help", &out, NULL) == 0);
    CHECK(out && strstr(out, "--mix FILE"));
    free(out);
    remove("mix_render_test.json");
    return ossa_test_finish("mix_render_cli");
}
