/* The appearance extensions drawn by libossa-gl, on files written here (a quad facing the
 * camera): KHR_materials_unlit draws the base colour exactly, emissive (with
 * KHR_materials_emissive_strength) brightens by its value and its texture shows through its own
 * transform, KHR_texture_transform moves and turns
 * a four-colour texture (and its texCoord picks the set), alpha MASK discards below the cutoff
 * and BLEND mixes with the background, single-sided materials cull back faces
 * and double-sided ones do not, EXT_mesh_gpu_instancing draws N copies in one instanced draw
 * (GPU skinning by transform feedback and CPU-skinned vertices agree). The document and model
 * carry the values; bad extension objects are refused with their JSON path. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image.h"
#include "silhouette.h"
#include "ossa/gl.h"
#include "test_support.h"

enum { SIZE = 96, INSTANCES = 5 };

static ossa_gpu_context *context;
static ossa_gpu_renderer *renderer;

/* The BIN chunk: quad positions, TEXCOORD_0, TEXCOORD_1 (u mirrored), front and back indices,
 * instance translations, rotations (normalized SHORT) and scales, then the PNG. */
enum {
    AT_POSITION = 0,
    AT_UV0 = 48,
    AT_UV1 = 80,
    AT_FRONT = 112,
    AT_BACK = 124,
    AT_TRANSLATION = 136,
    AT_ROTATION = 196,
    AT_SCALE = 236,
    AT_IMAGE = 296
};
static uint8_t bin[4096];
static size_t bin_size, image_size;

/* A 16x16 texture of four colour quadrants: red top left, green top right, blue bottom left,
 * white bottom right (glTF's UV origin is the top left). */
static const uint8_t quadrant_rgb[4][3] = {{255, 0, 0}, {0, 255, 0}, {0, 0, 255}, {255, 255, 255}};

static void build_bin(void) {
    const float s = 0.5f;
    const float positions[12] = {-s, -s, 0, s, -s, 0, s, s, 0, -s, s, 0};
    const float uv0[8] = {0, 1, 1, 1, 1, 0, 0, 0};
    const float uv1[8] = {1, 1, 0, 1, 0, 0, 1, 0};
    const uint16_t front[6] = {0, 1, 2, 0, 2, 3}, back[6] = {0, 2, 1, 0, 3, 2};
    float translations[INSTANCES * 3], scales[INSTANCES * 3];
    int16_t rotations[INSTANCES * 4];
    for (int i = 0; i < INSTANCES; i++) {
        translations[3 * i] = 0.75f * (float)(i - INSTANCES / 2);
        scales[3 * i] = scales[3 * i + 1] = scales[3 * i + 2] = 0.5f;
        translations[3 * i + 1] = translations[3 * i + 2] = 0;
        /* instance 1 turns a quarter about z; the others do not turn */
        int16_t half = i == 1 ? 23170 : 0, w = i == 1 ? 23170 : 32767;
        rotations[4 * i] = rotations[4 * i + 1] = 0;
        rotations[4 * i + 2] = half;
        rotations[4 * i + 3] = w;
    }
    memcpy(bin + AT_POSITION, positions, sizeof positions);
    memcpy(bin + AT_UV0, uv0, sizeof uv0);
    memcpy(bin + AT_UV1, uv1, sizeof uv1);
    memcpy(bin + AT_FRONT, front, sizeof front);
    memcpy(bin + AT_BACK, back, sizeof back);
    memcpy(bin + AT_TRANSLATION, translations, sizeof translations);
    memcpy(bin + AT_ROTATION, rotations, sizeof rotations);
    memcpy(bin + AT_SCALE, scales, sizeof scales);
    uint8_t texture[16 * 16 * 3];
    for (int y = 0; y < 16; y++)
        for (int x = 0; x < 16; x++)
            memcpy(texture + 3 * (16 * y + x), quadrant_rgb[2 * (y >= 8) + (x >= 8)], 3);
    ossa_error error;
    CHECK(image_png_write_rgb("appearance_texture.png", 16, 16, texture, &error) == OSSA_OK);
    uint8_t *png = ossa_test_read_file("appearance_texture.png", &image_size);
    CHECK(png && AT_IMAGE + image_size < sizeof bin);
    if (png && AT_IMAGE + image_size < sizeof bin) memcpy(bin + AT_IMAGE, png, image_size);
    free(png);
    bin_size = (AT_IMAGE + image_size + 3) & ~(size_t)3;
}

/* A GLB of the quad drawn by node 0 (translation (0, 0.25, 0)) with `material` (a JSON object
 * where ' stands for "), the node's `node_extensions` (JSON members or ""), back-facing when
 * `back` is 1. */
