/* The files of the KHR_animation_pointer suites (pointer_files.h). */
#include "pointer_files.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io_test_util.h"
#include "test_support.h"

/* BIN layout: byte offset of each accessor's data. */
enum {
    AT_POSITION = 0,   /* 8 VEC3 */
    AT_TARGET0 = 96,   /* 8 VEC3 */
    AT_TARGET1 = 192,  /* 8 VEC3 */
    AT_INDEX = 288,    /* 36 uint16 */
    AT_TIME = 360,     /* 2 */
    AT_T = 368,        /* 2 VEC3 */
    AT_R = 392,        /* 2 VEC4 */
    AT_S = 424,        /* 2 VEC3 */
    AT_W = 448,        /* 4 */
    AT_COLOR = 464,    /* 2 VEC4 */
    AT_UV = 496,       /* 2 VEC2 */
    AT_YFOV = 512,     /* 6 (CUBICSPLINE) */
    AT_GLOW = 536,     /* 2 VEC3 */
    AT_MESH_W = 560,   /* 4 */
    AT_R_CUBIC = 576,  /* 6 VEC4 */
    AT_TEXCOORD = 672, /* 8 VEC2 */
    BIN_SIZE = 736
};

static uint8_t bin[BIN_SIZE];

const uint8_t *pointer_bin(size_t *size) {
    static int built;
    if (!built) {
        float positions[24], targets[48];
        for (int v = 0; v < 8; v++)
            for (int k = 0; k < 3; k++) {
                positions[3 * v + k] = (v >> k) & 1 ? 0.5f : -0.5f;
                targets[3 * v + k] = k == 0 ? 0.25f : 0.0f;      /* target 0 moves x */
                targets[24 + 3 * v + k] = k == 1 ? 0.25f : 0.0f; /* target 1 moves y */
            }
        /* two triangles per face, counter-clockwise seen from outside */
        static const uint16_t index[36] = {0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4,
                                           2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6, 1, 3, 5, 3, 7, 5};
        const float times[2] = {0, 1};
        const float t[6] = {0, 0, 0, 1, 2, 3};
        const float r[8] = {0, 0, 0, 1, 0, 0.70710677f, 0, 0.70710677f};
        const float s[6] = {1, 1, 1, 2, 0.5f, 1};
        const float w[4] = {0, 1, 1, 0};
        const float color[8] = {1, 0, 0, 1, 0, 0, 1, 1};
        const float uv[4] = {0, 0, 0.5f, 0.25f};
        const float yfov[6] = {0, 0.5f, 0, 0, 1.0f, 0};
        const float glow[6] = {0, 0, 0, 0, 1, 0};
        const float mesh_w[4] = {0.5f, 0, 0, 0.5f};
        float r_cubic[24] = {0};
        memcpy(r_cubic + 4, r, 16);
        memcpy(r_cubic + 16, r + 4, 16);
        memcpy(bin + AT_POSITION, positions, sizeof positions);
        memcpy(bin + AT_TARGET0, targets, sizeof targets);
        memcpy(bin + AT_INDEX, index, sizeof index);
        memcpy(bin + AT_TIME, times, sizeof times);
        memcpy(bin + AT_T, t, sizeof t);
        memcpy(bin + AT_R, r, sizeof r);
        memcpy(bin + AT_S, s, sizeof s);
        memcpy(bin + AT_W, w, sizeof w);
        memcpy(bin + AT_COLOR, color, sizeof color);
        memcpy(bin + AT_UV, uv, sizeof uv);
        memcpy(bin + AT_YFOV, yfov, sizeof yfov);
        memcpy(bin + AT_GLOW, glow, sizeof glow);
        memcpy(bin + AT_MESH_W, mesh_w, sizeof mesh_w);
        memcpy(bin + AT_R_CUBIC, r_cubic, sizeof r_cubic);
        float texcoords[16];
        for (int v = 0; v < 8; v++)
            texcoords[2 * v] = (float)(v & 1), texcoords[2 * v + 1] = (float)((v >> 1) & 1);
        memcpy(bin + AT_TEXCOORD, texcoords, sizeof texcoords);
        built = 1;
    }
    *size = sizeof bin;
    return bin;
}

