/* Each validation rule on a small document loaded from memory: the result code, the JSON path
 * and a key phrase of the message; harmless problems load with a warning at their path. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io_test_util.h"
#include "ossa/document.h"
#include "test_support.h"

/* One binary buffer shared by the cases (byte offsets in the comments). */
static uint8_t bin[528];

static void build_bin(void) {
    const float times_bad[4] = {0, 0.5f, 0.5f, 1};                            /* 0 */
    const float times_ok[4] = {0, 0.5f, 1, 1.5f};                             /* 16 */
    const float vec3[12] = {0, 0, 0, 1, 0, 0, 2, 0, 0, 3, 0, 0};              /* 32 */
    const float quats[16] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1}; /* 80 */
    const float nan3[4] = {NAN, 0, 0, 0};                                     /* 144 */
    const float ibm[32] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1,
                           1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}; /* 160 */
    const uint16_t indices[4] = {0, 1, 5, 0};                               /* 288 */
    const float pos[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};                       /* 296 */
    const uint8_t joints[12] = {0, 0, 0, 0, 1, 0, 0, 0, 3, 0, 0, 0};        /* 332 */
    const float weights[12] = {1, 0, 0, 0, 1, 0, 0, 0, 0.5f, 0.5f, 0, 0};   /* 344 */
    memcpy(bin + 0, times_bad, 16);
    memcpy(bin + 16, times_ok, 16);
    memcpy(bin + 32, vec3, 48);
    memcpy(bin + 80, quats, 64);
    memcpy(bin + 144, nan3, 16);
    memcpy(bin + 160, ibm, 128);
    memcpy(bin + 288, indices, 8);
    memcpy(bin + 296, pos, 36);
    memcpy(bin + 332, joints, 12);
    memcpy(bin + 344, weights, 48);
    const float bad_weights[12] = {1, 0, 0, 0, -0.5f, 1.5f, 0, 0, 1, 0, 0, 0};     /* 400 */
    const float bad_ibm[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0.5f, 0, 0, 0, 1}; /* 448 */
    memcpy(bin + 400, bad_weights, 48);
    memcpy(bin + 448, bad_ibm, 64);
    const uint8_t twice[12] = {1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0}; /* 512 */
    memcpy(bin + 512, twice, 12);
}

/* The common head: the buffer, one view over all of it, and accessors
 * 0 times_bad, 1 times_ok, 2 translations (VEC3 x4), 3 rotations (VEC4 x4), 4 NaN VEC3,
 * 5 IBMs (MAT4 x2), 6 indices (3), 7 positions (3), 8 joints (3), 9 weights (3),
 * 10 the times_ok again as VEC4 UNSIGNED_INT (format errors), 11 rotations as SCALAR x16,
 * 12 weights with a negative weight, 13 a non-affine inverse bind matrix, 14 joints listing
 * joint 1 twice per vertex. */
#define HEAD                                                                                       \
    "'asset':{'version':'2.0'},'buffers':[{'byteLength':528}],"                                    \
    "'bufferViews':[{'buffer':0,'byteLength':528}],'accessors':["                                  \
    "{'bufferView':0,'componentType':5126,'count':4,'type':'SCALAR'},"                             \
    "{'bufferView':0,'byteOffset':16,'componentType':5126,'count':4,'type':'SCALAR'},"             \
    "{'bufferView':0,'byteOffset':32,'componentType':5126,'count':4,'type':'VEC3'},"               \
    "{'bufferView':0,'byteOffset':80,'componentType':5126,'count':4,'type':'VEC4'},"               \
    "{'bufferView':0,'byteOffset':144,'componentType':5126,'count':1,'type':'VEC3'},"              \
    "{'bufferView':0,'byteOffset':160,'componentType':5126,'count':2,'type':'MAT4'},"              \
    "{'bufferView':0,'byteOffset':288,'componentType':5123,'count':3,'type':'SCALAR'},"            \
    "{'bufferView':0,'byteOffset':296,'componentType':5126,'count':3,'type':'VEC3'},"              \
    "{'bufferView':0,'byteOffset':332,'componentType':5121,'count':3,'type':'VEC4'},"              \
    "{'bufferView':0,'byteOffset':344,'componentType':5126,'count':3,'type':'VEC4'},"              \
    "{'bufferView':0,'byteOffset':16,'componentType':5125,'count':1,'type':'VEC4'},"               \
    "{'bufferView':0,'byteOffset':80,'componentType':5126,'count':16,'type':'SCALAR'},"            \
    "{'bufferView':0,'byteOffset':400,'componentType':5126,'count':3,'type':'VEC4'},"              \
    "{'bufferView':0,'byteOffset':448,'componentType':5126,'count':1,'type':'MAT4'},"              \
    "{'bufferView':0,'byteOffset':512,'componentType':5121,'count':3,'type':'VEC4'}]"

typedef struct rule_case {
    const char *name;
    const char *json; /* appended after HEAD inside the root object */
    ossa_result code;
    const char *path;
    const char *phrase;
} rule_case;

