/* Golden palettes and weights from the JSON of shared/golden. */
#include "golden_palette.h"

void golden_rows_from_json(const cJSON *matrix, float rows[12]) {
    float m[16] = {0};
    for (int i = 0; i < 16; i++)
        m[i] = (float)cJSON_GetArrayItem(matrix, i)->valuedouble;
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 4; c++)
            rows[4 * r + c] = m[4 * c + r];
}

uint32_t golden_palette(const cJSON *sample, int skin, int node, float *rows, uint32_t capacity) {
    if (skin < 0) {
        const cJSON *world = cJSON_GetArrayItem(cJSON_GetObjectItem(sample, "node_world"), node);
        if (!world || capacity < 1) return 0;
        golden_rows_from_json(world, rows);
        return 1;
    }
    const cJSON *entry;
    cJSON_ArrayForEach(entry, cJSON_GetObjectItem(sample, "joint_matrices")) {
        if (cJSON_GetObjectItem(entry, "skin")->valueint != skin) continue;
        uint32_t count = 0;
        const cJSON *matrix;
        cJSON_ArrayForEach(matrix, cJSON_GetObjectItem(entry, "matrices")) {
            if (count == capacity) return 0;
            golden_rows_from_json(matrix, rows + 12 * count++);
        }
        return count;
    }
    return 0;
}

uint32_t golden_weights(const cJSON *sample, int node, float *weights, uint32_t capacity) {
    const cJSON *entry;
    cJSON_ArrayForEach(entry, cJSON_GetObjectItem(sample, "morph_weights")) {
        if (cJSON_GetObjectItem(entry, "node")->valueint != node) continue;
        uint32_t count = 0;
        const cJSON *w;
        cJSON_ArrayForEach(w, cJSON_GetObjectItem(entry, "weights")) {
            if (count < capacity) weights[count++] = (float)w->valuedouble;
        }
        return count;
    }
    return 0;
}