static uint8_t *make_glb(const char *material, const char *node_extensions, int back,
                         size_t *size) {
    char json[8192];
    int n = snprintf(
        json, sizeof json,
        "{'asset':{'version':'2.0'},'extensionsUsed':['KHR_materials_unlit',"
        "'KHR_materials_emissive_strength','KHR_texture_transform','EXT_mesh_gpu_instancing'],"
        "'extensionsRequired':['EXT_mesh_gpu_instancing','KHR_texture_transform'],"
        "'buffers':[{'byteLength':%zu}],'bufferViews':[{'buffer':0,'byteLength':%d},"
        "{'buffer':0,'byteOffset':%d,'byteLength':%zu}],"
        "'accessors':[{'bufferView':0,'byteOffset':%d,'componentType':5126,'count':4,'type':"
        "'VEC3','min':[-0.5,-0.5,0],'max':[0.5,0.5,0]},"
        "{'bufferView':0,'byteOffset':%d,'componentType':5126,'count':4,'type':'VEC2'},"
        "{'bufferView':0,'byteOffset':%d,'componentType':5126,'count':4,'type':'VEC2'},"
        "{'bufferView':0,'byteOffset':%d,'componentType':5123,'count':6,'type':'SCALAR'},"
        "{'bufferView':0,'byteOffset':%d,'componentType':5126,'count':%d,'type':'VEC3'},"
        "{'bufferView':0,'byteOffset':%d,'componentType':5122,'normalized':true,'count':%d,"
        "'type':'VEC4'},"
        "{'bufferView':0,'byteOffset':%d,'componentType':5126,'count':%d,'type':'VEC4'},"
        "{'bufferView':0,'byteOffset':%d,'componentType':5126,'count':%d,'type':'VEC3'}],"
        "'images':[{'bufferView':1,'mimeType':'image/png'}],'textures':[{'source':0}],"
        "'materials':[%s],"
        "'meshes':[{'primitives':[{'attributes':{'POSITION':0,'TEXCOORD_0':1,'TEXCOORD_1':2},"
        "'indices':3,'material':0}]}],"
        "'nodes':[{'mesh':0,'translation':[0,0.25,0],'extensions':{%s}}],"
        "'scenes':[{'nodes':[0]}],'scene':0}",
        bin_size, AT_IMAGE, AT_IMAGE, image_size, AT_POSITION, AT_UV0, AT_UV1,
        back ? AT_BACK : AT_FRONT, AT_TRANSLATION, INSTANCES, AT_ROTATION, INSTANCES, AT_POSITION,
        INSTANCES, AT_SCALE, INSTANCES, material, node_extensions);
    CHECK(n > 0 && (size_t)n < sizeof json);
    for (char *c = json; *c; c++)
        if (*c == '\'') *c = '"';
    size_t json_size = ((size_t)n + 3) & ~(size_t)3;
    *size = 12 + 8 + json_size + 8 + bin_size;
    uint8_t *glb = calloc(1, *size);
    if (!glb) return NULL;
    uint32_t header[5] = {0x46546C67, 2, (uint32_t)*size, (uint32_t)json_size, 0x4E4F534A};
    memcpy(glb, header, sizeof header);
    memset(glb + 20, ' ', json_size);
    memcpy(glb + 20, json, (size_t)n);
    uint32_t chunk[2] = {(uint32_t)bin_size, 0x004E4942};
    memcpy(glb + 20 + json_size, chunk, sizeof chunk);
    memcpy(glb + 28 + json_size, bin, bin_size);
    return glb;
}

static ossa_result load(const char *material, const char *node_extensions, int back,
                        ossa_document **doc, ossa_error *error) {
    size_t size = 0;
    uint8_t *glb = make_glb(material, node_extensions, back, &size);
    ossa_load_options options = {0};
    options.name = "appearance.glb";
    ossa_result r = ossa_document_load_memory(glb, size, &options, doc, error);
    free(glb);
    return r;
}

typedef struct scene {
    ossa_model *model;
    ossa_gpu_model *gpu;
    ossa_gpu_instances *instances;
    ossa_character *character;
} scene;

/* Loads the file, frees the document, uploads the model with one character at rest. */
static int open_scene(scene *s, const char *material, const char *node_extensions, int back) {
    memset(s, 0, sizeof *s);
    ossa_document *doc = NULL;
    ossa_error error;
    ossa_result r = load(material, node_extensions, back, &doc, &error);
    CHECKF(r == OSSA_OK, "%s: %s", error.path, error.message);
    if (r != OSSA_OK) return 0;
    r = ossa_model_create(doc, NULL, &s->model, &error);
    ossa_document_free(doc); /* the model carries the materials and the instances */
    if (r == OSSA_OK) r = ossa_gpu_model_create(context, s->model, NULL, &s->gpu, &error);
    if (r == OSSA_OK) r = ossa_gpu_instances_create(s->gpu, &s->instances, &error);
    if (r == OSSA_OK) r = ossa_character_create(s->model, &s->character, &error);
    if (r == OSSA_OK) r = ossa_gpu_instances_upload(s->instances, &s->character, 1, NULL, &error);
    CHECKF(r == OSSA_OK, "%s", error.message);
    return r == OSSA_OK;
}

