/* Accessor decoding with hand-built buffers: every component type, normalized integers, byte
 * strides, sparse accessors over a buffer view and over zeros, accessors without a buffer view,
 * matrix column padding, element ranges; and sparse/quantized shared models against the dense
 * originals. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io_test_util.h"
#include "ossa/document.h"
#include "test_support.h"

static ossa_document *load(const char *json, const void *bin, size_t size) {
    ossa_document *doc = NULL;
    ossa_error error;
    ossa_result r = io_load_json(json, bin, size, NULL, &doc, &error);
    CHECKF(r == OSSA_OK, "%s: %s", error.path, error.message);
    return doc;
}

static void test_component_types(void) {
    uint8_t bin[64] = {0};
    int8_t sb[4] = {-128, -127, 0, 127};
    memcpy(bin + 0, sb, 4);
    uint8_t ub[4] = {0, 1, 128, 255};
    memcpy(bin + 4, ub, 4);
    int16_t ss[4] = {-32768, -32767, 16384, 32767};
    memcpy(bin + 8, ss, 8);
    uint16_t us[4] = {0, 1, 32768, 65535};
    memcpy(bin + 16, us, 8);
    uint32_t ui[2] = {7, 4000000000u};
    memcpy(bin + 24, ui, 8);
    float fl[2] = {-2.5f, 1e-3f};
    memcpy(bin + 32, fl, 8);
    ossa_document *doc =
        load("{'asset':{'version':'2.0'},'buffers':[{'byteLength':64}],"
             "'bufferViews':[{'buffer':0,'byteLength':64}],'accessors':["
             "{'bufferView':0,'byteOffset':0,'componentType':5120,'normalized':true,'count':4,'"
             "type':'SCALAR'},"
             "{'bufferView':0,'byteOffset':4,'componentType':5121,'normalized':true,'count':4,'"
             "type':'SCALAR'},"
             "{'bufferView':0,'byteOffset':8,'componentType':5122,'normalized':true,'count':4,'"
             "type':'SCALAR'},"
             "{'bufferView':0,'byteOffset':16,'componentType':5123,'normalized':true,'count':4,'"
             "type':'SCALAR'},"
             "{'bufferView':0,'byteOffset':24,'componentType':5125,'count':2,'type':'SCALAR'},"
             "{'bufferView':0,'byteOffset':32,'componentType':5126,'count':2,'type':'SCALAR'},"
             "{'bufferView':0,'byteOffset':0,'componentType':5120,'count':4,'type':'SCALAR'},"
             "{'bufferView':0,'byteOffset':16,'componentType':5123,'count':4,'type':'SCALAR'}]}",
             bin, sizeof bin);
    if (!doc) return;
    float f[4];
    CHECK(ossa_accessor_read_float(doc, 0, 0, 4, f) == OSSA_OK);
    CHECK(f[0] == -1.0f && f[1] == -1.0f && f[2] == 0.0f && f[3] == 1.0f);
    CHECK(ossa_accessor_read_float(doc, 1, 0, 4, f) == OSSA_OK);
    CHECK(f[0] == 0.0f && f[3] == 1.0f);
    CHECK_NEAR(f[1], 1.0 / 255.0, 1e-9);
    CHECK_NEAR(f[2], 128.0 / 255.0, 1e-7);
    CHECK(ossa_accessor_read_float(doc, 2, 0, 4, f) == OSSA_OK);
    CHECK(f[0] == -1.0f && f[1] == -1.0f && f[3] == 1.0f);
    CHECK_NEAR(f[2], 16384.0 / 32767.0, 1e-7);
    CHECK(ossa_accessor_read_float(doc, 3, 0, 4, f) == OSSA_OK);
    CHECK(f[0] == 0.0f && f[3] == 1.0f);
    CHECK_NEAR(f[1], 1.0 / 65535.0, 1e-10);
    CHECK_NEAR(f[2], 32768.0 / 65535.0, 1e-7);
    CHECK(ossa_accessor_read_float(doc, 4, 0, 2, f) == OSSA_OK);
    CHECK(f[0] == 7.0f && f[1] == 4e9f);
    CHECK(ossa_accessor_read_float(doc, 5, 0, 2, f) == OSSA_OK);
    CHECK(f[0] == -2.5f && f[1] == 1e-3f);
    /* Integers that are not normalized convert to their values. */
    CHECK(ossa_accessor_read_float(doc, 6, 0, 4, f) == OSSA_OK);
    CHECK(f[0] == -128.0f && f[1] == -127.0f && f[3] == 127.0f);
    uint32_t u[4];
    CHECK(ossa_accessor_read_uint(doc, 7, 0, 4, u) == OSSA_OK);
    CHECK(u[0] == 0 && u[1] == 1 && u[2] == 32768 && u[3] == 65535);
    CHECK(ossa_accessor_read_uint(doc, 4, 0, 2, u) == OSSA_OK);
    CHECK(u[0] == 7 && u[1] == 4000000000u);
    /* Normalized reads as raw values through _uint; signed and float types are refused. */
    CHECK(ossa_accessor_read_uint(doc, 1, 0, 4, u) == OSSA_OK);
    CHECK(u[2] == 128 && u[3] == 255);
    CHECK(ossa_accessor_read_uint(doc, 5, 0, 1, u) == OSSA_ERROR_ARGUMENT);
    CHECK(ossa_accessor_read_uint(doc, 6, 0, 1, u) == OSSA_ERROR_ARGUMENT);
    /* Ranges: a window, and requests outside the accessor. */
    CHECK(ossa_accessor_read_float(doc, 0, 2, 2, f) == OSSA_OK);
    CHECK(f[0] == 0.0f && f[1] == 1.0f);
    CHECK(ossa_accessor_read_float(doc, 0, 3, 2, f) == OSSA_ERROR_ARGUMENT);
    CHECK(ossa_accessor_read_float(doc, 0, UINT64_MAX, 2, f) == OSSA_ERROR_ARGUMENT);
    CHECK(ossa_accessor_read_float(doc, 8, 0, 1, f) == OSSA_ERROR_ARGUMENT);
    CHECK(ossa_accessor_read_float(doc, -1, 0, 1, f) == OSSA_ERROR_ARGUMENT);
    CHECK(ossa_accessor_read_float(NULL, 0, 0, 1, f) == OSSA_ERROR_ARGUMENT);
    CHECK(ossa_component_size(OSSA_COMPONENT_SHORT) == 2);
    CHECK(ossa_component_size((ossa_component_type)5124) == 0);
    ossa_document_free(doc);
}

