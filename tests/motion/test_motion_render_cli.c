/* `ossa render --mix FILE` with root motion and IK entries: frames are written, one clock gives
 * one frame, the IK entries (their markers and the pose they correct) change the picture. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

static unsigned char *render(const char *model, const char *json, double t, size_t *size) {
    char args[2048], *err = NULL;
    ossa_test_write_file("motion_render_test.json", json, strlen(json));
    snprintf(args, sizeof args,
             "render '%s' --mix motion_render_test.json --time %g --size 96x72 "
             "-o motion_render_test.png",
             model, t);
    int code = ossa_test_run_cli(args, NULL, &err);
    CHECKF(code == 0, "%s: exit %d: %s", args, code, err ? err : "");
    free(err);
    unsigned char *png = ossa_test_read_file("motion_render_test.png", size);
    remove("motion_render_test.png");
    remove("motion_render_test.json");
    return png;
}

#define ROOT                                                                                       \
    "{\"layers\": [{\"animation\": 0}], \"root_motion\": {\"node\": \"Skeleton_torso_joint_1\","   \
    " \"up\": [0, 0, 1]}"
#define IK                                                                                         \
    ", \"ik\": [{\"type\": \"two_bone\", \"start\": \"leg_joint_L_1\", \"middle\":"                \
    " \"leg_joint_L_2\", \"end\": \"leg_joint_L_3\", \"ground\": {\"point\": [0, 0, 0],"           \
    " \"normal\": [-0.6, 1, 0]}, \"pole\": [0, 0, 1]}, {\"type\": \"aim\", \"node\":"              \
    " \"Skeleton_neck_joint_2\", \"forward\": [0, 0, -1], \"up\": [1, 0, 0], \"target\":"          \
    " [0.5, 1.2, 1], \"pole\": [0, 1, 0]}]"

int main(void) {
    char model[1024];
    snprintf(model, sizeof model, "%s",
             ossa_test_shared_path("models/CesiumMan/glTF-Binary/CesiumMan.glb"));
    size_t a_size = 0, b_size = 0, c_size = 0;
    unsigned char *a = render(model, ROOT IK "}", 0.7, &a_size);
    unsigned char *b = render(model, ROOT IK "}", 0.7, &b_size);
    unsigned char *c = render(model, ROOT "}", 0.7, &c_size);
    CHECK(a && b && c && a_size > 100);
    CHECK(a && b && a_size == b_size && memcmp(a, b, a_size) == 0);   /* a clock is one frame */
    CHECK(a && c && (a_size != c_size || memcmp(a, c, a_size) != 0)); /* IK and its markers */
    free(a), free(b), free(c);
    return ossa_test_finish("motion_render_cli");
}