static void close_scene(scene *s) {
    ossa_character_free(s->character);
    ossa_gpu_instances_destroy(s->instances);
    ossa_gpu_model_destroy(s->gpu);
    ossa_model_free(s->model);
}

/* Draws the scene from (0, 0, 4) looking at the origin into rgb (SIZE x SIZE); writes it to
 * `png` for a look. */
static void draw(scene *s, const ossa_gpu_draw_desc *desc, const char *png, uint8_t *rgb) {
    ossa_gpu_camera camera = {{0, 0, 4}, {0, 0, 0}, {0, 1, 0}, 0.9f, 0.1f, 100.0f};
    ossa_gpu_renderer_begin(renderer, &camera, SIZE, SIZE, 0, 0, 1);
    ossa_error error;
    CHECKF(ossa_gpu_renderer_draw_model(renderer, s->gpu, s->instances, desc, &error) == OSSA_OK,
           "%s", error.message);
    ossa_gpu_renderer_read_rgb(renderer, rgb);
    CHECK(image_png_write_rgb(png, SIZE, SIZE, rgb, &error) == OSSA_OK);
}

static const uint8_t *pixel(const uint8_t *rgb, int x, int y) {
    return rgb + 3 * (SIZE * y + x);
}

/* The pixel at the quad's point (u, v) in [0, 1]^2 (v down), the quad at y 0.25 drawn once. */
static const uint8_t *quad_pixel(const uint8_t *rgb, double u, double v) {
    /* the camera sees +-4 tan(0.45) ~ 1.93 units over SIZE pixels */
    double per_unit = SIZE / (2 * 4 * tan(0.45));
    int x = (int)lround(SIZE / 2.0 + (u - 0.5) * per_unit);
    int y = (int)lround(SIZE / 2.0 - (0.25 + 0.5 - v) * per_unit);
    return pixel(rgb, x, y);
}

static int same_rgb(const uint8_t *a, const uint8_t *b) {
    return a[0] == b[0] && a[1] == b[1] && a[2] == b[2];
}

static void check_unlit_and_emissive(void) {
    uint8_t unlit[SIZE * SIZE * 3], lit[SIZE * SIZE * 3], glow[SIZE * SIZE * 3],
        strong[SIZE * SIZE * 3];
    scene s;
    const char *base = "'pbrMetallicRoughness':{'baseColorFactor':[0.2,0.4,0.6,1]}";
    char material[512];
    snprintf(material, sizeof material, "{%s,'extensions':{'KHR_materials_unlit':{}}}", base);
    if (open_scene(&s, material, "", 0)) {
        ossa_model_material m = ossa_model_material_info(s.model, 0);
        CHECK(m.unlit == 1 && m.double_sided == 0 && m.alpha_mode == OSSA_ALPHA_OPAQUE);
        draw(&s, NULL, "appearance_unlit.png", unlit);
        const uint8_t *p = quad_pixel(unlit, 0.5, 0.5), expected[3] = {51, 102, 153};
        printf("unlit: (%u, %u, %u), base colour (51, 102, 153)\n", p[0], p[1], p[2]);
        CHECKF(same_rgb(p, expected), "unlit pixel (%u, %u, %u)", p[0], p[1], p[2]);
        /* every pixel of the quad is the base colour */
        long quad = 0, exact = 0;
        uint8_t background[3];
        ossa_gpu_renderer_background(background);
        for (int i = 0; i < SIZE * SIZE; i++) {
            if (same_rgb(unlit + 3 * i, background)) continue;
            quad++;
            exact += same_rgb(unlit + 3 * i, expected);
        }
        CHECKF(quad > 500 && exact == quad, "%ld of %ld quad pixels are the base colour", exact,
               quad);
    }
    close_scene(&s);
    snprintf(material, sizeof material, "{%s}", base);
    if (open_scene(&s, material, "", 0)) draw(&s, NULL, "appearance_lit.png", lit);
    close_scene(&s);
    snprintf(material, sizeof material, "{%s,'emissiveFactor':[0.2,0.1,0]}", base);
    if (open_scene(&s, material, "", 0)) {
        ossa_model_material m = ossa_model_material_info(s.model, 0);
        CHECK(m.emissive[0] == 0.2f && m.emissive[1] == 0.1f && m.emissive[2] == 0.0f);
        draw(&s, NULL, "appearance_emissive.png", glow);
    }
    close_scene(&s);
    snprintf(material, sizeof material,
             "{%s,'emissiveFactor':[0.2,0.1,0],'extensions':{'KHR_materials_emissive_strength':"
             "{'emissiveStrength':2}}}",
             base);
    if (open_scene(&s, material, "", 0)) {
        ossa_model_material m = ossa_model_material_info(s.model, 0);
        CHECK(m.emissive[0] == 0.4f && m.emissive[1] == 0.2f && m.emissive[2] == 0.0f);
        draw(&s, NULL, "appearance_emissive_strength.png", strong);
    }
    close_scene(&s);
    const uint8_t *a = quad_pixel(lit, 0.5, 0.5), *b = quad_pixel(glow, 0.5, 0.5),
                  *c = quad_pixel(strong, 0.5, 0.5);
    printf("lit (%u, %u, %u), + emissive (%u, %u, %u), x2 strength (%u, %u, %u)\n", a[0], a[1],
           a[2], b[0], b[1], b[2], c[0], c[1], c[2]);
    CHECK(!same_rgb(a, quad_pixel(unlit, 0.5, 0.5))); /* lighting changes the colour */
    /* 0.2 and 0.1 of 255 added, then twice that */
    CHECKF(abs(b[0] - a[0] - 51) <= 1 && abs(b[1] - a[1] - 26) <= 1 && b[2] == a[2],
           "emissive adds (%d, %d, %d)", b[0] - a[0], b[1] - a[1], b[2] - a[2]);
    CHECKF(abs(c[0] - a[0] - 102) <= 1 && abs(c[1] - a[1] - 51) <= 1 && c[2] == a[2],
           "emissive x2 adds (%d, %d, %d)", c[0] - a[0], c[1] - a[1], c[2] - a[2]);
}

