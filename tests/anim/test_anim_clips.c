/* The runtime model built from a small glTF written here: shared timelines (same contents,
 * different accessors), constant and one-key tracks folded into the base pose, default morph
 * weights, STEP weights, slerped rotations, and the caller's allocator. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clip/clip_internal.h"
#include "ossa/sample.h"
#include "ossa/clip.h"
#include "ossa/palette.h"
#include "ossa/rig.h"
#include "test_support.h"

/* Nodes: 0 "root" (child 1), 1 "arm", 2 "blob" (mesh with 2 morph targets, weights 0.1 0.2).
 * Animation "mix": arm translation LINEAR on times [0 1 2]; arm rotation LINEAR on another
 * accessor holding [0 1 2] (identity, 90 and 180 degrees about z); root scale constant (1 2 3)
 * on [0 1 2]; root translation with one key (5 6 7) at 0.25; blob weights STEP on [0 0.5]. */
static const char gltf[] =
    "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":292,\"uri\":\"data:application/"
    "octet-stre"
    "am;base64,AAAAAAAAgD8AAABAAAAAAAAAgD8AAABAAAAAAAAAAD8AAIA+AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAA"
    "AACAPwAAgD8AAAAAAAAAAAAAAAAAAAAAAACAPwAAAAAAAAAA8wQ1P/MENT8AAAAAAAAAAAAAgD8AAAAAAACAPwAAAE"
    "AAAEBAAACAPwAAAEAAAEBAAACAPwAAAEAAAEBAAACgQAAAwEAAAOBAAAAAAAAAgD8AAIA/AAAAAAAAAAAAAAAAAAAA"
    "AAAAgD8AAIA/AACAPwAAAEAAAABAAAAAQM3MzD0AAAAAAAAAAAAAAADNzMw9AAAAAAAAAAAAAAAAzczMPQAAAAAAAA"
    "AAzcxMPs3MTD4AAAAAAAAAAAAAAADNzEw+AAAAAA==\"}],\"bufferViews\":[{\"buffer\":0,\"byteOffset\":"
    "0,\"b"
    "yteLength\":12},{\"buffer\":0,\"byteOffset\":12,\"byteLength\":12},{\"buffer\":0,"
    "\"byteOffset\":24,\"b"
    "yteLength\":8},{\"buffer\":0,\"byteOffset\":32,\"byteLength\":4},{\"buffer\":0,\"byteOffset\":"
    "36,\"byt"
    "eLength\":36},{\"buffer\":0,\"byteOffset\":72,\"byteLength\":48},{\"buffer\":0,\"byteOffset\":"
    "120,\"by"
    "teLength\":36},{\"buffer\":0,\"byteOffset\":156,\"byteLength\":12},{\"buffer\":0,"
    "\"byteOffset\":168,\""
    "byteLength\":16},{\"buffer\":0,\"byteOffset\":184,\"byteLength\":36},{\"buffer\":0,"
    "\"byteOffset\":220"
    ",\"byteLength\":36},{\"buffer\":0,\"byteOffset\":256,\"byteLength\":36}],\"accessors\":[{"
    "\"bufferView"
    "\":0,\"componentType\":5126,\"count\":3,\"type\":\"SCALAR\",\"min\":[0],\"max\":[2]},{"
    "\"bufferView\":1,\"c"
    "omponentType\":5126,\"count\":3,\"type\":\"SCALAR\",\"min\":[0],\"max\":[2]},{\"bufferView\":"
    "2,\"compone"
    "ntType\":5126,\"count\":2,\"type\":\"SCALAR\",\"min\":[0],\"max\":[0.5]},{\"bufferView\":3,"
    "\"componentTy"
    "pe\":5126,\"count\":1,\"type\":\"SCALAR\",\"min\":[0.25],\"max\":[0.25]},{\"bufferView\":4,"
    "\"componentTy"
    "pe\":5126,\"count\":3,\"type\":\"VEC3\"},{\"bufferView\":5,\"componentType\":5126,\"count\":3,"
    "\"type\":\"V"
    "EC4\"},{\"bufferView\":6,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"},{"
    "\"bufferView\":7,\"compo"
    "nentType\":5126,\"count\":1,\"type\":\"VEC3\"},{\"bufferView\":8,\"componentType\":5126,"
    "\"count\":4,\"ty"
    "pe\":\"SCALAR\",\"min\":[0],\"max\":[1]},{\"bufferView\":9,\"componentType\":5126,\"count\":3,"
    "\"type\":\"V"
    "EC3\",\"min\":[0,0,0],\"max\":[2,2,2]},{\"bufferView\":10,\"componentType\":5126,\"count\":3,"
    "\"type\":\""
    "VEC3\",\"min\":[0,0,0],\"max\":[0.1,0.1,0.1]},{\"bufferView\":11,\"componentType\":5126,"
    "\"count\":3,\""
    "type\":\"VEC3\",\"min\":[0,0,0],\"max\":[0.2,0.2,0.2]}],\"meshes\":[{\"primitives\":[{"
    "\"attributes\":{\""
    "POSITION\":9},\"targets\":[{\"POSITION\":10},{\"POSITION\":11}]}],\"weights\":[0.1,0.2]}],"
    "\"nodes\":["
    "{\"name\":\"root\",\"children\":[1]},{\"name\":\"arm\"},{\"name\":\"blob\",\"mesh\":0}],"
    "\"scenes\":[{\"nodes\""
    ":[0,2]}],\"scene\":0,\"animations\":[{\"name\":\"mix\",\"samplers\":[{\"input\":0,\"output\":"
    "4},{\"input\""
    ":1,\"output\":5},{\"input\":0,\"output\":6},{\"input\":3,\"output\":7},{\"input\":2,"
    "\"output\":8,\"interp"
    "olation\":\"STEP\"}],\"channels\":[{\"sampler\":0,\"target\":{\"node\":1,\"path\":"
    "\"translation\"}},{\"sam"
    "pler\":1,\"target\":{\"node\":1,\"path\":\"rotation\"}},{\"sampler\":2,\"target\":{\"node\":0,"
    "\"path\":\"sca"
    "le\"}},{\"sampler\":3,\"target\":{\"node\":0,\"path\":\"translation\"}},{\"sampler\":4,"
    "\"target\":{\"node\""
    ":2,\"path\":\"weights\"}}]}]}";

static int allocations = 0;
static void *counting_alloc(void *user, size_t size) {
    (void)user;
    allocations++;
    return malloc(size);
}
static void counting_free(void *user, void *ptr) {
    (void)user;
    if (ptr) allocations--;
    free(ptr);
}

int main(void) {
    ossa_document *doc = NULL;
    ossa_error error;
    ossa_load_options options = {0};
    options.name = "hand.gltf";
    CHECK(ossa_document_load_memory(gltf, sizeof gltf - 1, &options, &doc, &error) == OSSA_OK);
    if (!doc) return ossa_test_finish("anim_clips");
    ossa_allocator allocator = {counting_alloc, counting_free, NULL};
    ossa_rig *rig = NULL;
    ossa_clip_set *clips = NULL;
    CHECK(ossa_rig_build(doc, &allocator, &rig, &error) == OSSA_OK);
    CHECK(rig && ossa_clip_set_build(doc, rig, &allocator, &clips, &error) == OSSA_OK);
    if (!rig || !clips) return ossa_test_finish("anim_clips");
    CHECK(allocations > 0);

    int32_t root = rig->rig_from_gltf[0], arm = rig->rig_from_gltf[1], blob = rig->rig_from_gltf[2];
    CHECK(rig->parent[arm] == root && rig->parent[root] == -1 && rig->parent[blob] == -1);
    CHECK(!strcmp(rig->names[arm], "arm"));
    CHECK(rig->weight_total == 2 && rig->weight_count[blob] == 2 && rig->weight_count[arm] == 0);
    CHECK(rig->rest_weights[rig->weight_offset[blob]] == 0.1f);
    CHECK(rig->rest_weights[rig->weight_offset[blob] + 1] == 0.2f);

    CHECK(ossa_clip_set_count(clips) == 1);
    const ossa_clip *clip = ossa_clip_set_clip(clips, 0);
    CHECK(!strcmp(clip->name, "mix"));
    CHECK(clip->start == 0.0f && clip->end == 2.0f && clip->duration == 2.0f);
    CHECK(clip->track_count == 3);          /* arm T, arm R, blob weights */
    CHECK(clip->constant_track_count == 2); /* root S (all keys equal), root T (one key) */
    CHECK(clip->timeline_count == 2);       /* [0 1 2] shared by two accessors, [0 0.5] */
    CHECK(ossa_cursor_size(clip) == 2);
    const ossa_timeline *shared =
        clip->timelines[0].key_count == 3 ? &clip->timelines[0] : &clip->timelines[1];
    CHECK(shared->key_count == 3 && shared->track_count == 2 && shared->slerp_track_count == 1 &&
          shared->lerp_track_count == 1);
    CHECK(clip->tracks[shared->first_track].path == OSSA_PATH_ROTATION);
    CHECK(clip->base_local[root].scale[1] == 2.0f && clip->base_local[root].translation[2] == 7.0f);

    ossa_trs local[3];
    float weights[2], world[36];
    ossa_pose pose = {local, weights};
    ossa_clip_sample(rig, clip, 0.25f, NULL, &pose);
    CHECK(weights[0] == 0.0f && weights[1] == 1.0f); /* STEP holds key 0 */
    CHECK(local[arm].translation[0] == 0.25f);
    ossa_clip_sample(rig, clip, 0.5f, NULL, &pose);
    CHECK(weights[0] == 1.0f && weights[1] == 0.0f); /* last key */
    ossa_clip_sample(rig, clip, 1.5f, NULL, &pose);
    CHECK_NEAR(local[arm].rotation[2], sin(3.14159265358979 * 3.0 / 8.0), 1e-6);
    CHECK_NEAR(local[arm].rotation[3], cos(3.14159265358979 * 3.0 / 8.0), 1e-6);
    CHECK(local[arm].translation[0] == 1.0f && local[arm].translation[1] == 0.5f);
    ossa_fk_matrices(rig, &pose, world);
    /* arm world translation = root T + root S * arm T = (5 + 1, 6 + 2 * 0.5, 7) */
    CHECK_NEAR(world[12 * arm + 3], 6.0, 1e-6);
    CHECK_NEAR(world[12 * arm + 7], 7.0, 1e-6);
    CHECK_NEAR(world[12 * arm + 11], 7.0, 1e-6);

    ossa_clip_set_free(clips);
    ossa_rig_free(rig);
    CHECK(allocations == 0); /* everything went back through the caller's allocator */
    ossa_document_free(doc);
    return ossa_test_finish("anim_clips");
}
