/* nodes, skins, scenes and the default scene. */
#include <math.h>
#include <string.h>

#include "io/loader.h"

static void identity(float m[16]) {
    memset(m, 0, 16 * sizeof *m);
    m[0] = m[5] = m[10] = m[15] = 1.0f;
}

static void parse_transform(ossa_io_loader *L, const cJSON *item, ossa_node *n) {
    identity(n->matrix);
    n->rotation[3] = 1.0f;
    n->scale[0] = n->scale[1] = n->scale[2] = 1.0f;
    n->has_matrix = ossa_io_get_floats(L, item, "matrix", n->matrix, 16);
    int has_t = ossa_io_get_floats(L, item, "translation", n->translation, 3);
    int has_r = ossa_io_get_floats(L, item, "rotation", n->rotation, 4);
    int has_s = ossa_io_get_floats(L, item, "scale", n->scale, 3);
    if (n->has_matrix && (has_t || has_r || has_s))
        ossa_io_fail_key(L, "matrix", OSSA_ERROR_INVALID,
                         "a node has either a matrix or translation/rotation/scale, not both");
    if (has_r) {
        const float *q = n->rotation;
        double len = sqrt((double)q[0] * q[0] + (double)q[1] * q[1] + (double)q[2] * q[2] +
                          (double)q[3] * q[3]);
        if (len < 1e-6)
            ossa_io_fail_key(L, "rotation", OSSA_ERROR_INVALID,
                             "is a zero quaternion, which is no rotation");
        if (fabs(len - 1.0) > 1e-3)
            ossa_io_warn_key(L, "rotation", "the quaternion has length %g, not 1", len);
    }
    if (n->has_matrix) {
        const float *m = n->matrix;
        if (m[3] != 0.0f || m[7] != 0.0f || m[11] != 0.0f || m[15] != 1.0f)
            ossa_io_fail_key(L, "matrix", OSSA_ERROR_INVALID,
                             "the last row must be (0, 0, 0, 1) for a node transform");
        /* Decomposable into translation, rotation and scale: the 3x3 columns are orthogonal
         * (no shear), so the runtime's TRS poses can represent it. */
        for (int a = 0; a < 3; a++)
            for (int b = a + 1; b < 3; b++) {
                const float *x = m + 4 * a, *y = m + 4 * b;
                double dot = (double)x[0] * y[0] + (double)x[1] * y[1] + (double)x[2] * y[2];
                double lx = sqrt((double)x[0] * x[0] + (double)x[1] * x[1] + (double)x[2] * x[2]);
                double ly = sqrt((double)y[0] * y[0] + (double)y[1] * y[1] + (double)y[2] * y[2]);
                if (fabs(dot) > 1e-3 * lx * ly)
                    ossa_io_fail_key(L, "matrix", OSSA_ERROR_INVALID,
                                     "the matrix has shear (columns %d and %d are not "
                                     "orthogonal), so it is not a translation-rotation-scale",
                                     a, b);
            }
    }
}

/* The accessor of one EXT_mesh_gpu_instancing attribute, of the types the extension allows. */
static int32_t instance_accessor(ossa_io_loader *L, const cJSON *attributes, const char *name,
                                 uint32_t components, int rotation) {
    int32_t index = ossa_io_get_accessor(L, attributes, name, 1);
    const ossa_accessor *a = &L->doc->accessors[index];
    int component_ok = a->component_type == OSSA_COMPONENT_FLOAT;
    if (rotation)
        component_ok |= a->normalized && (a->component_type == OSSA_COMPONENT_BYTE ||
                                          a->component_type == OSSA_COMPONENT_SHORT);
    if ((uint32_t)a->type != components || !component_ok)
        ossa_io_fail_key(L, name, OSSA_ERROR_INVALID,
                         "accessor %d is %s %s%s; %s must be VEC%u FLOAT%s", index,
                         ossa_io_type_name(a->type), a->normalized ? "normalized " : "",
                         ossa_io_component_name(a->component_type), name, components,
                         rotation ? " or normalized BYTE or SHORT" : "");
    return index;
}