/* Which quadrant colour a pixel shows (-1: none). */
static int quadrant(const uint8_t *p) {
    for (int q = 0; q < 4; q++)
        if (abs(p[0] - quadrant_rgb[q][0]) < 24 && abs(p[1] - quadrant_rgb[q][1]) < 24 &&
            abs(p[2] - quadrant_rgb[q][2]) < 24)
            return q;
    return -1;
}

/* Draws the textured quad with a texture info JSON and returns the quadrant seen at each quarter
 * of the quad (TL, TR, BL, BR): as the base colour texture of an unlit material, or as the
 * emissive texture (factor 1) of a black lit one, so that texels show as they are. */
static void textured_quadrants_as(int emissive, const char *texture_info, const char *png,
                                  int seen[4], ossa_model_material *material) {
    char json[512];
    if (emissive)
        snprintf(json, sizeof json,
                 "{'pbrMetallicRoughness':{'baseColorFactor':[0,0,0,1]},'emissiveFactor':[1,1,"
                 "1],'emissiveTexture':%s}",
                 texture_info);
    else
        snprintf(json, sizeof json,
                 "{'pbrMetallicRoughness':{'baseColorTexture':%s},'extensions':{'KHR_materials_"
                 "unlit':{}}}",
                 texture_info);
    scene s;
    uint8_t rgb[SIZE * SIZE * 3];
    for (int q = 0; q < 4; q++)
        seen[q] = -2;
    if (open_scene(&s, json, "", 0)) {
        *material = ossa_model_material_info(s.model, 0);
        draw(&s, NULL, png, rgb);
        for (int q = 0; q < 4; q++)
            seen[q] = quadrant(quad_pixel(rgb, q % 2 ? 0.75 : 0.25, q / 2 ? 0.75 : 0.25));
    }
    close_scene(&s);
}

static void textured_quadrants(const char *texture_info, const char *png, int seen[4],
                               ossa_model_material *material) {
    textured_quadrants_as(0, texture_info, png, seen, material);
}

/* The emissive texture, with its own transform, on the coordinates the material reads. */
static void check_emissive_texture(void) {
    int seen[4];
    ossa_model_material m;
    textured_quadrants_as(1, "{'index':0}", "appearance_emissive_texture.png", seen, &m);
    CHECK(m.emissive_image != NULL && m.image == NULL && m.texcoord == 0);
    CHECKF(seen[0] == 0 && seen[1] == 1 && seen[2] == 2 && seen[3] == 3,
           "emissive texture: %d %d %d %d", seen[0], seen[1], seen[2], seen[3]);
    textured_quadrants_as(1,
                          "{'index':0,'extensions':{'KHR_texture_transform':{'offset':[0.5,0]}}}",
                          "appearance_emissive_texture_offset.png", seen, &m);
    CHECK(m.emissive_uv_transform[2] == 0.5f && m.uv_transform[2] == 0.0f);
    CHECKF(seen[0] == 1 && seen[1] == 0 && seen[2] == 3 && seen[3] == 2,
           "emissive texture offset: %d %d %d %d", seen[0], seen[1], seen[2], seen[3]);
    /* TEXCOORD_1 alone: read from set 1 (u mirrored) */
    textured_quadrants_as(1, "{'index':0,'texCoord':1}", "appearance_emissive_texture_uv1.png",
                          seen, &m);
    CHECK(m.texcoord == 1 && m.emissive_image != NULL);
    CHECKF(seen[0] == 1 && seen[1] == 0 && seen[2] == 3 && seen[3] == 2,
           "emissive texture on TEXCOORD_1: %d %d %d %d", seen[0], seen[1], seen[2], seen[3]);
    /* another set than the base colour texture's: not drawn (the emissive factor alone) */
    scene s;
    if (open_scene(&s,
                   "{'pbrMetallicRoughness':{'baseColorTexture':{'index':0}},'emissiveTexture':{"
                   "'index':0,'texCoord':1}}",
                   "", 0)) {
        ossa_model_material both = ossa_model_material_info(s.model, 0);
        CHECK(both.image != NULL && both.emissive_image == NULL && both.texcoord == 0);
    }
    close_scene(&s);
}

