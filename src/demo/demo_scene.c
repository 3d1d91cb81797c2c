/* Materials, nodes and skins shared by the demo's models. */
#include "demo_scene.h"

#include <stdlib.h>

int demo_add_material(gltf_builder *b, const char *name, const float rgb[3], float roughness) {
    int index = gltf_next_index(b->materials);
    cJSON *material = gltf_append(b, b->materials);
    gltf_set_string(b, material, "name", name);
    cJSON *pbr = gltf_object(b, material, "pbrMetallicRoughness");
    const float rgba[4] = {rgb[0], rgb[1], rgb[2], 1.0f};
    gltf_set_floats(b, pbr, "baseColorFactor", rgba, 4);
    gltf_set_number(b, pbr, "metallicFactor", 0.0);
    gltf_set_number(b, pbr, "roughnessFactor", roughness);
    return index;
}

int demo_add_node(gltf_builder *b, const char *name, const float translation[3]) {
    int index = gltf_next_index(b->nodes);
    cJSON *node = gltf_append(b, b->nodes);
    gltf_set_string(b, node, "name", name);
    if (translation) gltf_set_floats(b, node, "translation", translation, 3);
    return index;
}

void demo_set_children(gltf_builder *b, int parent, const int *children, int count) {
    if (b->failed) return;
    gltf_set_ints(b, cJSON_GetArrayItem(b->nodes, parent), "children", children, count);
}

int demo_add_skin(gltf_builder *b, const char *name, const int *joints, int count,
                  const float (*bind)[3]) {
    float *matrices = calloc((size_t)count * 16u, sizeof(float));
    if (!matrices) {
        b->failed = 1;
        return -1;
    }
    for (int j = 0; j < count; j++) {
        float *m = matrices + 16 * j; /* column-major */
        m[0] = m[5] = m[10] = m[15] = 1.0f;
        m[12] = -bind[j][0];
        m[13] = -bind[j][1];
        m[14] = -bind[j][2];
    }
    int ibm = gltf_add_float_accessor(b, matrices, (uint32_t)count, "MAT4", 16, 0, 0);
    free(matrices);
    int index = gltf_next_index(b->skins);
    cJSON *skin = gltf_append(b, b->skins);
    gltf_set_string(b, skin, "name", name);
    gltf_set_number(b, skin, "inverseBindMatrices", ibm);
    gltf_set_ints(b, skin, "joints", joints, count);
    return index;
}

int demo_add_skinned_mesh_node(gltf_builder *b, const char *name, int mesh, int skin) {
    int index = demo_add_node(b, name, NULL);
    cJSON *node = cJSON_GetArrayItem(b->nodes, index);
    gltf_set_number(b, node, "mesh", mesh);
    gltf_set_number(b, node, "skin", skin);
    return index;
}
