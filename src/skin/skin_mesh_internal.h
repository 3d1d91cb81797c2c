/* Layout of a prepared mesh (ossa_skin_mesh) and the per-call context the kernels share. */
#ifndef OSSA_SKIN_MESH_INTERNAL_H
#define OSSA_SKIN_MESH_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "ossa/skin.h"

/* Vertices per SoA block; every block holds one influence count. */
#define SKIN_BLOCK 16
/* Joints one permute table covers (AVX-512 vpermt2ps over two registers). */
#define SKIN_WINDOW 32
/* Floats per joint in a palette or dual quaternion table. */
#define SKIN_JOINT_FLOATS 12
/* Rows of a block result: position xyz, normal xyz, tangent xyzw. */
#define SKIN_RESULT_ROWS 10

/*
 * One block of 16 slots. Its float data (at mesh->data + data) is, row by row of 16 floats:
 * position x, y, z; normal x, y, z (if the mesh has normals); tangent x, y, z, w (if tangents);
 * then one weight row per influence when count > 1 (a single influence has weight 1).
 * Joints: count rows of 16 bytes at mesh->rel_joints + joints (joint - base) when narrow,
 * else count rows of 16 uint16 at mesh->abs_joints + joints.
 */
typedef struct skin_block {
    uint32_t data;
    uint32_t joints;
    uint16_t base;  /* first joint of the 32-wide window (narrow blocks) */
    uint8_t count;  /* influences per vertex */
    uint8_t narrow; /* 0 or SKIN_NARROW32 or SKIN_NARROW16 */
    uint16_t valid; /* lanes that are real vertices (the others pad a group) */
    /* SKIN_NARROW16: lanes i of the block's 16-entry table that hold joint base + 16 + i
     * rather than base + i, so a joint's table lane is (joint - base) & 15 */
    uint16_t upper;
    /* 1: every lane has the same joints in the same influence order (lane 0's rows name them) */
    uint8_t uniform;
} skin_block;

/* Every joint of the block lies in [base, base + 32). */
#define SKIN_NARROW32 1
/* ... and within 16 consecutive joints of that window: one 16-entry table per element serves
 * the block (a one-register permute: a few % faster on Zen 4 than the two-register one). */
#define SKIN_NARROW16 2

struct ossa_skin_mesh {
    ossa_allocator allocator;
    size_t vertex_count;
    size_t slot_count;
    size_t block_count;
    uint32_t joint_count;
    uint32_t max_influences;
    uint32_t target_count;
    int has_normals, has_tangents;
    /* every input normal is of length 1 within 2^-21 in its square (then a rotation keeps it so) */
    int unit_normals;
    /* which attributes any morph target displaces */
    int morph_positions, morph_normals, morph_tangents;
    size_t *histogram; /* max_influences + 1 counts */
    skin_block *blocks;
    float *data; /* 64-byte aligned */
    uint8_t *rel_joints;
    uint16_t *abs_joints;
    float *morph; /* per block: morph_block_floats floats (64-byte aligned) */
    size_t morph_block_floats;
    size_t morph_target_floats; /* floats per target inside a block's morph data */
    uint32_t *order;            /* slot -> original vertex */
    size_t data_floats;         /* floats of all blocks, for byte counts */
};

/* What every kernel needs for one ossa_skin_mesh_run call. */
typedef struct skin_ctx {
    const ossa_skin_mesh *mesh;
    const float *table; /* palette or dual quaternions, 12 floats per joint; NULL unskinned */
    int dqs;
    float transform[12]; /* used by blocks without influences */
    const float *morph_weights;
    uint32_t morph_weight_count;
    /* 1: the mesh's normals are unit and no morph target moves them in this call, so a rotation
     * keeps them unit (to rounding) and DQS need not renormalise them */
    int unit_normals;
    /* 1: the fast store path writes around the caches (outputs too large to stay in them) */
    int nontemporal;
} skin_ctx;

/* Outputs of at least this many bytes per mesh use non-temporal stores on the fast path
 * (measured: ~1.8x faster for a 1M-vertex mesh even where it fits a large L3); smaller ones are
 * better left in the cache for their next reader. */
#define SKIN_NONTEMPORAL_BYTES ((size_t)1 << 20)

/* Morphs and skins slots [begin, end) (see ossa_skin_mesh_run); one per backend. */
typedef void (*skin_range_fn)(const skin_ctx *ctx, const ossa_skin_output *out,
                              ossa_skin_order order, size_t begin, size_t end);

void skin_range_scalar(const skin_ctx *ctx, const ossa_skin_output *out, ossa_skin_order order,
                       size_t begin, size_t end);
#if defined(__x86_64__) || defined(__i386__)
void skin_range_sse2(const skin_ctx *ctx, const ossa_skin_output *out, ossa_skin_order order,
                     size_t begin, size_t end);
void skin_range_avx2(const skin_ctx *ctx, const ossa_skin_output *out, ossa_skin_order order,
                     size_t begin, size_t end);
void skin_range_avx512(const skin_ctx *ctx, const ossa_skin_output *out, ossa_skin_order order,
                       size_t begin, size_t end);
#endif

/* Writes lanes [lo, hi) of a block result to the output (any strides, either order). */
void skin_store_block_generic(const skin_ctx *ctx, const ossa_skin_output *out,
                              ossa_skin_order order, size_t block, const float *res, unsigned lo,
                              unsigned hi);

#endif