static void check_texture_transform(void) {
    int seen[4];
    ossa_model_material m;
    textured_quadrants("{'index':0}", "appearance_texture_plain.png", seen, &m);
    CHECKF(seen[0] == 0 && seen[1] == 1 && seen[2] == 2 && seen[3] == 3, "plain: %d %d %d %d",
           seen[0], seen[1], seen[2], seen[3]);
    /* offset half a texture in u: left and right swap */
    textured_quadrants("{'index':0,'extensions':{'KHR_texture_transform':{'offset':[0.5,0]}}}",
                       "appearance_texture_offset.png", seen, &m);
    CHECK(m.uv_transform[2] == 0.5f && m.uv_transform[0] == 1.0f && m.uv_transform[4] == 1.0f);
    CHECKF(seen[0] == 1 && seen[1] == 0 && seen[2] == 3 && seen[3] == 2, "offset: %d %d %d %d",
           seen[0], seen[1], seen[2], seen[3]);
    /* a quarter turn (uv' = (v, -u) + (0, 1)): the top left of the quad shows the bottom left
     * of the image, as the spec's example (the image turned clockwise) */
    textured_quadrants("{'index':0,'extensions':{'KHR_texture_transform':{'rotation':1.5707963,"
                       "'offset':[0,1]}}}",
                       "appearance_texture_rotation.png", seen, &m);
    CHECK_NEAR(m.uv_transform[1], 1.0, 1e-6);
    CHECK_NEAR(m.uv_transform[3], -1.0, 1e-6);
    CHECKF(seen[0] == 2 && seen[1] == 0 && seen[2] == 3 && seen[3] == 1, "rotation: %d %d %d %d",
           seen[0], seen[1], seen[2], seen[3]);
    /* scale 1/2: the quad shows the image's top-left quadrant only */
    textured_quadrants("{'index':0,'extensions':{'KHR_texture_transform':{'scale':[0.5,0.5]}}}",
                       "appearance_texture_scale.png", seen, &m);
    CHECKF(seen[0] == 0 && seen[1] == 0 && seen[2] == 0 && seen[3] == 0, "scale: %d %d %d %d",
           seen[0], seen[1], seen[2], seen[3]);
    /* texCoord 1 (u mirrored) given by the extension overrides the textureInfo's 0 */
    textured_quadrants("{'index':0,'texCoord':0,'extensions':{'KHR_texture_transform':{"
                       "'texCoord':1}}}",
                       "appearance_texture_texcoord.png", seen, &m);
    CHECK(m.texcoord == 1);
    CHECKF(seen[0] == 1 && seen[1] == 0 && seen[2] == 3 && seen[3] == 2, "texCoord: %d %d %d %d",
           seen[0], seen[1], seen[2], seen[3]);
}

/* Background pixels of a frame. */
static long background_pixels(const uint8_t *rgb) {
    uint8_t background[3];
    ossa_gpu_renderer_background(background);
    long n = 0;
    for (int i = 0; i < SIZE * SIZE; i++)
        n += same_rgb(rgb + 3 * i, background);
    return n;
}

static void check_double_sided(void) {
    uint8_t single[SIZE * SIZE * 3], both[SIZE * SIZE * 3], front[SIZE * SIZE * 3];
    scene s;
    if (open_scene(&s, "{}", "", 1)) draw(&s, NULL, "appearance_back_single.png", single);
    close_scene(&s);
    if (open_scene(&s, "{'doubleSided':true}", "", 1)) {
        CHECK(ossa_model_material_info(s.model, 0).double_sided == 1);
        draw(&s, NULL, "appearance_back_double.png", both);
    }
    close_scene(&s);
    if (open_scene(&s, "{}", "", 0)) draw(&s, NULL, "appearance_front_single.png", front);
    close_scene(&s);
    long hidden = SIZE * SIZE - background_pixels(single);
    long shown = SIZE * SIZE - background_pixels(both);
    long facing = SIZE * SIZE - background_pixels(front);
    printf("back-facing quad: %ld pixels single-sided, %ld double-sided; front-facing %ld\n",
           hidden, shown, facing);
    CHECK(hidden == 0);
    CHECK(shown > 500 && shown == facing);
}