static void test_stride_and_sparse(void) {
    /* Interleaved: VEC3 float position + SCALAR float, stride 16, 3 elements. */
    float inter[12] = {1, 2, 3, 100, 4, 5, 6, 200, 7, 8, 9, 300};
    uint8_t bin[96] = {0};
    memcpy(bin, inter, sizeof inter);
    /* Sparse indices (UNSIGNED_SHORT) at 48, values (VEC3 float) at 56. */
    uint16_t idx[2] = {0, 2};
    memcpy(bin + 48, idx, 4);
    float vals[6] = {-1, -2, -3, -7, -8, -9};
    memcpy(bin + 56, vals, sizeof vals);
    ossa_document *doc = load(
        "{'asset':{'version':'2.0'},'buffers':[{'byteLength':96}],"
        "'bufferViews':[{'buffer':0,'byteLength':48,'byteStride':16},"
        "{'buffer':0,'byteOffset':48,'byteLength':8},{'buffer':0,'byteOffset':56,'byteLength':24}],"
        "'accessors':["
        "{'bufferView':0,'componentType':5126,'count':3,'type':'VEC3'},"
        "{'bufferView':0,'byteOffset':12,'componentType':5126,'count':3,'type':'SCALAR'},"
        "{'bufferView':0,'componentType':5126,'count':3,'type':'VEC3','sparse':{'count':2,"
        "'indices':{'bufferView':1,'componentType':5123},'values':{'bufferView':2}}},"
        "{'componentType':5126,'count':4,'type':'VEC3','sparse':{'count':1,"
        "'indices':{'bufferView':1,'byteOffset':2,'componentType':5123},"
        "'values':{'bufferView':2,'byteOffset':12}}},"
        "{'componentType':5126,'count':2,'type':'VEC2'}]}",
        bin, sizeof bin);
    if (!doc) return;
    float f[12];
    CHECK(ossa_accessor_read_float(doc, 0, 0, 3, f) == OSSA_OK);
    CHECK(f[0] == 1 && f[2] == 3 && f[3] == 4 && f[5] == 6 && f[6] == 7 && f[8] == 9);
    CHECK(ossa_accessor_read_float(doc, 1, 0, 3, f) == OSSA_OK);
    CHECK(f[0] == 100 && f[1] == 200 && f[2] == 300);
    /* Sparse over a buffer view: elements 0 and 2 replaced. */
    CHECK(ossa_accessor_read_float(doc, 2, 0, 3, f) == OSSA_OK);
    CHECK(f[0] == -1 && f[1] == -2 && f[2] == -3 && f[3] == 4 && f[4] == 5 && f[5] == 6 &&
          f[6] == -7 && f[8] == -9);
    /* A window starting after the first sparse element. */
    CHECK(ossa_accessor_read_float(doc, 2, 1, 2, f) == OSSA_OK);
    CHECK(f[0] == 4 && f[3] == -7 && f[5] == -9);
    /* Sparse over zeros: element 2 replaced, the rest zero. */
    CHECK(ossa_accessor_read_float(doc, 3, 0, 4, f) == OSSA_OK);
    CHECK(f[0] == 0 && f[5] == 0 && f[6] == -7 && f[7] == -8 && f[8] == -9 && f[11] == 0);
    CHECK(doc->accessors[3].buffer_view == -1 && doc->accessors[3].sparse.count == 1);
    /* No buffer view, not sparse: zeros (with a warning that its values are not validated). */
    f[0] = f[3] = 5;
    CHECK(ossa_accessor_read_float(doc, 4, 0, 2, f) == OSSA_OK);
    CHECK(f[0] == 0 && f[3] == 0);
    ossa_document_free(doc);
}

