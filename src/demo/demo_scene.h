/* Scene-level pieces of the demo model: materials, nodes, skins, and the two models. */
#ifndef OSSA_DEMO_SCENE_H
#define OSSA_DEMO_SCENE_H

#include "demo_anim.h"
#include "gltf_builder.h"
#include "ossa/demo.h"

/* The three clips every demo model carries, in document order. */
typedef enum demo_clip { DEMO_CLIP_IDLE, DEMO_CLIP_GUST, DEMO_CLIP_TICK } demo_clip;

/* Adds an opaque, non-metallic material with this base colour; returns its index. */
int demo_add_material(gltf_builder *b, const char *name, const float rgb[3], float roughness);

/* Adds a node with an optional translation (NULL: none); returns its index. */
int demo_add_node(gltf_builder *b, const char *name, const float translation[3]);

/* Gives node parent these children. */
void demo_set_children(gltf_builder *b, int parent, const int *children, int count);

/*
 * Adds a skin over joints whose bind pose is unrotated and unscaled, each at the world
 * position bind[j]: the inverse bind matrices are the matching translations.
 */
int demo_add_skin(gltf_builder *b, const char *name, const int *joints, int count,
                  const float (*bind)[3]);

/* Adds a root node showing a skinned mesh (no transform of its own, as glTF advises). */
int demo_add_skinned_mesh_node(gltf_builder *b, const char *name, int mesh, int skin);

/* The windmill: its nodes, created at x = offset_x. */
typedef struct demo_windmill {
    int mesh_node, tower, hub;
} demo_windmill;

/* Builds the windmill and lists its root nodes in scene_nodes. */
void demo_windmill_build(gltf_builder *b, float offset_x, cJSON *scene_nodes, demo_windmill *out);
void demo_windmill_animate(gltf_builder *b, demo_animation *animation, demo_clip clip,
                           const demo_windmill *windmill);

/* The tentacle: its nodes, created at x = offset_x. */
typedef struct demo_tentacle {
    int mesh_node;
    int joints[OSSA_DEMO_TENTACLE_JOINTS];
    float offset_x;
} demo_tentacle;

void demo_tentacle_build(gltf_builder *b, float offset_x, cJSON *scene_nodes, demo_tentacle *out);
void demo_tentacle_animate(gltf_builder *b, demo_animation *animation, demo_clip clip,
                           const demo_tentacle *tentacle);

#endif