/* alphaMode: MASK discards what is below alphaCutoff, BLEND mixes with what is behind. */
static void check_alpha(void) {
    uint8_t rgb[SIZE * SIZE * 3], background[3];
    ossa_gpu_renderer_background(background);
    const char *base = "'pbrMetallicRoughness':{'baseColorFactor':[1,1,0,0.4]},'extensions':{"
                       "'KHR_materials_unlit':{}}";
    static const struct {
        const char *mode;
        long quad; /* pixels expected to differ from the background */
    } cases[] = {{"'alphaMode':'MASK'", 0},
                 {"'alphaMode':'MASK','alphaCutoff':0.3", 600},
                 {"'alphaMode':'OPAQUE','alphaCutoff':0.9", 600},
                 {"'alphaMode':'BLEND'", 600}};
    for (int c = 0; c < 4; c++) {
        char material[512], png[64];
        snprintf(material, sizeof material, "{%s,%s}", base, cases[c].mode);
        snprintf(png, sizeof png, "appearance_alpha_%d.png", c);
        scene s;
        if (open_scene(&s, material, "", 0)) {
            ossa_model_material m = ossa_model_material_info(s.model, 0);
            CHECK(m.alpha_mode == (c < 2    ? OSSA_ALPHA_MASK
                                   : c == 2 ? OSSA_ALPHA_OPAQUE
                                            : OSSA_ALPHA_BLEND));
            draw(&s, NULL, png, rgb);
            long drawn = SIZE * SIZE - background_pixels(rgb);
            CHECKF(drawn == cases[c].quad, "%s: %ld pixels drawn", cases[c].mode, drawn);
            const uint8_t *p = quad_pixel(rgb, 0.5, 0.5);
            if (c == 3) /* 0.4 of yellow over 0.6 of the background */
                for (int k = 0; k < 3; k++)
                    CHECKF(abs(p[k] - (int)lround(0.4 * (k < 2 ? 255 : 0) + 0.6 * background[k])) <=
                               1,
                           "blend channel %d: %u", k, p[k]);
            if (c == 2) CHECK(p[0] == 255 && p[1] == 255 && p[2] == 0);
        }
        close_scene(&s);
    }
}

/* Connected (4-neighbour) regions of foreground pixels. */
static int blobs(const uint8_t *rgb) {
    uint8_t background[3];
    ossa_gpu_renderer_background(background);
    static int label[SIZE * SIZE], stack[SIZE * SIZE];
    memset(label, 0, sizeof label);
    int count = 0;
    for (int start = 0; start < SIZE * SIZE; start++) {
        if (label[start] || same_rgb(rgb + 3 * start, background)) continue;
        int top = 0;
        stack[top++] = start;
        label[start] = ++count;
        while (top) {
            int i = stack[--top], x = i % SIZE, y = i / SIZE;
            const int next[4] = {x > 0 ? i - 1 : -1, x < SIZE - 1 ? i + 1 : -1,
                                 y > 0 ? i - SIZE : -1, y < SIZE - 1 ? i + SIZE : -1};
            for (int k = 0; k < 4; k++)
                if (next[k] >= 0 && !label[next[k]] && !same_rgb(rgb + 3 * next[k], background)) {
                    label[next[k]] = count;
                    stack[top++] = next[k];
                }
        }
    }
    return count;
}

/* Runs of foreground pixels along row y. */
static int blobs_on_row(const uint8_t *rgb, int y) {
    uint8_t background[3];
    ossa_gpu_renderer_background(background);
    int runs = 0, inside = 0;
    for (int x = 0; x < SIZE; x++) {
        int fg = !same_rgb(pixel(rgb, x, y), background);
        runs += fg && !inside;
        inside = fg;
    }
    return runs;
}