static const rule_case cases[] = {
    {"key times increase",
     ",'nodes':[{}],'animations':[{'samplers':[{'input':0,'output':2}],"
     "'channels':[{'sampler':0,'target':{'node':0,'path':'translation'}}]}]",
     OSSA_ERROR_INVALID, "animations[0].samplers[0].input",
     "key times must increase (t[2] = 0.5 after t[1] = 0.5)"},
    {"output count",
     ",'nodes':[{}],'animations':[{'samplers':[{'input':1,'output':4}],"
     "'channels':[{'sampler':0,'target':{'node':0,'path':'translation'}}]}]",
     OSSA_ERROR_INVALID, "animations[0].samplers[0].output", "but 4 keys"},
    {"cubic output count",
     ",'nodes':[{}],'animations':[{'samplers':[{'input':1,'output':2,"
     "'interpolation':'CUBICSPLINE'}],'channels':[{'sampler':0,'target':{'node':0,'path':"
     "'translation'}}]}]",
     OSSA_ERROR_INVALID, "animations[0].samplers[0].output", "x 3 (CUBICSPLINE) need 12"},
    {"translation format",
     ",'nodes':[{}],'animations':[{'samplers':[{'input':1,'output':3}],"
     "'channels':[{'sampler':0,'target':{'node':0,'path':'translation'}}]}]",
     OSSA_ERROR_INVALID, "animations[0].samplers[0].output", "not a valid format for translation"},
    {"rotation format",
     ",'nodes':[{}],'animations':[{'samplers':[{'input':1,'output':2}],"
     "'channels':[{'sampler':0,'target':{'node':0,'path':'rotation'}}]}]",
     OSSA_ERROR_INVALID, "animations[0].samplers[0].output", "not a valid format for rotation"},
    {"input format",
     ",'nodes':[{}],'animations':[{'samplers':[{'input':10,'output':2}],"
     "'channels':[{'sampler':0,'target':{'node':0,'path':'translation'}}]}]",
     OSSA_ERROR_INVALID, "animations[0].samplers[0].input", "key times must be SCALAR FLOAT"},
    {"weights need morph targets",
     ",'nodes':[{}],'animations':[{'samplers':[{'input':1,"
     "'output':11}],'channels':[{'sampler':0,'target':{'node':0,'path':'weights'}}]}]",
     OSSA_ERROR_INVALID, "animations[0].channels[0].target", "no mesh with morph targets"},
    {"duplicate channel target",
     ",'nodes':[{}],'animations':[{'samplers':[{'input':1,"
     "'output':2}],'channels':[{'sampler':0,'target':{'node':0,'path':'translation'}},"
     "{'sampler':0,'target':{'node':0,'path':'translation'}}]}]",
     OSSA_ERROR_INVALID, "animations[0].channels[1].target", "already animates"},
    {"channel sampler index",
     ",'nodes':[{}],'animations':[{'samplers':[{'input':1,"
     "'output':2}],'channels':[{'sampler':3,'target':{'node':0,'path':'translation'}}]}]",
     OSSA_ERROR_INVALID, "animations[0].channels[0].sampler", "refers to sampler 3"},
    {"NaN key value",
     ",'nodes':[{}],'animations':[{'samplers':[{'input':1,'output':4}],"
     "'channels':[{'sampler':0,'target':{'node':0,'path':'scale'}}]}]",
     OSSA_ERROR_INVALID, "animations[0].samplers[0].output", "values"},
    {"hierarchy cycle", ",'nodes':[{'children':[1]},{'children':[2]},{'children':[0]}]",
     OSSA_ERROR_INVALID, "nodes[0]", "cycle"},
    {"two parents", ",'nodes':[{'children':[2]},{'children':[2]},{}]", OSSA_ERROR_INVALID,
     "nodes[1].children[0]", "only one parent"},
    {"own child", ",'nodes':[{'children':[0]}]", OSSA_ERROR_INVALID, "nodes[0].children[0]",
     "itself"},
    {"child index", ",'nodes':[{'children':[4]}]", OSSA_ERROR_INVALID, "nodes[0].children[0]",
     "refers to node 4"},
    {"matrix and TRS", ",'nodes':[{'matrix':[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1],'scale':[1,1,1]}]",
     OSSA_ERROR_INVALID, "nodes[0].matrix", "not both"},
    {"infinite translation", ",'nodes':[{'translation':[1e999,0,0]}]", OSSA_ERROR_INVALID,
     "nodes[0].translation[0]", "finite"},
    {"zero rotation", ",'nodes':[{'rotation':[0,0,0,0]}]", OSSA_ERROR_INVALID, "nodes[0].rotation",
     "zero quaternion"},
    {"skin joint exists",
     ",'nodes':[{'mesh':0,'skin':0}],'skins':[{'joints':[0,7]}],"
     "'meshes':[{'primitives':[{'attributes':{'POSITION':7}}]}]",
     OSSA_ERROR_INVALID, "skins[0].joints[1]", "refers to node 7"},
    {"skin joints unique", ",'nodes':[{},{}],'skins':[{'joints':[1,0,1]}]", OSSA_ERROR_INVALID,
     "skins[0].joints[2]", "node 1 is listed twice"},
    {"IBM format", ",'nodes':[{}],'skins':[{'joints':[0],'inverseBindMatrices':3}]",
     OSSA_ERROR_INVALID, "skins[0].inverseBindMatrices", "MAT4 FLOAT"},
    {"IBM count", ",'nodes':[{},{},{}],'skins':[{'joints':[0,1,2],'inverseBindMatrices':5}]",
     OSSA_ERROR_INVALID, "skins[0].inverseBindMatrices", "2 matrices for 3 joints"},
    {"index range", ",'meshes':[{'primitives':[{'attributes':{'POSITION':7},'indices':6}]}]",
     OSSA_ERROR_INVALID, "meshes[0].primitives[0].indices", "index 2 is 5"},
    {"joints range",
     ",'nodes':[{'mesh':0,'skin':0},{}],'skins':[{'joints':[0,1]}],"
     "'meshes':[{'primitives':[{'attributes':{'POSITION':7,'JOINTS_0':8,'WEIGHTS_0':9}}]}]",
     OSSA_ERROR_INVALID, "meshes[0].primitives[0].attributes.JOINTS_0", "uses joint 3"},
    {"NaN position", ",'meshes':[{'primitives':[{'mode':0,'attributes':{'POSITION':4}}]}]",
     OSSA_ERROR_INVALID, "meshes[0].primitives[0].attributes.POSITION", "not a finite number"},
    {"JOINTS without WEIGHTS",
     ",'meshes':[{'primitives':[{'attributes':{'POSITION':7,"
     "'JOINTS_0':8}}]}]",
     OSSA_ERROR_INVALID, "meshes[0].primitives[0].attributes", "WEIGHTS_0 is missing"},
    {"attribute format", ",'meshes':[{'primitives':[{'attributes':{'POSITION':9}}]}]",
     OSSA_ERROR_INVALID, "meshes[0].primitives[0].attributes.POSITION", "VEC4 FLOAT"},
    {"attribute counts", ",'meshes':[{'primitives':[{'attributes':{'POSITION':7,'NORMAL':2}}]}]",
     OSSA_ERROR_INVALID, "meshes[0].primitives[0].attributes.NORMAL", "has 4 elements"},
    {"attribute name", ",'meshes':[{'primitives':[{'attributes':{'POSITION':7,'texcoord':7}}]}]",
     OSSA_ERROR_INVALID, "meshes[0].primitives[0].attributes.texcoord",
     "not a glTF attribute name"},
    {"required extension",
     ",'extensionsUsed':['KHR_draco_mesh_compression'],"
     "'extensionsRequired':['KHR_draco_mesh_compression']",
     OSSA_ERROR_UNSUPPORTED, "extensionsRequired[0]", "'KHR_draco_mesh_compression'"},
    {"default scene", ",'scene':2,'scenes':[{}]", OSSA_ERROR_INVALID, "scene", "refers to scene 2"},
    {"scene root with parent", ",'nodes':[{'children':[1]},{}],'scenes':[{'nodes':[1]}]",
     OSSA_ERROR_INVALID, "scenes[0].nodes[0]", "cannot be a scene root"},
    {"mesh weights count",
     ",'meshes':[{'weights':[1],'primitives':[{'attributes':"
     "{'POSITION':7}}]}]",
     OSSA_ERROR_INVALID, "meshes[0].weights", "has 1 weights, but the primitives have 0"},
    {"matrix shear", ",'nodes':[{'matrix':[1,0,0,0,1,1,0,0,0,0,1,0,0,0,0,1]}]", OSSA_ERROR_INVALID,
     "nodes[0].matrix", "shear"},
    {"animated matrix node",
     ",'nodes':[{'matrix':[2,0,0,0,0,2,0,0,0,0,2,0,0,0,0,1]}],"
     "'animations':[{'samplers':[{'input':1,'output':2}],'channels':[{'sampler':0,'target':"
     "{'node':0,'path':'translation'}}]}]",
     OSSA_ERROR_INVALID, "animations[0].channels[0].target", "has a matrix"},
    {"negative weight",
     ",'meshes':[{'primitives':[{'mode':0,'attributes':{'POSITION':7,"
     "'JOINTS_0':8,'WEIGHTS_0':12}}]}]",
     OSSA_ERROR_INVALID, "meshes[0].primitives[0].attributes.WEIGHTS_0", "finite and >= 0"},
    {"IBM affine", ",'nodes':[{}],'skins':[{'joints':[0],'inverseBindMatrices':13}]",
     OSSA_ERROR_INVALID, "skins[0].inverseBindMatrices", "not affine"},
    {"interpolation name",
     ",'nodes':[{}],'animations':[{'samplers':[{'input':1,'output':2,"
     "'interpolation':'SMOOTH'}],'channels':[{'sampler':0,'target':{'node':0,'path':"
     "'translation'}}]}]",
     OSSA_ERROR_INVALID, "animations[0].samplers[0].interpolation", "'SMOOTH'"},
    {"wrong type", ",'nodes':[{'name':42}]", OSSA_ERROR_INVALID, "nodes[0].name",
     "must be a string"},
};