static void test_matrix_padding(void) {
    /* MAT2 UNSIGNED_BYTE: columns 4 bytes apart; MAT3 SHORT: columns 8 bytes apart;
     * MAT3 BYTE: columns 4 bytes apart; MAT4 float unpadded. */
    uint8_t bin[128] = {0};
    uint8_t m2[8] = {1, 2, 0xEE, 0xEE, 3, 4, 0xEE, 0xEE};
    memcpy(bin, m2, 8);
    int16_t m3[12] = {1, 2, 3, 0x7777, 4, 5, 6, 0x7777, 7, 8, 9, 0x7777};
    memcpy(bin + 8, m3, sizeof m3);
    int8_t m3b[12] = {1, 2, 3, 99, 4, 5, 6, 99, 7, 8, 9, 99};
    memcpy(bin + 32, m3b, sizeof m3b);
    float m4[16];
    for (int i = 0; i < 16; i++)
        m4[i] = (float)i;
    memcpy(bin + 44, m4, sizeof m4);
    ossa_document *doc =
        load("{'asset':{'version':'2.0'},'buffers':[{'byteLength':128}],"
             "'bufferViews':[{'buffer':0,'byteLength':128}],'accessors':["
             "{'bufferView':0,'componentType':5121,'count':1,'type':'MAT2'},"
             "{'bufferView':0,'byteOffset':8,'componentType':5122,'count':1,'type':'MAT3'},"
             "{'bufferView':0,'byteOffset':32,'componentType':5120,'count':1,'type':'MAT3'},"
             "{'bufferView':0,'byteOffset':44,'componentType':5126,'count':1,'type':'MAT4'}]}",
             bin, sizeof bin);
    if (!doc) return;
    float f[16];
    CHECK(ossa_accessor_read_float(doc, 0, 0, 1, f) == OSSA_OK);
    CHECK(f[0] == 1 && f[1] == 2 && f[2] == 3 && f[3] == 4);
    CHECK(ossa_accessor_read_float(doc, 1, 0, 1, f) == OSSA_OK);
    for (int i = 0; i < 9; i++)
        CHECKF(f[i] == (float)(i + 1), "MAT3 SHORT [%d] = %g", i, f[i]);
    CHECK(ossa_accessor_read_float(doc, 2, 0, 1, f) == OSSA_OK);
    for (int i = 0; i < 9; i++)
        CHECKF(f[i] == (float)(i + 1), "MAT3 BYTE [%d] = %g", i, f[i]);
    CHECK(ossa_accessor_read_float(doc, 3, 0, 1, f) == OSSA_OK);
    for (int i = 0; i < 16; i++)
        CHECK(f[i] == (float)i);
    CHECK(doc->accessors[1].components == 9);
    ossa_document_free(doc);
}