/* Finite values, and rotations that are not zero quaternions (path at the attribute). */
static void check_instance_values(ossa_io_loader *L, int32_t accessor, uint32_t components,
                                  int rotation) {
    if (accessor < 0 || !ossa_io_accessor_has_data(L, accessor)) return;
    const ossa_accessor *a = &L->doc->accessors[accessor];
    float *values = ossa_io_alloc_uninit(L, a->count * components, sizeof *values);
    ossa_accessor_read_float(L->doc, accessor, 0, a->count, values);
    for (uint64_t i = 0; i < a->count; i++) {
        const float *v = values + i * components;
        double length = 0;
        for (uint32_t k = 0; k < components; k++) {
            if (!isfinite(v[k]))
                ossa_io_fail(L, OSSA_ERROR_INVALID, "instance %llu is not finite",
                             (unsigned long long)i);
            length += (double)v[k] * v[k];
        }
        if (rotation && length < 1e-12)
            ossa_io_fail(L, OSSA_ERROR_INVALID, "instance %llu is a zero quaternion",
                         (unsigned long long)i);
    }
    ossa_io_release(L->storage, values);
}

/* EXT_mesh_gpu_instancing: per-instance TRANSLATION, ROTATION, SCALE accessors of equal count;
 * "_NAME" attributes belong to applications (checked as accessor indices only). */
static void parse_instancing(ossa_io_loader *L, const cJSON *item, ossa_node *n) {
    n->instance_translation = n->instance_rotation = n->instance_scale = -1;
    const cJSON *ext = ossa_io_get_extension(L, item, "EXT_mesh_gpu_instancing");
    if (!ext) return;
    size_t mark = ossa_io_path_key(L, "extensions");
    ossa_io_path_key(L, "EXT_mesh_gpu_instancing");
    static const char *const known[] = {"attributes", NULL};
    ossa_io_check_members(L, ext, known);
    const cJSON *attributes = ossa_io_get_object(L, ext, "attributes", 1);
    ossa_io_path_key(L, "attributes");
    uint64_t count = 0;
    const char *first = NULL;
    const cJSON *attribute;
    cJSON_ArrayForEach(attribute, attributes) {
        const char *name = attribute->string;
        int32_t index;
        if (!strcmp(name, "TRANSLATION"))
            index = n->instance_translation = instance_accessor(L, attributes, name, 3, 0);
        else if (!strcmp(name, "ROTATION"))
            index = n->instance_rotation = instance_accessor(L, attributes, name, 4, 1);
        else if (!strcmp(name, "SCALE"))
            index = n->instance_scale = instance_accessor(L, attributes, name, 3, 0);
        else if (name[0] == '_')
            index = ossa_io_get_accessor(L, attributes, name, 1);
        else {
            ossa_io_warn_key(L, name,
                             "'%s' is not an instance attribute (TRANSLATION, ROTATION, "
                             "SCALE or _NAME); ignored",
                             name);
            continue;
        }
        uint64_t n_items = L->doc->accessors[index].count;
        if (first && n_items != count)
            ossa_io_fail_key(L, name, OSSA_ERROR_INVALID,
                             "accessor %d has %llu elements, but %s has %llu; every attribute "
                             "must have the same count",
                             index, (unsigned long long)n_items, first, (unsigned long long)count);
        if (!first) first = name, count = n_items;
    }
    if (!first) ossa_io_fail(L, OSSA_ERROR_INVALID, "needs at least one attribute");
    int32_t accessors[3] = {n->instance_translation, n->instance_rotation, n->instance_scale};
    static const char *const names[3] = {"TRANSLATION", "ROTATION", "SCALE"};
    for (int k = 0; k < 3; k++) {
        size_t inner = ossa_io_path_key(L, names[k]);
        check_instance_values(L, accessors[k], k == 1 ? 4 : 3, k == 1);
        ossa_io_path_restore(L, inner);
    }
    ossa_io_path_restore(L, mark);
    if (n->mesh < 0) {
        ossa_io_warn_key(L, "extensions",
                         "EXT_mesh_gpu_instancing on a node without a mesh has no effect");
        return;
    }
    if (n->skin >= 0)
        ossa_io_warn_key(L, "extensions",
                         "EXT_mesh_gpu_instancing on a skinned node: its mesh is drawn once, "
                         "without the instances");
    n->instance_count = (uint32_t)count;
}