static void run_case(const rule_case *c) {
    char json[8192];
    snprintf(json, sizeof json, "{" HEAD "%s}", c->json);
    ossa_document *doc = NULL;
    ossa_error error;
    ossa_result r = io_load_json(json, bin, sizeof bin, NULL, &doc, &error);
    CHECKF(r == c->code, "%s: result %s, expected %s (%s: %s)", c->name, ossa_result_name(r),
           ossa_result_name(c->code), error.path, error.message);
    CHECKF(!strcmp(error.path, c->path), "%s: path '%s', expected '%s'", c->name, error.path,
           c->path);
    CHECKF(strstr(error.message, c->phrase) != NULL, "%s: message '%s' lacks '%s'", c->name,
           error.message, c->phrase);
    CHECKF(!strcmp(error.file, "case.gltf"), "%s: file '%s'", c->name, error.file);
    CHECK(doc == NULL);
    ossa_document_free(doc);
}

static ossa_result load_text(const char *json, ossa_document **doc, ossa_error *error) {
    return io_load_json(json, bin, sizeof bin, NULL, doc, error);
}

/* Accessor ranges, with values near 2^64 that would overflow 64-bit sums. */
static void test_accessor_ranges(void) {
    const char *overflows[] = {
        "{'asset':{'version':'2.0'},'buffers':[{'byteLength':400}],'bufferViews':[{'buffer':0,"
        "'byteLength':400}],'accessors':[{'bufferView':0,'byteOffset':392,'componentType':5126,"
        "'count':1,'type':'VEC3'}]}",
        "{'asset':{'version':'2.0'},'buffers':[{'byteLength':400}],'bufferViews':[{'buffer':0,"
        "'byteLength':400,'byteStride':252}],'accessors':[{'bufferView':0,'componentType':5126,"
        "'count':9007199254740991,'type':'VEC3'}]}",
        "{'asset':{'version':'2.0'},'buffers':[{'byteLength':400}],'bufferViews':[{'buffer':0,"
        "'byteLength':400}],'accessors':[{'bufferView':0,'byteOffset':9007199254740988,"
        "'componentType':5126,'count':1,'type':'SCALAR'}]}",
    };
    ossa_load_options options;
    memset(&options, 0, sizeof options);
    options.max_elements = UINT64_MAX;
    for (size_t i = 0; i < sizeof overflows / sizeof overflows[0]; i++) {
        ossa_document *doc = NULL;
        ossa_error error;
        ossa_result r = io_load_json(overflows[i], bin, sizeof bin, &options, &doc, &error);
        CHECKF(r == OSSA_ERROR_INVALID, "range case %zu: %s", i, error.message);
        CHECKF(!strcmp(error.path, "accessors[0]"), "range case %zu: path %s", i, error.path);
        CHECKF(strstr(error.message, "do not fit") != NULL, "range case %zu: %s", i, error.message);
    }
    /* A buffer view outside its buffer. */
    ossa_document *doc = NULL;
    ossa_error error;
    CHECK(load_text("{'asset':{'version':'2.0'},'buffers':[{'byteLength':400}],'bufferViews':["
                    "{'buffer':0,'byteOffset':9007199254740992,'byteLength':8}]}",
                    &doc, &error) == OSSA_ERROR_INVALID);
    CHECK(!strcmp(error.path, "bufferViews[0].byteOffset"));
    CHECK(load_text("{'asset':{'version':'2.0'},'buffers':[{'byteLength':400}],'bufferViews':["
                    "{'buffer':0,'byteOffset':396,'byteLength':8}]}",
                    &doc, &error) == OSSA_ERROR_INVALID);
    CHECK(!strcmp(error.path, "bufferViews[0].byteLength"));
    CHECK(strstr(error.message, "outside buffer 0") != NULL);
    /* The element-count limit. */
    options.max_elements = 2;
    CHECK(io_load_json("{" HEAD "}", bin, sizeof bin, &options, &doc, &error) == OSSA_ERROR_LIMIT);
    CHECK(!strcmp(error.path, "accessors"));
    options.max_elements = 0;
    options.max_buffer_bytes = 100;
    CHECK(io_load_json("{" HEAD "}", bin, sizeof bin, &options, &doc, &error) == OSSA_ERROR_LIMIT);
    CHECK(!strcmp(error.path, "buffers[0].byteLength"));
    options.max_buffer_bytes = 0;
    options.max_file_bytes = 100;
    CHECK(io_load_json("{" HEAD "}", bin, sizeof bin, &options, &doc, &error) == OSSA_ERROR_LIMIT);
    CHECK(doc == NULL);
}

