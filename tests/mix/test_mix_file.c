/* The mix file (JSON): the example read into a descriptor, every refusal with its JSON
 * path, the warnings (unknown keys, ignored values), and a file giving the same pose as the
 * descriptor written by hand. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mix_fixture.h"
#include "test_support.h"

static ossa_result parse(const mix_model *m, const char *json, ossa_mix_file **out,
                         ossa_error *error) {
    return ossa_mix_file_parse(json, strlen(json), "test.json", m->model, NULL, out, error);
}

static void test_example(void) {
    mix_model m;
    if (mix_model_load("models/Fox/Fox.glb", &m)) {
        CHECK(0);
        return;
    }
    const char *json =
        "{\"threshold\": 0.2,\n"
        " \"layers\": [\n"
        "   {\"animation\": \"Walk\", \"weight\": [[0, 1], [1.0, 1], [1.5, 0]], \"sync\": "
        "\"legs\"},\n"
        "   {\"animation\": 2, \"weight\": [[1.0, 0], [1.5, 1]], \"sync\": \"legs\"},\n"
        "   {\"animation\": \"Survey\", \"weight\": 1,\n"
        "    \"mask\": {\"default\": 0, \"nodes\": {\"b_Spine01_02\": 1}, \"indices\": {\"12\": "
        "0.5}}},\n"
        "   {\"animation\": \"Survey\", \"mode\": \"additive\", \"weight\": 0.5,\n"
        "    \"reference\": \"start\", \"offset\": 0.25, \"wrap\": \"clamp\"},\n"
        "   {\"animation\": 0, \"mode\": \"additive\", \"reference\": 1.5, \"speed\": -2,\n"
        "    \"wrap\": \"ping-pong\"},\n"
        "   {\"animation\": 0, \"mode\": \"additive\", \"reference\": \"rest\"}]}";
    ossa_mix_file *file;
    ossa_error error;
    CHECK(parse(&m, json, &file, &error) == OSSA_OK);
    if (!file) {
        fprintf(stderr, "%s: %s\n", error.path, error.message);
        mix_model_free(&m);
        return;
    }
    CHECK(ossa_mix_file_warning_count(file) == 0);
    const ossa_mix_desc *d = ossa_mix_file_desc(file);
    CHECK(d->has_threshold && d->threshold == 0.2f);
    CHECK(d->layer_count == 6);
    const ossa_mix_layer *l = d->layers;
    CHECK(l[0].clip == mix_model_clip_at(&m, 1) && l[1].clip == mix_model_clip_at(&m, 2));
    CHECK(l[0].weight_count == 3 && l[0].weights[2].time == 1.5 && l[0].weights[2].weight == 0);
    CHECK(l[0].sync && !strcmp(l[0].sync, "legs") && !strcmp(l[1].sync, "legs"));
    CHECK(l[2].weight_count == 1 && l[2].weights[0].weight == 1 && l[2].mask);
    CHECK(l[2].mask->default_value == 0 && l[2].mask->entry_count == 2);
    CHECK(l[2].mask->entries[0].node == 5 && l[2].mask->entries[0].value == 1);
    CHECK(l[2].mask->entries[1].node == 12 && l[2].mask->entries[1].value == 0.5f);
    CHECK(l[3].mode == OSSA_MIX_ADDITIVE && l[3].reference == OSSA_MIX_REFERENCE_START);
    CHECK(l[3].offset == 0.25 && l[3].wrap == OSSA_MIX_CLAMP && !l[3].has_speed);
    CHECK(l[4].reference == OSSA_MIX_REFERENCE_TIME && l[4].reference_time == 1.5);
    CHECK(l[4].has_speed && l[4].speed == -2 && l[4].wrap == OSSA_MIX_PING_PONG);
    CHECK(l[5].reference == OSSA_MIX_REFERENCE_REST && l[5].mask == NULL);
    CHECK(l[0].mode == OSSA_MIX_NORMAL && l[0].wrap == OSSA_MIX_LOOP && !l[0].has_speed);

    /* The file's descriptor mixes as the reference says. */
    ossa_pose got = mix_pose_alloc(m.rig), want = mix_pose_alloc(m.rig);
    for (double t = 0.3; t < 3; t += 0.6) {
        CHECK(mix_eval(m.rig, d, t, &got) == OSSA_OK);
        mix_reference(m.rig, d, t, &want);
        CHECK(mix_pose_distance(m.rig, &got, &want) < 2e-5);
    }
    mix_pose_free(&got), mix_pose_free(&want);
    ossa_mix_file_free(file);
    mix_model_free(&m);
}