static void check_instancing(void) {
    const char *ext = "'EXT_mesh_gpu_instancing':{'attributes':{'TRANSLATION':4,'ROTATION':5,"
                      "'SCALE':7,'_ID':6}}";
    const char *material = "{'pbrMetallicRoughness':{'baseColorFactor':[1,0.8,0.2,1]},"
                           "'extensions':{'KHR_materials_unlit':{}}}";
    scene s;
    uint8_t gpu[SIZE * SIZE * 3], cpu[SIZE * SIZE * 3], once[SIZE * SIZE * 3];
    if (!open_scene(&s, material, ext, 0)) {
        close_scene(&s);
        return;
    }
    const ossa_model_primitive *info = ossa_model_primitive_info(s.model, 0);
    CHECK(info && info->instance_count == INSTANCES);
    uint32_t count = 0;
    const float *m = ossa_model_node_instances(s.model, (uint32_t)info->node, &count);
    CHECK(m && count == INSTANCES);
    uint32_t none = 7;
    CHECK(ossa_model_node_instances(s.model, 99, &none) == NULL && none == 0);
    /* instance 1: a quarter turn about z (from normalized shorts), scale 1/2, at x = -0.75 */
    if (m && count == INSTANCES) {
        CHECK_NEAR(m[12 + 0], 0.0, 1e-4);
        CHECK_NEAR(m[12 + 1], -0.5, 1e-4);
        CHECK_NEAR(m[12 + 4], 0.5, 1e-4);
        CHECK_NEAR(m[12 + 3], -0.75, 1e-6);
        CHECK_NEAR(m[48 + 3], 1.5, 1e-6);
    }
    /* GPU skinning by transform feedback: copy k of vertex v is node * instance k * v */
    float positions[INSTANCES * 4 * 3];
    ossa_error error;
    CHECKF(ossa_gpu_model_skin_feedback(context, s.gpu, 0, s.instances, NULL, positions, NULL,
                                        INSTANCES * 4, &error) == OSSA_OK,
           "%s", error.message);
    CHECK(ossa_gpu_model_skin_feedback(context, s.gpu, 0, s.instances, NULL, positions, NULL,
                                       INSTANCES * 4 - 1, &error) == OSSA_ERROR_ARGUMENT);
    ossa_model_streams streams = ossa_model_primitive_streams(s.model, 0);
    double worst = 0;
    for (int k = 0; k < INSTANCES && m; k++)
        for (int v = 0; v < 4; v++) {
            const float *p = streams.positions + 3 * v, *row = m + 12 * k;
            for (int c = 0; c < 3; c++) {
                double expected = row[4 * c] * p[0] + row[4 * c + 1] * p[1] +
                                  row[4 * c + 2] * p[2] + row[4 * c + 3] + (c == 1 ? 0.25 : 0);
                double e = fabs(positions[3 * (4 * k + v) + c] - expected);
                if (e > worst) worst = e;
            }
        }
    printf("instancing: %u instances, max |feedback - node * instance * v| %.3g\n", count, worst);
    CHECK(worst < 1e-5);
    draw(&s, NULL, "appearance_instancing.png", gpu);
    int y = SIZE / 2 - (int)lround(0.25 * SIZE / (2 * 4 * tan(0.45)));
    int runs = blobs_on_row(gpu, y);
    printf("instancing: %d copies seen on the quads' row, %d regions\n", runs, blobs(gpu));
    CHECK(runs == INSTANCES && blobs(gpu) == INSTANCES);
    /* vertices skinned on the CPU (one copy, in world space) drawn to the same instances */
    float cpu_positions[4 * 3];
    ossa_skin_output out = {0};
    out.positions = cpu_positions;
    CHECK(ossa_character_skin(s.character, 0, OSSA_SKIN_LBS, &out, 4, &error) == OSSA_OK);
    CHECK(ossa_gpu_model_set_vertices(s.gpu, 0, cpu_positions, NULL, 4, &error) == OSSA_OK);
    ossa_gpu_draw_desc desc = {0};
    desc.vertices_skinned = 1;
    draw(&s, &desc, "appearance_instancing_cpu.png", cpu);
    long differ = 0;
    for (int i = 0; i < SIZE * SIZE; i++)
        differ += !same_rgb(gpu + 3 * i, cpu + 3 * i);
    printf("instancing: %ld pixels differ between GPU- and CPU-skinned vertices\n", differ);
    CHECK(differ <= 8);
    close_scene(&s);
    /* `ossa render` frames and draws every copy of a file that requires the extension */
    size_t size = 0;
    uint8_t *glb = make_glb(material, ext, 0, &size);
    FILE *file = fopen("appearance_instanced.glb", "wb");
    CHECK(glb && file && fwrite(glb, 1, size, file) == size);
    if (file) fclose(file);
    free(glb);
    CHECK(run_cli("render appearance_instanced.glb --no-grid --size 96x96 -o "
                  "appearance_instanced_cli.png") == 0);
    int width = 0, height = 0;
    uint8_t *framed = NULL;
    CHECK(image_png_read_rgb("appearance_instanced_cli.png", &width, &height, &framed, &error) ==
          OSSA_OK);
    if (framed && width == SIZE && height == SIZE) {
        int seen = blobs(framed);
        printf("ossa render: %d copies seen\n", seen);
        CHECK(seen == INSTANCES);
    }
    free(framed);
    /* without the extension, one quad */
    if (open_scene(&s, material, "", 0)) {
        CHECK(ossa_model_primitive_info(s.model, 0)->instance_count == 0);
        draw(&s, NULL, "appearance_not_instanced.png", once);
        CHECK(blobs_on_row(once, y) == 1);
    }
    close_scene(&s);
}