void pointer_json(char *json, size_t size, const char *channels, const char *extensions_used,
                  const char *material) {
    /* one buffer view per accessor, in accessor order */
    static const int starts[] = {AT_POSITION, AT_TARGET0, AT_TARGET1, AT_INDEX,    AT_TIME, AT_T,
                                 AT_R,        AT_S,       AT_W,       AT_COLOR,    AT_UV,   AT_YFOV,
                                 AT_GLOW,     AT_MESH_W,  AT_R_CUBIC, AT_TEXCOORD, BIN_SIZE};
    char views[2048] = "";
    for (size_t i = 0; i + 1 < sizeof starts / sizeof starts[0]; i++) {
        char view[96];
        snprintf(view, sizeof view, "%s{'buffer':0,'byteOffset':%d,'byteLength':%d}", i ? "," : "",
                 starts[i], starts[i + 1] - starts[i]);
        strcat(views, view);
    }
    snprintf(
        json, size,
        "{'asset':{'version':'2.0'},'extensionsUsed':[%s],"
        "'buffers':[{'byteLength':%d}],'bufferViews':[%s],"
        "'accessors':["
        "{'bufferView':0,'componentType':5126,'count':8,'type':'VEC3',"
        "'min':[-0.5,-0.5,-0.5],'max':[0.5,0.5,0.5]},"
        "{'bufferView':1,'componentType':5126,'count':8,'type':'VEC3',"
        "'min':[0.25,0,0],'max':[0.25,0,0]},"
        "{'bufferView':2,'componentType':5126,'count':8,'type':'VEC3',"
        "'min':[0,0.25,0],'max':[0,0.25,0]},"
        "{'bufferView':3,'componentType':5123,'count':36,'type':'SCALAR'},"
        "{'bufferView':4,'componentType':5126,'count':2,'type':'SCALAR','min':[0],'max':[1]},"
        "{'bufferView':5,'componentType':5126,'count':2,'type':'VEC3'},"
        "{'bufferView':6,'componentType':5126,'count':2,'type':'VEC4'},"
        "{'bufferView':7,'componentType':5126,'count':2,'type':'VEC3'},"
        "{'bufferView':8,'componentType':5126,'count':4,'type':'SCALAR'},"
        "{'bufferView':9,'componentType':5126,'count':2,'type':'VEC4'},"
        "{'bufferView':10,'componentType':5126,'count':2,'type':'VEC2'},"
        "{'bufferView':11,'componentType':5126,'count':6,'type':'SCALAR'},"
        "{'bufferView':12,'componentType':5126,'count':2,'type':'VEC3'},"
        "{'bufferView':13,'componentType':5126,'count':4,'type':'SCALAR'},"
        "{'bufferView':14,'componentType':5126,'count':6,'type':'VEC4'},"
        "{'bufferView':15,'componentType':5126,'count':8,'type':'VEC2'}],"
        "'textures':[{}],"
        "'materials':[{'pbrMetallicRoughness':{'baseColorFactor':[1,0,0,1],"
        "'baseColorTexture':{'index':0,'extensions':{'KHR_texture_transform':{'offset':[0,0]}}}}"
        "%s%s}],"
        "'meshes':[{'primitives':[{'attributes':{'POSITION':0,'TEXCOORD_0':15},'indices':3,"
        "'material':0,'targets':[{'POSITION':1},{'POSITION':2}]}],'weights':[0,0]}],"
        "'cameras':[{'type':'perspective','perspective':{'yfov':0.5,'znear':0.1}}],"
        "'nodes':[{'name':'mover','mesh':0},{'name':'by_mesh','mesh':0,'translation':[2,0,0]},"
        "{'name':'own_weights','mesh':0,'weights':[0.25,0.75],'translation':[-2,0,0]},"
        "{'name':'camera','camera':0,'translation':[0,0,5]}],"
        "'scenes':[{'nodes':[0,1,2,3]}],'scene':0,"
        "'animations':[{'name':'clip','samplers':["
        "{'input':4,'output':5},{'input':4,'output':6},{'input':4,'output':7},"
        "{'input':4,'output':8},{'input':4,'output':13},{'input':4,'output':9},"
        "{'input':4,'output':10,'interpolation':'STEP'},"
        "{'input':4,'output':11,'interpolation':'CUBICSPLINE'},{'input':4,'output':12},"
        "{'input':4,'output':14,'interpolation':'CUBICSPLINE'}],"
        "'channels':[%s]}]}",
        extensions_used, BIN_SIZE, views, material[0] ? "," : "", material, channels);
}

void pointer_channel(char *out, size_t size, int sampler, const char *pointer) {
    snprintf(out, size,
             "{'sampler':%d,'target':{'path':'pointer','extensions':{'KHR_animation_pointer':{"
             "'pointer':'%s'}}}}",
             sampler, pointer);
}

void pointer_write_glb(const char *path, const char *json) {
    size_t bin_size, glb_size;
    const uint8_t *data = pointer_bin(&bin_size);
    size_t length = strlen(json);
    char *text = malloc(length + 1);
    if (!text) return;
    memcpy(text, json, length + 1);
    for (char *p = text; *p; p++)
        if (*p == '\'') *p = '"';
    uint8_t *glb = io_make_glb(text, data, bin_size, &glb_size);
    ossa_test_write_file(path, glb, glb_size);
    free(glb);
    free(text);
}