/* Harmless problems load, with a warning at their path. */
static void test_warnings(void) {
    ossa_document *doc = NULL;
    ossa_error error;
    ossa_result r =
        load_text("{'asset':{'version':'2.0','custom':1},'buffers':[{'byteLength':400}],"
                  "'bufferViews':[{'buffer':0,'byteLength':400}],'accessors':["
                  "{'bufferView':0,'byteOffset':16,'componentType':5126,'count':4,'type':'SCALAR',"
                  "'min':[0],'max':[2]},"
                  "{'bufferView':0,'byteOffset':32,'componentType':5126,'count':4,'type':'VEC3'},"
                  "{'bufferView':0,'componentType':5126,'count':4,'type':'VEC5'}],"
                  "'meshes':[{'primitives':[{'attributes':{'POSITION':1}}]}],"
                  "'nodes':[{'rotation':[0,0,0,2],'mystery':true}],"
                  "'images':[{'uri':'missing.png'}],'scenes':[],"
                  "'animations':[{'samplers':[{'input':0,'output':1}],'channels':[{'sampler':0,"
                  "'target':{'path':'translation'}}]}]}",
                  &doc, &error);
    CHECKF(r == OSSA_OK, "%s: %s", error.path, error.message);
    CHECK(io_has_warning(doc, "asset.custom", "unknown property"));
    CHECK(io_has_warning(doc, "accessors[0].max[0]", "does not match the data's maximum 1.5"));
    CHECK(io_has_warning(doc, "nodes[0].rotation", "length 2"));
    CHECK(io_has_warning(doc, "nodes[0].mystery", "unknown property"));
    CHECK(io_has_warning(doc, "images[0].uri", "cannot be loaded"));
    CHECK(io_has_warning(doc, "scenes", "empty"));
    CHECK(io_has_warning(doc, "animations[0].channels[0].target", "no target node"));
    CHECK(io_has_warning(doc, "meshes[0].primitives[0]", "4 vertices do not form whole TRIANGLES"));
    CHECK(io_has_warning(doc, "meshes[0].primitives[0].attributes.POSITION", "no min and max"));
    CHECK(io_has_warning(doc, "accessors[2].type", "'VEC5' is not an accessor type"));
    if (doc) {
        /* The document stays faithful: the quaternion is not normalized. */
        CHECK(doc->nodes[0].rotation[3] == 2.0f);
        CHECK(doc->images[0].data == NULL);
        CHECK(doc->animations[0].channels[0].node == -1);
    }
    ossa_document_free(doc);
}

/* A file needing a newer reader (asset.minVersion above 2.0) is refused by name. */
static void test_min_version(void) {
    ossa_document *doc = NULL;
    ossa_error error;
    ossa_result r = load_text("{'asset':{'version':'2.1','minVersion':'2.1'}}", &doc, &error);
    CHECK(r == OSSA_ERROR_UNSUPPORTED && doc == NULL);
    CHECK(!strcmp(error.path, "asset.minVersion"));
    CHECK(strstr(error.message, "needs glTF 2.1") != NULL);
    r = load_text("{'asset':{'version':'2.1','minVersion':'2.0'}}", &doc, &error);
    CHECKF(r == OSSA_OK, "%s: %s", error.path, error.message);
    CHECK(io_has_warning(doc, "asset.version", "newer than 2.0"));
    ossa_document_free(doc);
}

/* Key times without data (no bufferView) read as zeros: with two or more keys no timeline can
 * be made of them, so the channels using the sampler are ignored, with a warning; one key is a
 * constant at time 0 and stays. */
static void test_key_times_without_data(void) {
    ossa_document *doc = NULL;
    ossa_error error;
    ossa_result r =
        load_text("{'asset':{'version':'2.0'},'nodes':[{},{}],'accessors':["
                  "{'componentType':5126,'count':2,'type':'SCALAR'},"
                  "{'componentType':5126,'count':2,'type':'VEC3'},"
                  "{'componentType':5126,'count':1,'type':'SCALAR'},"
                  "{'componentType':5126,'count':1,'type':'VEC3'}],"
                  "'animations':[{'samplers':[{'input':0,'output':1},{'input':2,'output':3}],"
                  "'channels':[{'sampler':0,'target':{'node':0,'path':'scale'}},"
                  "{'sampler':1,'target':{'node':1,'path':'translation'}}]}]}",
                  &doc, &error);
    CHECKF(r == OSSA_OK, "%s: %s", error.path, error.message);
    if (r != OSSA_OK) return;
    CHECK(io_has_warning(doc, "animations[0].samplers[0].input", "channels using this sampler"));
    CHECK(doc->animations[0].channels[0].node == -1);
    CHECK(doc->animations[0].channels[1].node == 1);
    ossa_document_free(doc);
}

/* At most 1000 warnings are kept, then one entry says how many more there were. */
static void test_warning_limit(void) {
    size_t cap = 1200 * 16 + 64;
    char *json = malloc(cap);
    size_t len = (size_t)snprintf(json, cap, "{'asset':{'version':'2.0'}");
    for (int i = 0; i < 1200; i++)
        len += (size_t)snprintf(json + len, cap - len, ",'x%d':0", i);
    snprintf(json + len, cap - len, "}");
    ossa_document *doc = NULL;
    ossa_error error;
    CHECK(io_load_json(json, NULL, 0, NULL, &doc, &error) == OSSA_OK);
    if (doc) {
        CHECK(doc->warning_count == 1001);
        CHECK(!strcmp(doc->warnings[0].path, "x0"));
        CHECK(!strcmp(doc->warnings[1000].message, "200 more warnings were left out"));
    }
    ossa_document_free(doc);
    free(json);
}

/* An accessor of unknown type is refused where something uses it. */
static void test_unknown_type_in_use(void) {
    ossa_document *doc = NULL;
    ossa_error error;
    CHECK(load_text("{'asset':{'version':'2.0'},'buffers':[{'byteLength':512}],"
                    "'bufferViews':[{'buffer':0,'byteLength':512}],'accessors':["
                    "{'bufferView':0,'componentType':5126,'count':4,'type':'VEC5'}],"
                    "'meshes':[{'primitives':[{'attributes':{'POSITION':0}}]}]}",
                    &doc, &error) == OSSA_ERROR_INVALID);
    CHECK(!strcmp(error.path, "meshes[0].primitives[0].attributes.POSITION"));
    CHECK(strstr(error.message, "unknown type") != NULL);
    /* Matrices of 1- and 2-byte components start on 4-byte boundaries. */
    CHECK(load_text("{'asset':{'version':'2.0'},'buffers':[{'byteLength':512}],"
                    "'bufferViews':[{'buffer':0,'byteLength':512}],'accessors':["
                    "{'bufferView':0,'byteOffset':2,'componentType':5122,'count':1,"
                    "'type':'MAT2'}]}",
                    &doc, &error) == OSSA_ERROR_INVALID);
    CHECK(!strcmp(error.path, "accessors[0].byteOffset"));
    CHECK(strstr(error.message, "4-byte boundary") != NULL);
}

/* KHR_mesh_quantization widens the attribute formats only when required. */
static void test_quantization(void) {
    const char *body =
        "'asset':{'version':'2.0'},'buffers':[{'byteLength':400}],"
        "'bufferViews':[{'buffer':0,'byteLength':400}],'accessors':["
        "{'bufferView':0,'byteOffset':296,'componentType':5122,'count':3,'type':'VEC3'}],"
        "'meshes':[{'primitives':[{'attributes':{'POSITION':0}}]}]";
    char json[2048];
    ossa_document *doc = NULL;
    ossa_error error;
    snprintf(json, sizeof json, "{%s}", body);
    CHECK(load_text(json, &doc, &error) == OSSA_ERROR_INVALID);
    CHECK(!strcmp(error.path, "meshes[0].primitives[0].attributes.POSITION"));
    CHECK(strstr(error.message, "without KHR_mesh_quantization") != NULL);
    snprintf(json, sizeof json,
             "{%s,'extensionsUsed':['KHR_mesh_quantization'],"
             "'extensionsRequired':['KHR_mesh_quantization']}",
             body);
    CHECK(load_text(json, &doc, &error) == OSSA_OK);
    ossa_document_free(doc);
}