/* A file that must be refused at `path` with `phrase` in the message. */
static void check_refused(const char *material, const char *node_extensions, const char *path,
                          const char *phrase) {
    ossa_document *doc = NULL;
    ossa_error error;
    ossa_result r = load(material, node_extensions, 0, &doc, &error);
    CHECKF(r == OSSA_ERROR_INVALID, "%s: %s", path, ossa_result_name(r));
    CHECKF(r != OSSA_OK && !strcmp(error.path, path) && strstr(error.message, phrase),
           "expected %s (%s), got %s: %s", path, phrase, error.path, error.message);
    CHECK(doc == NULL);
    ossa_document_free(doc);
}

static void check_invalid(void) {
    const char *at = "nodes[0].extensions.EXT_mesh_gpu_instancing";
    char path[256];
    snprintf(path, sizeof path, "%s.attributes.SCALE", at);
    /* accessor 6 (VEC4 float) as SCALE: wrong type */
    check_refused("{}", "'EXT_mesh_gpu_instancing':{'attributes':{'SCALE':6}}", path, "VEC3");
    snprintf(path, sizeof path, "%s.attributes.TRANSLATION", at);
    snprintf(path, sizeof path, "%s.attributes.SCALE", at);
    check_refused("{}", "'EXT_mesh_gpu_instancing':{'attributes':{'TRANSLATION':4,'SCALE':0}}",
                  path, "same count");
    snprintf(path, sizeof path, "%s.attributes.ROTATION", at);
    check_refused("{}", "'EXT_mesh_gpu_instancing':{'attributes':{'ROTATION':1}}", path,
                  "VEC4 FLOAT or normalized BYTE or SHORT");
    snprintf(path, sizeof path, "%s.attributes.TRANSLATION", at);
    check_refused("{}", "'EXT_mesh_gpu_instancing':{'attributes':{'TRANSLATION':99}}", path,
                  "accessor");
    snprintf(path, sizeof path, "%s.attributes", at);
    check_refused("{}", "'EXT_mesh_gpu_instancing':{'attributes':{}}", path, "at least one");
    check_refused("{}", "'EXT_mesh_gpu_instancing':{}", path, "required");
    check_refused("{'extensions':{'KHR_materials_emissive_strength':{'emissiveStrength':-1}}}", "",
                  "materials[0].extensions.KHR_materials_emissive_strength.emissiveStrength",
                  "at least 0");
    check_refused("{'pbrMetallicRoughness':{'baseColorTexture':{'index':0,'extensions':{'KHR_"
                  "texture_transform':{'offset':[1,2,3]}}}}}",
                  "",
                  "materials[0].pbrMetallicRoughness.baseColorTexture.extensions.KHR_texture_"
                  "transform.offset",
                  "2 numbers");
    check_refused("{'pbrMetallicRoughness':{'baseColorTexture':{'index':0,'extensions':{'KHR_"
                  "texture_transform':{'rotation':'half'}}}}}",
                  "",
                  "materials[0].pbrMetallicRoughness.baseColorTexture.extensions.KHR_texture_"
                  "transform.rotation",
                  "number");
    /* a texCoord whose set the primitive lacks: warned, as for the textureInfo's own */
    ossa_document *doc = NULL;
    ossa_error error;
    CHECK(load("{'pbrMetallicRoughness':{'baseColorTexture':{'index':0,'extensions':{'KHR_"
               "texture_transform':{'texCoord':5}}}}}",
               "", 0, &doc, &error) == OSSA_OK);
    if (doc) {
        CHECK(doc->materials[0].base_color_texture.texcoord == 5);
        int warned = 0;
        for (uint32_t w = 0; w < doc->warning_count; w++)
            warned |= !strcmp(doc->warnings[w].path, "meshes[0].primitives[0].material") &&
                      strstr(doc->warnings[w].message, "TEXCOORD_5") != NULL;
        CHECK(warned);
    }
    ossa_document_free(doc);
    check_refused("{'alphaCutoff':-0.5}", "", "materials[0].alphaCutoff", "at least 0");
}

int main(void) {
    ossa_error error;
    if (ossa_gpu_context_create_headless(&context, &error) != OSSA_OK) {
        fprintf(stderr, "no headless OpenGL context: %s\n", error.message);
        return 1;
    }
    CHECK(ossa_gpu_renderer_create(context, SIZE, SIZE, &renderer, &error) == OSSA_OK);
    build_bin();
    check_unlit_and_emissive();
    check_texture_transform();
    check_emissive_texture();
    check_double_sided();
    check_alpha();
    check_instancing();
    check_invalid();
    ossa_gpu_renderer_destroy(renderer);
    ossa_gpu_context_destroy(context);
    return ossa_test_finish("gpu_appearance");
}
