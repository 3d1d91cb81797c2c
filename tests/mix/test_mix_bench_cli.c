/* `ossa bench --json` carries the mix rows: per model, ns per character for one sampled clip
 * and for the 4-layer mix (which samples four clips and blends, so it costs more). */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "test_support.h"

int main(void) {
    char args[2048], *out = NULL, *err = NULL;
    snprintf(args, sizeof args,
             "bench --models '%s' --vertices 4096 --seconds 0.02 --characters 8 --crowd 50 "
             "--threads 1 --json",
             ossa_test_shared_path("models/Fox/Fox.glb"));
    CHECKF(ossa_test_run_cli(args, &out, &err) == 0, "%s", err ? err : "");
    cJSON *root = cJSON_Parse(out ? out : "");
    const cJSON *mix = cJSON_GetObjectItemCaseSensitive(root, "mix");
    CHECK(cJSON_GetArraySize(mix) == 1);
    const cJSON *row;
    cJSON_ArrayForEach(row, mix) {
        const cJSON *model = cJSON_GetObjectItemCaseSensitive(row, "model");
        CHECK(cJSON_IsString(model) && !strcmp(model->valuestring, "Fox.glb"));
        CHECK(cJSON_GetObjectItemCaseSensitive(row, "characters")->valuedouble == 8);
        double sample = cJSON_GetObjectItemCaseSensitive(row, "ns_sample")->valuedouble;
        double mixed = cJSON_GetObjectItemCaseSensitive(row, "ns_mix")->valuedouble;
        CHECKF(sample > 0 && mixed > sample, "sample %g ns, mix %g ns", sample, mixed);
    }
    cJSON_Delete(root);
    free(out), free(err);
    CHECK(ossa_test_run_cli("bench --help", &out, NULL) == 0);
    CHECK(out && strstr(out, "4-layer mix") && strstr(out, "mix [{model, characters, ns_sample"));
    free(out);
    return ossa_test_finish("mix_bench_cli");
}