static void parse_node(ossa_io_loader *L, const cJSON *item, uint32_t index) {
    ossa_document *doc = L->doc;
    ossa_node *n = &doc->nodes[index];
    static const char *const known[] = {"camera",
                                        "children",
                                        "skin",
                                        "matrix",
                                        "mesh",
                                        "rotation",
                                        "scale",
                                        "translation",
                                        "weights",
                                        "name",
                                        "EXT_mesh_gpu_instancing",
                                        NULL};
    ossa_io_check_members(L, item, known);
    n->name = ossa_io_dup_string(L, item, "name");
    n->camera = ossa_io_get_index(L, item, "camera", L->camera_count, "camera", 0);
    n->mesh = ossa_io_get_index(L, item, "mesh", doc->mesh_count, "mesh", 0);
    n->skin = ossa_io_get_index(L, item, "skin", doc->skin_count, "skin", 0);
    if (n->skin >= 0 && n->mesh < 0)
        ossa_io_fail_key(L, "skin", OSSA_ERROR_INVALID, "a node with a skin needs a mesh");
    parse_transform(L, item, n);
    parse_instancing(L, item, n);
    const cJSON *weights;
    n->weight_count = ossa_io_get_array(L, item, "weights", &weights, 0);
    if (weights) {
        if (n->mesh < 0)
            ossa_io_fail_key(L, "weights", OSSA_ERROR_INVALID,
                             "morph weights need a mesh on the node");
        n->weights = ossa_io_alloc_array(L, n->weight_count, sizeof *n->weights);
        ossa_io_get_floats(L, item, "weights", n->weights, n->weight_count);
        if (n->weight_count != doc->meshes[n->mesh].target_count)
            ossa_io_fail_key(L, "weights", OSSA_ERROR_INVALID,
                             "has %u weights, but mesh %d has %u morph targets", n->weight_count,
                             n->mesh, doc->meshes[n->mesh].target_count);
    }
    const cJSON *children;
    n->child_count = ossa_io_get_array(L, item, "children", &children, 0);
    n->children = ossa_io_alloc_array(L, n->child_count, sizeof *n->children);
    size_t top = ossa_io_path_key(L, "children");
    uint32_t i = 0;
    const cJSON *child;
    cJSON_ArrayForEach(child, children) {
        size_t mark = ossa_io_path_index(L, i);
        int32_t c = ossa_io_index_value(L, child, doc->node_count, "node");
        if ((uint32_t)c == index)
            ossa_io_fail(L, OSSA_ERROR_INVALID, "node %u lists itself as a child", index);
        if (doc->nodes[c].parent >= 0)
            ossa_io_fail(L, OSSA_ERROR_INVALID,
                         "node %d already has parent %d; a node can have only one parent", c,
                         doc->nodes[c].parent);
        doc->nodes[c].parent = (int32_t)index;
        n->children[i++] = c;
        ossa_io_path_restore(L, mark);
    }
    ossa_io_path_restore(L, top);
}

void ossa_io_parse_nodes(ossa_io_loader *L) {
    ossa_document *doc = L->doc;
    const cJSON *array;
    doc->node_count = ossa_io_get_array(L, L->json.root, "nodes", &array, 0);
    doc->nodes = ossa_io_alloc_array(L, doc->node_count, sizeof *doc->nodes);
    /* Skins are counted first so nodes can check their skin index. */
    const cJSON *skins = ossa_io_member(L->json.root, "skins");
    doc->skin_count = cJSON_IsArray(skins) ? (uint32_t)cJSON_GetArraySize(skins) : 0;
    for (uint32_t i = 0; i < doc->node_count; i++)
        doc->nodes[i].parent = -1;
    ossa_io_visit(L, "nodes", array, parse_node);
}

