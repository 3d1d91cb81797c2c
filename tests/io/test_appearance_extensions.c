/* Extensions that change how a model looks: the drawn ones (KHR_materials_unlit,
 * KHR_texture_transform, KHR_materials_emissive_strength) load without a warning and reach the
 * model's material; the others (more material and texture-format extensions) load with a warning
 * that the extension is not drawn. Either way the file builds a model and animates; an extension
 * that changes geometry or animation is still refused. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "io_test_util.h"
#include "ossa/document.h"
#include "ossa/model.h"
#include "test_support.h"

/* A triangle on node "mover" whose translation goes from (0,0,0) at t=0 to (2,4,6) at t=1,
 * requiring extension `name`, whose objects go where the spec puts them: in the material's
 * "extensions" (material_ext), in its baseColorTexture (texture_info_ext) or in the texture
 * (texture_ext); each a JSON fragment or "". */
static void make_json(char *json, size_t size, const char *name, const char *material_ext,
                      const char *texture_info_ext, const char *texture_ext) {
    snprintf(json, size,
             "{'asset':{'version':'2.0'},'extensionsUsed':['%s'],'extensionsRequired':['%s'],"
             "'buffers':[{'byteLength':68}],'bufferViews':[{'buffer':0,'byteLength':36},"
             "{'buffer':0,'byteOffset':36,'byteLength':8},"
             "{'buffer':0,'byteOffset':44,'byteLength':24}],"
             "'accessors':[{'bufferView':0,'componentType':5126,'count':3,'type':'VEC3',"
             "'min':[0,0,0],'max':[1,1,0]},"
             "{'bufferView':1,'componentType':5126,'count':2,'type':'SCALAR','min':[0],"
             "'max':[1]},{'bufferView':2,'componentType':5126,'count':2,'type':'VEC3'}],"
             "'textures':[{'extensions':{%s}}],"
             "'materials':[{'pbrMetallicRoughness':{'baseColorFactor':[0.25,0.5,0.75,1],"
             "'baseColorTexture':{'index':0,'extensions':{%s}}},'extensions':{%s}}],"
             "'meshes':[{'primitives':[{'attributes':{'POSITION':0},'material':0}]}],"
             "'nodes':[{'name':'mover','mesh':0}],'scenes':[{'nodes':[0]}],'scene':0,"
             "'animations':[{'samplers':[{'input':1,'output':2}],'channels':[{'sampler':0,"
             "'target':{'node':0,'path':'translation'}}]}]}",
             name, name, texture_ext, texture_info_ext, material_ext);
}

static uint8_t bin[68];

static void build_bin(void) {
    const float positions[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    const float times[2] = {0, 1};
    const float translations[6] = {0, 0, 0, 2, 4, 6};
    memcpy(bin, positions, 36);
    memcpy(bin + 36, times, 8);
    memcpy(bin + 44, translations, 24);
}

/* Loads the file, checks the warning (or its absence for drawn extensions), builds the model and
 * plays the clip at t = 0.5. */
static void check_loads_and_animates(const char *name, const char *json, int drawn) {
    ossa_document *doc = NULL;
    ossa_error error;
    ossa_result r = io_load_json(json, bin, sizeof bin, NULL, &doc, &error);
    CHECKF(r == OSSA_OK, "%s required: %s: %s: %s", name, ossa_result_name(r), error.path,
           error.message);
    if (!doc) return;
    CHECKF(io_has_warning(doc, "extensionsRequired[0]", "only changes how the model looks") ==
               !drawn,
           "%s: warning at extensionsRequired[0] for drawn = %d", name, drawn);
    CHECKF(io_has_warning(doc, "extensionsRequired[0]", "not drawn") == !drawn, "%s", name);
    for (uint32_t w = 0; drawn && w < doc->warning_count; w++)
        CHECKF(!strstr(doc->warnings[w].message, "no effect"), "%s: %s: %s", name,
               doc->warnings[w].path, doc->warnings[w].message);
    ossa_model *model = NULL;
    r = ossa_model_create(doc, NULL, &model, &error);
    CHECKF(r == OSSA_OK, "%s: model: %s", name, error.message);
    ossa_character *character = NULL;
    if (model) r = ossa_character_create(model, &character, &error);
    if (character) {
        CHECK(ossa_character_update(character, ossa_model_clip(model, 0), 0.5, OSSA_WRAP_CLAMP,
                                    &error) == OSSA_OK);
        int32_t node = ossa_model_find_node(model, "mover");
        CHECK(node >= 0);
        if (node >= 0) {
            const float *world = ossa_character_world(character) + 12 * node;
            /* 3x4 rows: the translation is the last column. */
            CHECK_NEAR(world[3], 1.0, 1e-6);
            CHECK_NEAR(world[7], 2.0, 1e-6);
            CHECK_NEAR(world[11], 3.0, 1e-6);
        }
        /* The base colour is still drawn, and what the drawn extensions carry reaches it. */
        ossa_model_material material = ossa_model_material_info(model, 0);
        CHECK(material.base_color[0] == 0.25f && material.base_color[2] == 0.75f);
        CHECK(material.unlit == !strcmp(name, "KHR_materials_unlit"));
        int transformed = !strcmp(name, "KHR_texture_transform");
        CHECK(material.uv_transform[2] == (transformed ? 0.5f : 0.0f));
        CHECK(material.uv_transform[0] == (transformed ? 2 * cosf(1.5f) : 1.0f));
    }
    ossa_character_free(character);
    ossa_model_free(model);
    ossa_document_free(doc);
}

int main(void) {
    build_bin();
    char json[4096];
    /* The three of issue 14, then one more material extension and a texture format. */
    const struct {
        const char *name, *material_ext, *texture_info_ext, *texture_ext;
        int drawn;
    } cases[] = {
        {"KHR_materials_unlit", "'KHR_materials_unlit':{}", "", "", 1},
        {"KHR_materials_emissive_strength",
         "'KHR_materials_emissive_strength':{'emissiveStrength':5}", "", "", 1},
        {"KHR_texture_transform", "",
         "'KHR_texture_transform':{'offset':[0.5,0],'rotation':1.5,'scale':[2,2]}", "", 1},
        {"KHR_materials_clearcoat", "'KHR_materials_clearcoat':{'clearcoatFactor':1}", "", "", 0},
        {"EXT_texture_webp", "", "", "'EXT_texture_webp':{'source':0}", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        make_json(json, sizeof json, cases[i].name, cases[i].material_ext,
                  cases[i].texture_info_ext, cases[i].texture_ext);
        check_loads_and_animates(cases[i].name, json, cases[i].drawn);
    }
    /* Anything else required is still refused by name. */
    make_json(json, sizeof json, "EXT_made_up_geometry", "", "", "");
    ossa_document *doc = NULL;
    ossa_error error;
    CHECK(io_load_json(json, bin, sizeof bin, NULL, &doc, &error) == OSSA_ERROR_UNSUPPORTED);
    CHECK(!strcmp(error.path, "extensionsRequired[0]"));
    CHECK(strstr(error.message, "'EXT_made_up_geometry'") != NULL);
    CHECK(doc == NULL);
    return ossa_test_finish("io_appearance_extensions");
}