typedef struct refusal {
    const char *json;
    ossa_result code;
    const char *path;
    const char *message_part;
} refusal;

static void test_refusals(void) {
    mix_model fox, syn;
    if (mix_model_load("models/Fox/Fox.glb", &fox) || mix_model_synthetic(&syn)) {
        CHECK(0);
        return;
    }
    /* Fox cases, then synthetic ones (two nodes named "leg", "Still" of zero duration). */
    static const refusal fox_cases[] = {
        {"{\"layers\":[{\"animation\":0},{\"animation\":\"Nope\"}]}", OSSA_ERROR_INVALID,
         "layers[1].animation", "no animation named"},
        {"{\"layers\":[{\"animation\":7}]}", OSSA_ERROR_INVALID, "layers[0].animation",
         "there is no animation 7"},
        {"{\"layers\":[{\"animation\":true}]}", OSSA_ERROR_INVALID, "layers[0].animation",
         "must be an animation's glTF index or name"},
        /* a key given twice, anywhere, and a byte order mark, as glTF refuses it */
        {"{\"layers\":[{\"animation\":1,\"weight\":0.5,\"weight\":-3}]}", OSSA_ERROR_INVALID,
         "layers[0]", "the key 'weight' appears twice"},
        {"{\"layers\":[{\"animation\":0,\"mask\":{\"nodes\":{\"b_Hip_01\":1,\"b_Hip_01\":0}}}]"
         "}",
         OSSA_ERROR_INVALID, "layers[0].mask.nodes", "the key 'b_Hip_01' appears twice"},
        {"{\"layers\":[],\"layers\":[]}", OSSA_ERROR_INVALID, "", "the key 'layers'"},
        {"{\"layers\":[{\"animation\":0,\"k0\":0,\"k1\":0,\"k2\":0,\"k3\":0,\"k4\":0,\"k5\":0,"
         "\"k6\":0,\"k7\":0,\"k8\":0,\"k9\":0,\"k10\":0,\"k11\":0,\"k12\":0,\"k13\":0,\"k14\":"
         "0,\"k15\":0,\"k3\":1}]}",
         OSSA_ERROR_INVALID, "layers[0]", "the key 'k3' appears twice"},
        {"\xEF\xBB\xBF{\"layers\":[]}", OSSA_ERROR_JSON, "", "byte order mark"},
        {"{\"layers\":[{\"animation\":0.5}]}", OSSA_ERROR_INVALID, "layers[0].animation", NULL},
        {"{\"layers\":[{\"animation\":-1}]}", OSSA_ERROR_INVALID, "layers[0].animation", NULL},
        {"{\"layers\":[{\"animation\":0,\"weight\":-1}]}", OSSA_ERROR_INVALID, "layers[0].weight",
         ">= 0"},
        /* the blend runs in float: 7.7e94 would overflow it to a pose of NaN */
        {"{\"layers\":[{\"animation\":0,\"weight\":7.7e94}]}", OSSA_ERROR_INVALID,
         "layers[0].weight", "at most 1e6"},
        {"{\"layers\":[{\"animation\":0,\"weight\":[[0,1],[1,2e6]]}]}", OSSA_ERROR_INVALID,
         "layers[0].weight[1][1]", "at most 1e6"},
        {"{\"layers\":[{\"animation\":0,\"mask\":{\"default\":1e7}}]}", OSSA_ERROR_INVALID,
         "layers[0].mask.default", "at most 1e6"},
        {"{\"threshold\":1e38,\"layers\":[]}", OSSA_ERROR_INVALID, "threshold", "at most 1e6"},
        {"{\"layers\":[{\"animation\":0,\"weight\":[[0,1],[0,2]]}]}", OSSA_ERROR_INVALID,
         "layers[0].weight[1][0]", "increase"},
        {"{\"layers\":[{\"animation\":0,\"weight\":[[0,1],[1]]}]}", OSSA_ERROR_INVALID,
         "layers[0].weight[1]", "pair"},
        {"{\"layers\":[{\"animation\":0,\"weight\":[[0,1],[1,-2]]}]}", OSSA_ERROR_INVALID,
         "layers[0].weight[1][1]", NULL},
        {"{\"layers\":[{\"animation\":0,\"weight\":[]}]}", OSSA_ERROR_INVALID, "layers[0].weight",
         NULL},
        {"{\"layers\":[{\"animation\":0,\"weight\":\"1\"}]}", OSSA_ERROR_INVALID,
         "layers[0].weight", NULL},
        {"{\"layers\":[{\"animation\":0,\"wrap\":\"bounce\"}]}", OSSA_ERROR_INVALID,
         "layers[0].wrap", "\"ping-pong\""},
        {"{\"layers\":[{\"animation\":0,\"mode\":\"multiply\"}]}", OSSA_ERROR_INVALID,
         "layers[0].mode", NULL},
        {"{\"layers\":[{\"animation\":0,\"mode\":\"additive\",\"reference\":\"end\"}]}",
         OSSA_ERROR_INVALID, "layers[0].reference", NULL},
        {"{\"layers\":[{\"animation\":0,\"mode\":\"additive\",\"reference\":true}]}",
         OSSA_ERROR_INVALID, "layers[0].reference", NULL},
        {"{\"layers\":[{\"animation\":0,\"speed\":\"fast\"}]}", OSSA_ERROR_INVALID,
         "layers[0].speed", NULL},
        {"{\"layers\":[{\"animation\":0,\"offset\":null}]}", OSSA_ERROR_INVALID, "layers[0].offset",
         NULL},
        {"{\"layers\":[{\"animation\":0,\"sync\":\"\"}]}", OSSA_ERROR_INVALID, "layers[0].sync",
         NULL},
        {"{\"layers\":[{\"animation\":0,\"sync\":3}]}", OSSA_ERROR_INVALID, "layers[0].sync", NULL},
        {"{\"layers\":[{\"animation\":0},{\"animation\":1},{\"animation\":2,\"mask\":{\"nodes\":"
         "{\"Spine\":1}}}]}",
         OSSA_ERROR_INVALID, "layers[2].mask.nodes.Spine", "no node named"},
        {"{\"layers\":[{\"animation\":0,\"mask\":{\"indices\":{\"99\":1}}}]}", OSSA_ERROR_INVALID,
         "layers[0].mask.indices.99", NULL},
        {"{\"layers\":[{\"animation\":0,\"mask\":{\"indices\":{\"x1\":1}}}]}", OSSA_ERROR_INVALID,
         "layers[0].mask.indices.x1", NULL},
        {"{\"layers\":[{\"animation\":0,\"mask\":{\"indices\":{\"1\":-0.5}}}]}", OSSA_ERROR_INVALID,
         "layers[0].mask.indices.1", NULL},
        {"{\"layers\":[{\"animation\":0,\"mask\":{\"nodes\":{\"b_Hip_01\":1},\"indices\":{\"4\":"
         "0.5}}}]}",
         OSSA_ERROR_INVALID, "layers[0].mask.indices.4", "already"},
        {"{\"layers\":[{\"animation\":0,\"mask\":{\"default\":\"all\"}}]}", OSSA_ERROR_INVALID,
         "layers[0].mask.default", NULL},
        {"{\"layers\":[{\"animation\":0,\"mask\":[1]}]}", OSSA_ERROR_INVALID, "layers[0].mask",
         NULL},
        {"{\"layers\":[{\"animation\":0,\"mask\":{\"nodes\":[]}}]}", OSSA_ERROR_INVALID,
         "layers[0].mask.nodes", NULL},
        {"{\"threshold\":-0.1,\"layers\":[]}", OSSA_ERROR_INVALID, "threshold", NULL},
        {"{\"threshold\":0.1}", OSSA_ERROR_INVALID, "", "layers"},
        {"{\"layers\":{}}", OSSA_ERROR_INVALID, "layers", NULL},
        {"{\"layers\":[3]}", OSSA_ERROR_INVALID, "layers[0]", NULL},
        {"{\"layers\":[{\"weight\":1}]}", OSSA_ERROR_INVALID, "layers[0]", "animation"},
        {"[1, 2]", OSSA_ERROR_INVALID, "", NULL},
        {"{\"layers\":[{\"animation\":0}]", OSSA_ERROR_JSON, "", "does not parse"},
    };
    static const refusal syn_cases[] = {
        {"{\"layers\":[{\"animation\":0,\"mask\":{\"nodes\":{\"leg\":1}}}]}", OSSA_ERROR_INVALID,
         "layers[0].mask.nodes.leg", "\"indices\""},
        {"{\"layers\":[{\"animation\":\"A\",\"sync\":\"g\"},{\"animation\":\"Still\",\"sync\":"
         "\"g\"}]}",
         OSSA_ERROR_INVALID, "layers[1].sync", "zero duration"},
    };
    for (int s = 0; s < 2; s++) {
        const mix_model *m = s ? &syn : &fox;
        const refusal *cases = s ? syn_cases : fox_cases;
        size_t count =
            s ? sizeof syn_cases / sizeof *syn_cases : sizeof fox_cases / sizeof *fox_cases;
        for (size_t i = 0; i < count; i++) {
            ossa_mix_file *file = (ossa_mix_file *)1;
            ossa_error error;
            memset(&error, 0, sizeof error);
            ossa_result r = parse(m, cases[i].json, &file, &error);
            CHECKF(r == cases[i].code && file == NULL, "%s: result %d", cases[i].json, (int)r);
            CHECKF(!strcmp(error.path, cases[i].path), "%s: path '%s', want '%s' (%s)",
                   cases[i].json, error.path, cases[i].path, error.message);
            CHECKF(!strcmp(error.file, "test.json"), "%s: file '%s'", cases[i].json, error.file);
            CHECKF(!cases[i].message_part || strstr(error.message, cases[i].message_part),
                   "%s: message '%s'", cases[i].json, error.message);
        }
    }
    mix_model_free(&fox);
    mix_model_free(&syn);
}