static void parse_skin(ossa_io_loader *L, const cJSON *item, uint32_t index) {
    ossa_document *doc = L->doc;
    ossa_skin *s = &doc->skins[index];
    static const char *const known[] = {"inverseBindMatrices", "skeleton", "joints", "name", NULL};
    ossa_io_check_members(L, item, known);
    s->name = ossa_io_dup_string(L, item, "name");
    s->skeleton = ossa_io_get_index(L, item, "skeleton", doc->node_count, "node", 0);
    s->inverse_bind_matrices = ossa_io_get_accessor(L, item, "inverseBindMatrices", 0);
    const cJSON *joints;
    s->joint_count = ossa_io_get_array(L, item, "joints", &joints, 1);
    if (s->joint_count == 0)
        ossa_io_fail_key(L, "joints", OSSA_ERROR_INVALID, "a skin needs at least one joint");
    s->joints = ossa_io_alloc_array(L, s->joint_count, sizeof *s->joints);
    size_t top = ossa_io_path_key(L, "joints");
    uint32_t i = 0;
    const cJSON *joint;
    cJSON_ArrayForEach(joint, joints) {
        size_t mark = ossa_io_path_index(L, i);
        s->joints[i++] = ossa_io_index_value(L, joint, doc->node_count, "node");
        ossa_io_path_restore(L, mark);
    }
    ossa_io_path_restore(L, top);
    if (s->inverse_bind_matrices >= 0) {
        size_t mark = ossa_io_path_key(L, "inverseBindMatrices");
        const ossa_accessor *a = &doc->accessors[s->inverse_bind_matrices];
        if (a->type != OSSA_TYPE_MAT4 || a->component_type != OSSA_COMPONENT_FLOAT)
            ossa_io_fail(L, OSSA_ERROR_INVALID, "accessor %d is %s %s; it must be MAT4 FLOAT",
                         s->inverse_bind_matrices, ossa_io_type_name(a->type),
                         ossa_io_component_name(a->component_type));
        if (a->count < s->joint_count)
            ossa_io_fail(L, OSSA_ERROR_INVALID, "accessor %d has %llu matrices for %u joints",
                         s->inverse_bind_matrices, (unsigned long long)a->count, s->joint_count);
        if (a->count > s->joint_count)
            ossa_io_warn(L, "accessor %d has %llu matrices for %u joints; the rest are unused",
                         s->inverse_bind_matrices, (unsigned long long)a->count, s->joint_count);
        if (a->buffer_view >= 0 && doc->buffer_views[a->buffer_view].byte_stride)
            ossa_io_warn(L, "the buffer view of the inverse bind matrices has a byteStride");
        ossa_io_path_restore(L, mark);
    }
}

void ossa_io_parse_skins(ossa_io_loader *L) {
    ossa_document *doc = L->doc;
    const cJSON *array;
    doc->skin_count = ossa_io_get_array(L, L->json.root, "skins", &array, 0);
    doc->skins = ossa_io_alloc_array(L, doc->skin_count, sizeof *doc->skins);
    ossa_io_visit(L, "skins", array, parse_skin);
}

static void parse_scene(ossa_io_loader *L, const cJSON *item, uint32_t index) {
    ossa_document *doc = L->doc;
    ossa_scene *s = &doc->scenes[index];
    static const char *const known[] = {"nodes", "name", NULL};
    ossa_io_check_members(L, item, known);
    s->name = ossa_io_dup_string(L, item, "name");
    const cJSON *nodes;
    s->node_count = ossa_io_get_array(L, item, "nodes", &nodes, 0);
    s->nodes = ossa_io_alloc_array(L, s->node_count, sizeof *s->nodes);
    size_t top = ossa_io_path_key(L, "nodes");
    uint32_t i = 0;
    const cJSON *node;
    cJSON_ArrayForEach(node, nodes) {
        size_t mark = ossa_io_path_index(L, i);
        int32_t n = ossa_io_index_value(L, node, doc->node_count, "node");
        if (doc->nodes[n].parent >= 0)
            ossa_io_fail(L, OSSA_ERROR_INVALID,
                         "node %d is a child of node %d, so it cannot be a scene root", n,
                         doc->nodes[n].parent);
        if (L->scene_of_node[n] == (int32_t)index + 1)
            ossa_io_fail(L, OSSA_ERROR_INVALID, "node %d is listed twice", n);
        L->scene_of_node[n] = (int32_t)index + 1;
        s->nodes[i++] = n;
        ossa_io_path_restore(L, mark);
    }
    ossa_io_path_restore(L, top);
}

void ossa_io_parse_scenes(ossa_io_loader *L) {
    ossa_document *doc = L->doc;
    const cJSON *array;
    doc->scene_count = ossa_io_get_array(L, L->json.root, "scenes", &array, 0);
    doc->scenes = ossa_io_alloc_array(L, doc->scene_count, sizeof *doc->scenes);
    L->scene_of_node = ossa_io_alloc_array(L, doc->node_count, sizeof *L->scene_of_node);
    ossa_io_visit(L, "scenes", array, parse_scene);
    ossa_io_release(L->storage, L->scene_of_node);
    L->scene_of_node = NULL;
    doc->scene = ossa_io_get_index(L, L->json.root, "scene", doc->scene_count, "scene", 0);
}