/* A chain of 100,000 nodes loads (no recursion anywhere); closing it into a loop is refused. */
static void test_deep_hierarchy(void) {
    const int n = 100000;
    size_t cap = (size_t)n * 24 + 256;
    char *json = malloc(cap);
    for (int loop = 0; loop < 2; loop++) {
        size_t len = (size_t)snprintf(json, cap, "{'asset':{'version':'2.0'},'nodes':[");
        for (int i = 0; i < n; i++) {
            int child = i + 1 < n ? i + 1 : (loop ? 0 : -1);
            if (child >= 0)
                len += (size_t)snprintf(json + len, cap - len, "%s{'children':[%d]}", i ? "," : "",
                                        child);
            else
                len += (size_t)snprintf(json + len, cap - len, "%s{}", i ? "," : "");
        }
        snprintf(json + len, cap - len, "]}");
        ossa_document *doc = NULL;
        ossa_error error;
        ossa_result r = io_load_json(json, NULL, 0, NULL, &doc, &error);
        if (!loop) {
            CHECKF(r == OSSA_OK, "deep chain: %s", error.message);
            if (doc) CHECK(doc->nodes[n - 1].parent == n - 2 && doc->nodes[0].parent == -1);
        } else {
            CHECK(r == OSSA_ERROR_INVALID);
            CHECK(strstr(error.message, "cycle") != NULL);
        }
        ossa_document_free(doc);
    }
    free(json);
}

/* The JSON text itself. */
static void test_json(void) {
    ossa_document *doc = NULL;
    ossa_error error;
    const char bom[] = "\xEF\xBB\xBF{\"asset\":{\"version\":\"2.0\"}}";
    ossa_load_options options;
    memset(&options, 0, sizeof options);
    options.name = "bom.gltf";
    CHECK(ossa_document_load_memory(bom, sizeof bom - 1, &options, &doc, &error) ==
          OSSA_ERROR_JSON);
    CHECK(strstr(error.message, "byte order mark") != NULL);
    CHECK(!strcmp(error.file, "bom.gltf"));
    CHECK(io_load_json("{'asset':{'version':'2.0'},", NULL, 0, NULL, &doc, &error) ==
          OSSA_ERROR_JSON);
    CHECK(io_load_json("[1]", NULL, 0, NULL, &doc, &error) == OSSA_ERROR_JSON);
    /* a repeated key: the later value counts (glTF 2.0, 2.7), with a warning */
    CHECK(io_load_json("{'asset':{'version':'1.0','version':'2.0'},'nodes':[{'name':'a',"
                       "'name':'b'}]}",
                       NULL, 0, NULL, &doc, &error) == OSSA_OK);
    CHECK(doc && doc->node_count == 1 && !strcmp(doc->nodes[0].name, "b"));
    CHECK(doc && io_has_warning(doc, "asset.version", "given twice in one object: the later"));
    CHECK(doc && io_has_warning(doc, "nodes[0].name", "given twice"));
    ossa_document_free(doc);
    CHECK(io_load_json("{}", NULL, 0, NULL, &doc, &error) == OSSA_ERROR_INVALID);
    CHECK(!strcmp(error.path, "asset"));
    CHECK(io_load_json("{'asset':{'version':'3.0'}}", NULL, 0, NULL, &doc, &error) ==
          OSSA_ERROR_UNSUPPORTED);
    CHECK(!strcmp(error.path, "asset.version"));
    CHECK(ossa_document_load_memory(NULL, 4, NULL, &doc, &error) == OSSA_ERROR_ARGUMENT);
    CHECK(ossa_document_load_memory("{}", 2, NULL, NULL, &error) == OSSA_ERROR_ARGUMENT);
    CHECK(ossa_document_load_file("/nonexistent/x.gltf", NULL, &doc, &error) == OSSA_ERROR_IO);
    CHECK(!strcmp(error.file, "x.gltf"));
    CHECK(doc == NULL);
}

/* One skinned vertex: joints[a] == joints[b] (as UNSIGNED_BYTE or UNSIGNED_SHORT) with weights
 * (the checks compare every pair of slots, and read each weight). Returns the load's result. */
static ossa_result load_vertex(int short_joints, int a, int b, const float weights[4],
                               ossa_document **doc, ossa_error *error) {
    uint8_t vertex[36] = {0}; /* position 0, joints 12, weights 20 */
    uint16_t joints[4] = {4, 5, 6, 7};
    joints[a] = joints[b] = 2;
    for (int k = 0; k < 4; k++) {
        if (short_joints)
            memcpy(vertex + 12 + 2 * k, &joints[k], 2);
        else
            vertex[12 + k] = (uint8_t)joints[k];
    }
    memcpy(vertex + 20, weights, 16);
    char json[1024];
    snprintf(json, sizeof json,
             "{'asset':{'version':'2.0'},'buffers':[{'byteLength':36}],'bufferViews':[{'buffer':"
             "0,'byteLength':36}],'accessors':[{'bufferView':0,'componentType':5126,'count':1,"
             "'type':'VEC3','min':[0,0,0],'max':[0,0,0]},{'bufferView':0,'byteOffset':12,"
             "'componentType':%d,'count':1,'type':'VEC4'},{'bufferView':0,'byteOffset':20,"
             "'componentType':5126,'count':1,'type':'VEC4'}],'meshes':[{'primitives':[{'mode':0,"
             "'attributes':{'POSITION':0,'JOINTS_0':1,'WEIGHTS_0':2}}]}]}",
             short_joints ? 5123 : 5121);
    return io_load_json(json, vertex, sizeof vertex, NULL, doc, error);
}

/* Every pair of slots, both joint sizes: a joint listed twice with non-zero weights is warned,
 * with a zero weight on one of them it is not; a weight that is NaN, infinite or negative in
 * any slot is refused. */