static void test_warnings(void) {
    mix_model m;
    if (mix_model_synthetic(&m)) {
        CHECK(0);
        return;
    }
    const char *json =
        "{\"layers\":[{\"animation\":\"A\",\"sync\":\"g\",\"speed\":2,\"colour\":1},"
        "{\"animation\":\"B\",\"sync\":\"g\",\"speed\":3,\"offset\":1,\"wrap\":\"clamp\","
        "\"reference\":\"rest\"},"
        "{\"animation\":\"A\",\"mask\":{\"indices\":{\"1\":0.5},\"invert\":true}}],"
        "\"version\":2}";
    static const char *const paths[] = {
        "version",          "layers[0].colour", "layers[1].reference",  "layers[1].speed",
        "layers[1].offset", "layers[1].wrap",   "layers[2].mask.invert"};
    ossa_mix_file *file;
    ossa_error error;
    CHECK(parse(&m, json, &file, &error) == OSSA_OK);
    if (!file) {
        mix_model_free(&m);
        return;
    }
    uint32_t n = ossa_mix_file_warning_count(file);
    CHECKF(n == 7, "%u warnings", n);
    for (int i = 0; i < 7; i++) {
        int found = 0;
        for (uint32_t w = 0; w < n; w++)
            found |= !strcmp(ossa_mix_file_warning(file, w)->path, paths[i]);
        CHECKF(found, "a warning at %s", paths[i]);
    }
    for (uint32_t w = 0; w < n; w++) {
        const ossa_warning *warning = ossa_mix_file_warning(file, w);
        if (!strcmp(warning->path, "layers[1].speed"))
            CHECKF(strstr(warning->message, "layers[0]") != NULL, "%s", warning->message);
    }
    CHECK(ossa_mix_file_warning(file, n) == NULL);
    /* no layers: the rest pose, said at "layers" */
    ossa_mix_file *empty;
    CHECK(parse(&m, "{\"layers\":[]}", &empty, &error) == OSSA_OK);
    CHECK(empty && ossa_mix_file_warning_count(empty) == 1 &&
          !strcmp(ossa_mix_file_warning(empty, 0)->path, "layers") &&
          strstr(ossa_mix_file_warning(empty, 0)->message, "the mix is the rest pose"));
    ossa_mix_file_free(empty);
    /* The group's clock is the first layer's: speed 2 for both. */
    ossa_mix *mix;
    CHECK(ossa_mix_create(m.rig, ossa_mix_file_desc(file), &mix, NULL) == OSSA_OK);
    CHECK_NEAR(ossa_mix_layer_time(mix, 0, 0.3), 0.6, 1e-12);
    CHECK_NEAR(ossa_mix_layer_time(mix, 1, 0.3), 0.6, 1e-12);
    ossa_mix_free(mix);
    ossa_mix_file_free(file);
    mix_model_free(&m);
}

int main(void) {
    test_example();
    test_refusals();
    test_warnings();
    return ossa_test_finish("mix_file");
}