/* The sparse and normalized Fox variants decode to the dense Fox's key values. */
static void compare_models(const char *a_rel, const char *b_rel, double tolerance) {
    ossa_document *a = NULL, *b = NULL;
    ossa_error error;
    char a_path[1024];
    snprintf(a_path, sizeof a_path, "%s", ossa_test_shared_path(a_rel));
    CHECK(ossa_document_load_file(a_path, NULL, &a, &error) == OSSA_OK);
    CHECK(ossa_document_load_file(ossa_test_shared_path(b_rel), NULL, &b, &error) == OSSA_OK);
    if (!a || !b) goto done;
    double worst = 0;
    int compared = 0;
    for (uint32_t an = 0; an < a->animation_count && an < b->animation_count; an++)
        for (uint32_t c = 0; c < a->animations[an].channel_count; c++) {
            const ossa_animation *aa = &a->animations[an], *bb = &b->animations[an];
            int32_t x = aa->samplers[aa->channels[c].sampler].output;
            int32_t y = bb->samplers[bb->channels[c].sampler].output;
            uint64_t n = a->accessors[x].count;
            if (n != b->accessors[y].count) continue;
            uint32_t comps = a->accessors[x].components;
            float *fa = malloc(n * comps * sizeof *fa), *fb = malloc(n * comps * sizeof *fb);
            CHECK(ossa_accessor_read_float(a, x, 0, n, fa) == OSSA_OK);
            CHECK(ossa_accessor_read_float(b, y, 0, n, fb) == OSSA_OK);
            for (uint64_t i = 0; i < n * comps; i++)
                if (fabs(fa[i] - fb[i]) > worst) worst = fabs(fa[i] - fb[i]);
            compared++;
            free(fa);
            free(fb);
        }
    CHECKF(compared >= 60, "%s: only %d outputs compared", b_rel, compared);
    CHECKF(worst <= tolerance, "%s: key values differ by %g", b_rel, worst);
done:
    ossa_document_free(a);
    ossa_document_free(b);
}

/* Every value of each normalized type, read as floats (divided in float, packed and strided) and
 * as doubles: the float is the double quotient rounded to float, -1 at the least value of the
 * signed types. */
static void test_normalized_exhaustive(void) {
    static const struct {
        int type, size;
        double max;
    } types[] = {{5120, 1, 127.0}, {5121, 1, 255.0}, {5122, 2, 32767.0}, {5123, 2, 65535.0}};
    enum { COUNT = 65536 };
    uint8_t *bin = malloc(6 * COUNT); /* packed 2 bytes, then 4-byte strides */
    float *got = malloc(COUNT * sizeof *got);
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
        uint32_t values = types[t].size == 1 ? 256 : COUNT;
        for (uint32_t v = 0; v < values; v++) { /* packed from 0; every other slot from the half */
            if (types[t].size == 1) {
                bin[v] = (uint8_t)v;
                bin[COUNT * 2 + 4 * v] = (uint8_t)v;
            } else {
                uint16_t u = (uint16_t)v;
                memcpy(bin + 2 * v, &u, 2);
                memcpy(bin + COUNT * 2 + 4 * v, &u, 2);
            }
        }
        char json[768];
        snprintf(json, sizeof json,
                 "{'asset':{'version':'2.0'},'buffers':[{'byteLength':%d}],'bufferViews':["
                 "{'buffer':0,'byteLength':%d},{'buffer':0,'byteOffset':%d,'byteLength':%d,"
                 "'byteStride':4}],'accessors':[{'bufferView':0,'componentType':%d,"
                 "'normalized':true,'count':%u,'type':'SCALAR'},{'bufferView':1,'componentType':"
                 "%d,'normalized':true,'count':%u,'type':'SCALAR'}]}",
                 6 * COUNT, 2 * COUNT, 2 * COUNT, 4 * COUNT, types[t].type, values, types[t].type,
                 values);
        ossa_document *doc = NULL;
        ossa_error error;
        CHECKF(io_load_json(json, bin, 6 * COUNT, NULL, &doc, &error) == OSSA_OK, "%s: %s",
               error.path, error.message);
        if (!doc) continue;
        for (int32_t accessor = 0; accessor < 2; accessor++) {
            CHECK(ossa_accessor_read_float(doc, accessor, 0, values, got) == OSSA_OK);
            uint32_t wrong = 0, first = 0;
            for (uint32_t v = 0; v < values; v++) {
                double raw = types[t].type == 5120   ? (double)(int8_t)v
                             : types[t].type == 5122 ? (double)(int16_t)v
                                                     : (double)v;
                double exact = raw / types[t].max;
                float expected = (float)(exact < -1.0 ? -1.0 : exact);
                if (got[v] != expected && !wrong++) first = v;
            }
            CHECKF(wrong == 0, "type %d accessor %d: %u values differ (first stored value %u)",
                   types[t].type, accessor, wrong, first);
        }
        ossa_document_free(doc);
    }
    free(got);
    free(bin);
}

int main(void) {
    test_component_types();
    test_stride_and_sparse();
    test_matrix_padding();
    test_normalized_exhaustive();
    compare_models("models/Fox/Fox.glb", "models/FoxSparse/FoxSparse.glb", 0.0);
    compare_models("models/Fox/Fox.glb", "models/FoxNormalizedRotations/FoxNormalizedRotations.glb",
                   1.0 / 32767.0);
    return ossa_test_finish("io_accessors");
}