static void test_joint_pairs(void) {
    static const int pairs[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
    const char *path = "meshes[0].primitives[0].attributes.JOINTS_0";
    for (int size = 0; size < 2; size++)
        for (int i = 0; i < 6; i++) {
            int a = pairs[i][0], b = pairs[i][1];
            ossa_document *doc = NULL;
            ossa_error error;
            const float even[4] = {0.25f, 0.25f, 0.25f, 0.25f};
            CHECKF(load_vertex(size, a, b, even, &doc, &error) == OSSA_OK, "%s", error.message);
            CHECKF(io_has_warning(doc, path, "vertex 0 lists joint 2 twice"),
                   "slots %d and %d, %d-byte joints", a, b, size + 1);
            ossa_document_free(doc);
            float one_zero[4] = {0.25f, 0.25f, 0.25f, 0.25f};
            one_zero[b] = 0;
            one_zero[a] = 0.5f;
            CHECK(load_vertex(size, a, b, one_zero, &doc, &error) == OSSA_OK);
            CHECKF(!io_has_warning(doc, path, "twice"), "slots %d and %d", a, b);
            CHECK(!io_has_warning(doc, "meshes[0].primitives[0].attributes.WEIGHTS_0", "sum"));
            ossa_document_free(doc);
        }
    const float bad[3] = {NAN, INFINITY, -0.25f};
    for (int k = 0; k < 4; k++)
        for (int i = 0; i < 3; i++) {
            float weights[4] = {0.25f, 0.25f, 0.25f, 0.25f};
            weights[k] = bad[i];
            ossa_document *doc = NULL;
            ossa_error error;
            CHECKF(load_vertex(1, 0, 1, weights, &doc, &error) == OSSA_ERROR_INVALID,
                   "weight %d = %g accepted", k, (double)bad[i]);
            CHECK(strstr(error.message, "weights must be finite and >= 0") != NULL);
        }
}

/* skip_images: images given by URI (a data URI, a missing file) are not read, and not warned;
 * an image in a buffer view still points at its bytes. Without it both URIs are read. */
static void test_skip_images(void) {
    const char *json =
        "{'asset':{'version':'2.0'},'buffers':[{'byteLength':528}],'bufferViews':[{'buffer':0,"
        "'byteOffset':8,'byteLength':8}],'images':[{'uri':'data:image/png;base64,iVBORw0KGgo='},"
        "{'uri':'missing.png'},{'bufferView':0,'mimeType':'image/png'}]}";
    for (int skip = 0; skip < 2; skip++) {
        ossa_load_options options = {0};
        options.skip_images = skip;
        ossa_document *doc = NULL;
        ossa_error error;
        CHECKF(io_load_json(json, bin, sizeof bin, &options, &doc, &error) == OSSA_OK, "%s: %s",
               error.path, error.message);
        if (!doc) continue;
        CHECKF((doc->images[0].data != NULL) == !skip, "skip %d", skip);
        CHECK(doc->images[0].byte_length == (skip ? 0u : 8u));
        CHECK(doc->images[1].data == NULL);
        CHECKF(io_has_warning(doc, "images[1].uri", "cannot be loaded") == !skip, "skip %d", skip);
        CHECK(doc->images[2].byte_length == 8 && doc->images[2].data &&
              !memcmp(doc->images[2].data, bin + 8, 8));
        ossa_document_free(doc);
    }
}

/* An animation of 13 rotation keys (times at byte 0, quaternions at byte 64) loaded from the
 * given values: the checks read packed keys four at a time, so each case puts its fault at every
 * position. */
enum { KEYS = 13 };
static ossa_result load_keys(const float *times, float (*quats)[4], ossa_document **doc,
                             ossa_error *error) {
    uint8_t data[64 + KEYS * 16];
    memcpy(data, times, KEYS * sizeof(float));
    memcpy(data + 64, quats, KEYS * 16);
    char json[1024];
    snprintf(json, sizeof json,
             "{'asset':{'version':'2.0'},'buffers':[{'byteLength':%d}],'bufferViews':[{'buffer':0,"
             "'byteLength':%d}],'accessors':[{'bufferView':0,'componentType':5126,'count':%d,"
             "'type':'SCALAR','min':[0],'max':[1]},{'bufferView':0,'byteOffset':64,"
             "'componentType':5126,'count':%d,'type':'VEC4'}],'nodes':[{}],'animations':[{"
             "'samplers':[{'input':0,'output':1}],'channels':[{'sampler':0,'target':{'node':0,"
             "'path':'rotation'}}]}]}",
             (int)sizeof data, (int)sizeof data, KEYS, KEYS);
    return io_load_json(json, data, sizeof data, NULL, doc, error);
}

static void test_key_blocks(void) {
    float times[KEYS], quats[KEYS][4];
    for (int k = 0; k < KEYS; k++) {
        times[k] = (float)k / 16;
        quats[k][0] = quats[k][1] = quats[k][2] = 0;
        quats[k][3] = 1;
    }
    ossa_document *doc = NULL;
    ossa_error error;
    CHECKF(load_keys(times, quats, &doc, &error) == OSSA_OK, "%s", error.message);
    ossa_document_free(doc);
    const char *sampler = "animations[0].channels[0].sampler";
    for (int at = 0; at < KEYS; at++) {
        char expected[128];
        /* key times: repeated, negative, not a number, infinite */
        const float faults[4] = {at ? times[at - 1] : -1.0f, -0.5f, NAN, INFINITY};
        for (int f = 0; f < 4; f++) {
            float bad[KEYS];
            memcpy(bad, times, sizeof bad);
            bad[at] = faults[f];
            ossa_result r = load_keys(bad, quats, &doc, &error);
            CHECKF(r == OSSA_ERROR_INVALID, "time %d fault %d accepted", at, f);
            if (f == 0 && at)
                snprintf(expected, sizeof expected, "t[%d] = %g after t[%d]", at, (double)bad[at],
                         at - 1);
            else if (f == 2 || f == 3)
                snprintf(expected, sizeof expected, "key time t[%d] is not finite", at);
            else
                snprintf(expected, sizeof expected, "key time t[%d] = %g is negative", at,
                         (double)bad[at]);
            CHECKF(r != OSSA_ERROR_INVALID || strstr(error.message, expected), "%s, not %s",
                   error.message, expected);
        }
        /* a zero rotation is refused */
        float zero[KEYS][4];
        memcpy(zero, quats, sizeof zero);
        zero[at][3] = 0;
        CHECK(load_keys(times, zero, &doc, &error) == OSSA_ERROR_INVALID);
        snprintf(expected, sizeof expected, "key value %d is a zero quaternion", at);
        CHECKF(strstr(error.message, expected) != NULL, "%s", error.message);
        /* lengths 1.0049 (unit within 5e-3) and 1.0051 here and 0.9949 four keys on (not unit) */
        float near[KEYS][4];
        memcpy(near, quats, sizeof near);
        near[at][3] = 1.0049f;
        CHECK(load_keys(times, near, &doc, &error) == OSSA_OK);
        CHECKF(!io_has_warning(doc, sampler, "not unit"), "key %d of length 1.0049", at);
        ossa_document_free(doc);
        near[at][3] = 1.0051f;
        near[(at + 4) % KEYS][3] = 0.9949f;
        CHECK(load_keys(times, near, &doc, &error) == OSSA_OK);
        snprintf(expected, sizeof expected,
                 "2 rotation keys are not unit quaternions (first: key "
                 "value %d)",
                 at < (at + 4) % KEYS ? at : (at + 4) % KEYS);
        CHECKF(io_has_warning(doc, sampler, expected), "%s", expected);
        ossa_document_free(doc);
    }
}

/* 12 packed 16-bit indices of 3 vertices with one of them `value` at `at` (the largest index is
 * found eight at a time, where SSE2 compares 16-bit values as signed). */
static ossa_result load_indices(int at, uint16_t value, ossa_document **doc, ossa_error *error) {
    uint8_t data[36 + 24] = {0}; /* positions 0, indices 36 */
    const float positions[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    memcpy(data, positions, sizeof positions);
    for (int i = 0; i < 12; i++) {
        uint16_t index = i == at ? value : (uint16_t)(i % 3);
        memcpy(data + 36 + 2 * i, &index, 2);
    }
    return io_load_json(
        "{'asset':{'version':'2.0'},'buffers':[{'byteLength':60}],'bufferViews':[{'buffer':0,"
        "'byteLength':60}],'accessors':[{'bufferView':0,'componentType':5126,'count':3,'type':"
        "'VEC3','min':[0,0,0],'max':[1,1,0]},{'bufferView':0,'byteOffset':36,'componentType':5123,"
        "'count':12,'type':'SCALAR'}],'meshes':[{'primitives':[{'attributes':{'POSITION':0},"
        "'indices':1}]}]}",
        data, sizeof data, NULL, doc, error);
}

static void test_large_indices(void) {
    for (int at = 0; at < 12; at++) {
        ossa_document *doc = NULL;
        ossa_error error;
        char expected[96];
        CHECKF(load_indices(at, 40000, &doc, &error) == OSSA_ERROR_INVALID, "index %d", at);
        snprintf(expected, sizeof expected, "(index %d is 40000)", at);
        CHECKF(strstr(error.message, expected) != NULL, "%s", error.message);
        CHECKF(load_indices(at, 0xFFFF, &doc, &error) == OSSA_ERROR_INVALID, "index %d", at);
        snprintf(expected, sizeof expected, "index %d is the primitive restart value", at);
        CHECKF(strstr(error.message, expected) != NULL, "%s", error.message);
    }
}

/* Rotation keys of normalized shorts, four keys: one test key among unit ones, read in place
 * (by the sum of the integers' squares) and, stored as sparse values over zeros, by the general
 * pass: both must decide alike. */
static ossa_result load_short_keys(const int16_t key[4], int sparse, ossa_document **doc,
                                   ossa_error *error) {
    uint8_t data[64] = {0}; /* times 0, keys 16, sparse index 48 and value 52 */
    const float times[4] = {0, 1, 2, 3};
    memcpy(data, times, sizeof times);
    for (int k = 0; k < 4; k++) {
        int16_t unit[4] = {0, 0, 0, 32767};
        memcpy(data + 16 + 8 * k, k == 1 && !sparse ? key : unit, 8);
    }
    if (sparse) memcpy(data + 52, key, 8); /* the one sparse value, at index 1 */
    const uint8_t index = 1;
    memcpy(data + 48, &index, 1);
    const char *output =
        sparse ? "{'bufferView':0,'byteOffset':16,'componentType':5122,'normalized':true,"
                 "'count':4,'type':'VEC4','sparse':{'count':1,'indices':{'bufferView':0,"
                 "'byteOffset':48,'componentType':5121},'values':{'bufferView':0,'byteOffset':52}}}"
               : "{'bufferView':0,'byteOffset':16,'componentType':5122,'normalized':true,"
                 "'count':4,'type':'VEC4'}";
    char json[1024];
    snprintf(json, sizeof json,
             "{'asset':{'version':'2.0'},'buffers':[{'byteLength':64}],'bufferViews':[{'buffer':0,"
             "'byteLength':64}],'accessors':[{'bufferView':0,'componentType':5126,'count':4,"
             "'type':'SCALAR','min':[0],'max':[3]},%s],'nodes':[{}],'animations':[{'samplers':[{"
             "'input':0,'output':1}],'channels':[{'sampler':0,'target':{'node':0,'path':"
             "'rotation'}}]}]}",
             output);
    return io_load_json(json, data, sizeof data, NULL, doc, error);
}

static int64_t isqrt(int64_t v) {
    int64_t r = (int64_t)sqrt((double)v);
    while (r * r > v)
        r--;
    while ((r + 1) * (r + 1) <= v)
        r++;
    return r;
}

/* Four shorts whose squares sum to s (found by trying the largest first), or zeros. */
static void squares_summing_to(int64_t s, int16_t out[4]) {
    int64_t top = isqrt(s) < 32767 ? isqrt(s) : 32767;
    for (int64_t a = top; a > top - 20; a--)
        for (int64_t b = isqrt(s - a * a), i = 0; b >= 0 && i < 100; b--, i++)
            for (int64_t c = isqrt(s - a * a - b * b), j = 0; c >= 0 && j < 100; c--, j++) {
                int64_t r = s - a * a - b * b - c * c, d = isqrt(r);
                if (d * d == r) {
                    out[0] = (int16_t)d, out[1] = (int16_t)c, out[2] = (int16_t)b;
                    out[3] = (int16_t)a;
                    return;
                }
            }
    out[0] = out[1] = out[2] = out[3] = 0;
}

static void test_normalized_rotation_keys(void) {
    const double m2 = 32767.0 * 32767.0;
    const int64_t low = (int64_t)(0.995 * 0.995 * m2), high = (int64_t)(1.005 * 1.005 * m2);
    /* sums of squares around both bounds (the nearest within 1e-9 of them), far inside and
     * outside, the least short (clamped to -1) and zero */
    const int64_t sums[] = {low - 70000,        low - 1, low,      low + 1,      low + 2,
                            high - 1,           high,    high + 1, high + 70000, (int64_t)m2,
                            (int64_t)(0.5 * m2)};
    for (size_t i = 0; i < sizeof sums / sizeof sums[0]; i++) {
        int16_t key[4];
        squares_summing_to(sums[i], key);
        CHECKF((int64_t)key[0] * key[0] + (int64_t)key[1] * key[1] + (int64_t)key[2] * key[2] +
                       (int64_t)key[3] * key[3] ==
                   sums[i],
               "no four squares for %lld", (long long)sums[i]);
        int warned[2];
        for (int sparse = 0; sparse < 2; sparse++) {
            ossa_document *doc = NULL;
            ossa_error error;
            CHECKF(load_short_keys(key, sparse, &doc, &error) == OSSA_OK, "%s: %s", error.path,
                   error.message);
            warned[sparse] = io_has_warning(doc, "animations[0].channels[0].sampler", "not unit");
            ossa_document_free(doc);
        }
        CHECKF(warned[0] == warned[1], "sum %lld: in place %d, general %d", (long long)sums[i],
               warned[0], warned[1]);
        int expected = sums[i] < low || sums[i] > high + 1;
        if (sums[i] == low || sums[i] == low + 1 || sums[i] == high || sums[i] == high + 1)
            expected = warned[1]; /* at the bound: whatever double rounding gives, alike */
        CHECKF(warned[0] == expected, "sum %lld warned %d", (long long)sums[i], warned[0]);
    }
    const int16_t least[4] = {0, 0, 0, -32768}, zero[4] = {0, 0, 0, 0};
    ossa_document *doc = NULL;
    ossa_error error;
    CHECK(load_short_keys(least, 0, &doc, &error) == OSSA_OK);
    CHECK(!io_has_warning(doc, "animations[0].channels[0].sampler", "not unit"));
    ossa_document_free(doc);
    CHECK(load_short_keys(zero, 0, &doc, &error) == OSSA_ERROR_INVALID);
    CHECK(strstr(error.message, "key value 1 is a zero quaternion") != NULL);
}

/* The declared bounds of a sparse float accessor (VEC3, 5 elements over zeros, elements 1 and 3
 * replaced) are checked against the values with the substitutions; a NaN substitute is counted. */
static void test_sparse_bounds(void) {
    uint8_t data[8 + 24] = {0}; /* indices 0, values 8 */
    const uint8_t indices[2] = {1, 3};
    const float values[6] = {-2, 0.5f, 3, 4, -1, 0.25f};
    memcpy(data, indices, 2);
    memcpy(data + 8, values, sizeof values);
    static const struct {
        const char *bounds, *path, *phrase;
    } cases[] = {
        {"'min':[-2,-1,0],'max':[4,0.5,3]", NULL, NULL},
        {"'min':[-2,-1,0],'max':[4,0.5,2]", "accessors[0].max[2]",
         "declared maximum 2 does not match the data's maximum 3"},
        {"'min':[-1,-1,0],'max':[4,0.5,3]", "accessors[0].min[0]",
         "declared minimum -1 does not match the data's minimum -2"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char json[768];
        snprintf(json, sizeof json,
                 "{'asset':{'version':'2.0'},'buffers':[{'byteLength':32}],'bufferViews':[{"
                 "'buffer':0,'byteLength':32}],'accessors':[{'componentType':5126,'count':5,"
                 "'type':'VEC3',%s,'sparse':{'count':2,'indices':{'bufferView':0,"
                 "'componentType':5121},'values':{'bufferView':0,'byteOffset':8}}}]}",
                 cases[i].bounds);
        ossa_document *doc = NULL;
        ossa_error error;
        CHECKF(io_load_json(json, data, sizeof data, NULL, &doc, &error) == OSSA_OK, "%s: %s",
               error.path, error.message);
        if (!doc) continue;
        if (cases[i].path)
            CHECKF(io_has_warning(doc, cases[i].path, cases[i].phrase), "%s", cases[i].phrase);
        else
            CHECKF(doc->warning_count == 0, "%u warnings, first: %s", doc->warning_count,
                   doc->warning_count ? doc->warnings[0].message : "");
        ossa_document_free(doc);
    }
    const float nan_value = NAN;
    memcpy(data + 8 + 4 * 4, &nan_value, 4); /* element 3's y */
    ossa_document *doc = NULL;
    ossa_error error;
    CHECK(io_load_json("{'asset':{'version':'2.0'},'buffers':[{'byteLength':32}],'bufferViews':[{"
                       "'buffer':0,'byteLength':32}],'accessors':[{'componentType':5126,'count':5,"
                       "'type':'VEC3','sparse':{'count':2,'indices':{'bufferView':0,"
                       "'componentType':5121},'values':{'bufferView':0,'byteOffset':8}}}]}",
                       data, sizeof data, NULL, &doc, &error) == OSSA_OK);
    CHECK(io_has_warning(doc, "accessors[0]",
                         "1 values are not finite numbers (first in element 3)"));
    ossa_document_free(doc);
}

int main(void) {
    build_bin();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (cases[i].code != OSSA_OK) run_case(&cases[i]);
    /* The head itself is valid. */
    ossa_document *doc = NULL;
    ossa_error error;
    CHECKF(load_text("{" HEAD "}", &doc, &error) == OSSA_OK, "%s: %s", error.path, error.message);
    ossa_document_free(doc);
    /* An attribute named twice: one attribute, the later accessor, a warning at its name
     * (accessor 14's repeated joint is not read). */
    CHECK(load_text("{" HEAD ",'meshes':[{'primitives':[{'mode':0,'attributes':{'JOINTS_0':14,"
                    "'POSITION':7,'JOINTS_0':8,'WEIGHTS_0':9}}]}]}",
                    &doc, &error) == OSSA_OK);
    const ossa_primitive *twice = doc ? &doc->meshes[0].primitives[0] : NULL;
    CHECK(twice && twice->attribute_count == 3 && twice->joints[0] == 8 &&
          twice->attributes[0].accessor == 8 && !strcmp(twice->attributes[1].name, "POSITION"));
    CHECK(io_has_warning(doc, "meshes[0].primitives[0].attributes.JOINTS_0", "given twice"));
    CHECK(!io_has_warning(doc, "meshes[0].primitives[0].attributes.JOINTS_0", "lists joint 1"));
    ossa_document_free(doc);
    /* A joint listed twice for a vertex with non-zero weights (vertex 2: 0.5 + 0.5). */
    CHECK(load_text("{" HEAD ",'meshes':[{'primitives':[{'mode':0,'attributes':{'POSITION':7,"
                    "'JOINTS_0':14,'WEIGHTS_0':9}}]}]}",
                    &doc, &error) == OSSA_OK);
    CHECK(io_has_warning(doc, "meshes[0].primitives[0].attributes.JOINTS_0",
                         "vertex 2 lists joint 1 twice"));
    ossa_document_free(doc);
    /* JOINTS values index the skin's joints (joint 1 of a one-joint skin is refused); a scene
     * showing a skinned mesh node but not its joints is warned. */
    CHECK(load_text("{" HEAD ",'nodes':[{'mesh':0,'skin':0},{}],'skins':[{'joints':[1]}],"
                    "'scenes':[{'nodes':[0]}],'meshes':[{'primitives':[{'mode':0,'attributes':"
                    "{'POSITION':7,'JOINTS_0':14,'WEIGHTS_0':9}}]}]}",
                    &doc, &error) == OSSA_ERROR_INVALID);
    CHECK(strstr(error.message, "uses joint 1") != NULL);
    CHECK(load_text("{" HEAD ",'nodes':[{'mesh':0,'skin':0},{},{}],'skins':[{'joints':[1,2]}],"
                    "'scenes':[{'nodes':[0]}],'meshes':[{'primitives':[{'mode':0,'attributes':"
                    "{'POSITION':7,'JOINTS_0':14,'WEIGHTS_0':9}}]}]}",
                    &doc, &error) == OSSA_OK);
    CHECK(io_has_warning(doc, "nodes[0]", "scene 0 shows this skinned mesh node but not joint"));
    ossa_document_free(doc);
    test_accessor_ranges();
    test_joint_pairs();
    test_skip_images();
    test_key_blocks();
    test_large_indices();
    test_normalized_rotation_keys();
    test_sparse_bounds();
    test_warnings();
    test_quantization();
    test_unknown_type_in_use();
    test_warning_limit();
    test_min_version();
    test_key_times_without_data();
    test_deep_hierarchy();
    test_json();
    return ossa_test_finish("io_validation");
}
