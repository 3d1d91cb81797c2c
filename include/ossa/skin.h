/**
 * @file skin.h
 * @brief CPU skinning: palette -> skinned vertices (linear blend or dual quaternion), with
 * morph targets applied first.
 *
 * Two levels:
 *
 * - **Stream kernels** (::ossa_skin_streams): the reference. They read vertex attributes and
 *   influence sets (JOINTS_n/WEIGHTS_n, any number of sets, joints u8/u16, weights float or
 *   normalized u8/u16) straight from caller buffers with explicit byte strides, so interleaved
 *   buffers work, and write outputs with explicit strides.
 * - **Prepared meshes** (::ossa_skin_mesh): built once (from streams or from a document
 *   primitive), they hold attributes decoded to float, influences compacted (zero weights
 *   dropped, weights renormalised to sum to one), morph targets, and vertices reordered into
 *   SoA blocks of 16 grouped by influence count. ::ossa_skin_mesh_run skins them with a scalar
 *   reference kernel or SSE2 / AVX2 / AVX-512 kernels chosen at run time.
 *
 * Every per-frame function works on a vertex range [begin, end) so any job system can split
 * the work; they allocate nothing and cannot fail on valid data. Ranges may be processed by
 * different threads at the same time when their outputs do not overlap. They check their
 * arguments first (NULL tables, short palettes, outputs too small, strides smaller than an
 * element, outputs the mesh cannot fill) and return ::OSSA_ERROR_ARGUMENT with a message,
 * having written nothing.
 *
 * Float streams (inputs and outputs) must be 4-byte aligned with a stride of 0 (packed) or a
 * multiple of 4 no smaller than the element (12 bytes for xyz, 16 for tangents).
 *
 * Palettes are 3x4 row-major matrices, 12 floats per joint (x' = m0 x + m1 y + m2 z + m3, ...).
 *
 * **The skinning rules.** The CPU kernels here and the GPU shaders of ossa/gl.h follow the same
 * rules, written down once here (tests/gpu/test_gpu_rules.c checks that they agree):
 *
 * 1. Morph targets first: each target's displacements times its weight are added to the
 *    position, normal and tangent (xyz).
 * 2. Influences: every JOINTS_n/WEIGHTS_n set of the vertex (any number of sets, 4 pairs each),
 *    in set order. Weights are decoded per the glTF spec (float as is, normalized unsigned
 *    bytes / 255, shorts / 65535). A pair counts when its weight is > 0 (zero, negative and
 *    NaN weights are ignored) and its joint is below the skin's joint count (the stream kernel
 *    and the GPU ignore the others; building a prepared mesh refuses them). Repeats of one
 *    joint add up.
 * 3. The counted weights are divided by their sum: they need not sum to one.
 * 4. A vertex without a counted pair (all weights zero) keeps its morphed input position,
 *    normal and tangent: its transform is the identity.
 * 5. Linear blend (LBS): the vertex's matrix is sum(w_i * M_i) / sum(w_i).
 * 6. Dual quaternions (DQS): each joint matrix M gives a uniform scale s = cbrt(|det|) of its
 *    3x3 part (1 when the determinant is 0), a rotation R = 3x3 part / s as a unit quaternion q
 *    (Shepperd's method) and the dual part (t, 0) q / 2 from its translation t, as
 *    ::ossa_skin_dual_quats computes them. The (q, dual) pairs are summed with the weights,
 *    the sign flipped for those whose q is in the other hemisphere from the first counted
 *    influence's (the antipodality fix); the scale is sum(w_i * s_i) / sum(w_i). The summed dual
 *    quaternion is normalised and turned back into the matrix s * R, translation t. It is exact
 *    only for joint matrices that are rotation + translation + uniform scale (the scale is
 *    blended linearly, about each joint's origin); shear, non-uniform scale and mirroring
 *    (negative determinant) are not representable and give approximate results.
 * 7. Normals and tangents are transformed as directions by the 3x3 part of the vertex's matrix
 *    and renormalised (the tangent's w is copied). Like most real-time runtimes, ossa uses the
 *    blended 3x3 itself rather than its inverse transpose: exact for rotations and uniform
 *    scale. (With DQS, whose 3x3 part is s R, unit input normals come out of R unit to rounding,
 *    so the AVX-512 path leaves out that renormalisation when every input normal is unit.)
 * 8. Unskinned primitives (no influence sets, or drawn without their skin) are transformed by
 *    their node's world matrix exactly, never through a dual quaternion.
 *
 * The CPU converts joint matrices to dual quaternions in float sixteen joints at a time where
 * AVX-512 runs, else in double precision; the GPU in float: results agree to about 1e-6 of the
 * model's size, not bit for bit.
 */
#ifndef OSSA_SKIN_H
#define OSSA_SKIN_H

#include <stddef.h>
#include <stdint.h>

#include "document.h"
#include "result.h"

#ifdef __cplusplus
extern "C" {
#endif

/** How joint transforms are blended. */
typedef enum ossa_skin_mode {
    OSSA_SKIN_LBS = 0, /**< linear blend skinning: sum of weighted matrices */
    OSSA_SKIN_DQS = 1  /**< dual quaternion skinning (see the file comment for its limits) */
} ossa_skin_mode;

/** One JOINTS_n/WEIGHTS_n pair: 4 joints and 4 weights per vertex, strided. */
typedef struct ossa_influence_set {
    const void *joints;              /**< 4 components per vertex */
    size_t joints_stride;            /**< bytes between vertices; 0: tightly packed */
    ossa_component_type joints_type; /**< OSSA_COMPONENT_UNSIGNED_BYTE or _UNSIGNED_SHORT */
    const void *weights;             /**< 4 components per vertex */
    size_t weights_stride;           /**< bytes between vertices; 0: tightly packed */
    /** OSSA_COMPONENT_FLOAT, or normalized _UNSIGNED_BYTE / _UNSIGNED_SHORT */
    ossa_component_type weights_type;
} ossa_influence_set;

/** Input vertex streams. Strides are in bytes; 0 means tightly packed. */
typedef struct ossa_skin_input {
    const float *positions; /**< xyz (required) */
    size_t positions_stride;
    const float *normals; /**< xyz, or NULL */
    size_t normals_stride;
    const float *tangents; /**< xyzw, or NULL; w is copied unchanged */
    size_t tangents_stride;
    const ossa_influence_set *sets; /**< set_count influence sets (0: not skinned) */
    uint32_t set_count;
} ossa_skin_input;

/**
 * Output vertex streams. Strides in bytes, 0 = packed. positions is required; normals and
 * tangents are optional (NULL: not computed) but may only be asked for when the input or mesh
 * has them.
 */
typedef struct ossa_skin_output {
    float *positions; /**< xyz (required) */
    size_t positions_stride;
    float *normals; /**< xyz */
    size_t normals_stride;
    float *tangents; /**< xyzw */
    size_t tangents_stride;
} ossa_skin_output;

/**
 * Reference stream kernel: skins vertices [begin, end) of `input` into the same indices of
 * `output` (both must hold at least `end` vertices). Weights are decoded (normalized integers
 * per the glTF spec), zero weights are skipped and the rest renormalised to sum to one. A
 * vertex whose weights are all zero keeps its input position. Joint indices must be <
 * joint_count (indices >= joint_count are treated as weight zero). Without influence sets,
 * vertices are copied.
 * @param palette joint_count 3x4 row-major matrices; required when the input has influence
 *        sets and joint_count > 0.
 * @return OSSA_ERROR_ARGUMENT (nothing written) for NULL input or output, input without
 *         positions, output normals or tangents the input lacks, a NULL palette, an influence
 *         set with NULL streams, unknown component types or short strides, a misaligned or
 *         short-strided float stream, an unknown mode, or begin > end.
 */
ossa_result ossa_skin_streams(const ossa_skin_input *input, const float *palette,
                              uint32_t joint_count, ossa_skin_mode mode,
                              const ossa_skin_output *output, size_t begin, size_t end,
                              ossa_error *error);

/**
 * The library's one conversion of a palette to dual quaternions (what characters keep, see
 * ossa_model_desc::dual_quaternions, and what a GPU should upload): writes the table that DQS mode
 * of ::ossa_skin_mesh_run reads, 12 floats per joint: real part x, y, z, w (unit), dual part x, y,
 * z, w, the uniform scale, then 3 zeros. The scale is cbrt(|det|) of the 3x3 part; the rotation is
 * the 3x3 part divided by it (re-orthonormalised through the quaternion). Call it once per frame.
 * @param out 12 * joint_count floats.
 */
void ossa_skin_dual_quats(const float *palette, uint32_t joint_count, float *out);

/** SIMD instruction sets for ::ossa_skin_mesh_run. */
typedef enum ossa_skin_backend {
    OSSA_SKIN_BACKEND_AUTO = 0, /**< the best one this CPU supports */
    OSSA_SKIN_BACKEND_SCALAR,   /**< portable C, the reference */
    OSSA_SKIN_BACKEND_SSE2,
    OSSA_SKIN_BACKEND_AVX2,   /**< AVX2 + FMA */
    OSSA_SKIN_BACKEND_AVX512, /**< AVX-512 F + BW + VL */
    OSSA_SKIN_BACKEND_COUNT
} ossa_skin_backend;

/** 1 when this build and CPU can run the backend (AUTO and SCALAR always can). */
int ossa_skin_backend_supported(ossa_skin_backend backend);

/** The backend AUTO resolves to. */
ossa_skin_backend ossa_skin_backend_best(void);

/** A short name ("scalar", "sse2", "avx2", "avx512"). */
const char *ossa_skin_backend_name(ossa_skin_backend backend);

/** A prepared mesh (opaque, read-only once built; share it between threads freely). */
typedef struct ossa_skin_mesh ossa_skin_mesh;

/** Morph targets for ::ossa_skin_mesh_create: displacement streams, NULL where absent. */
typedef struct ossa_morph_target_streams {
    const float *positions; /**< xyz displacements */
    size_t positions_stride;
    const float *normals; /**< xyz displacements */
    size_t normals_stride;
    const float *tangents; /**< xyz displacements (glTF morphs tangent xyz only) */
    size_t tangents_stride;
} ossa_morph_target_streams;

/** What to build a prepared mesh from. */
typedef struct ossa_skin_mesh_desc {
    ossa_skin_input input;
    size_t vertex_count;
    /** Joints the palette will hold; influences on joints >= joint_count are an error. */
    uint32_t joint_count;
    const ossa_morph_target_streams *targets;
    uint32_t target_count;
    /** Allocator; zero means malloc/free. */
    ossa_allocator allocator;
} ossa_skin_mesh_desc;

/**
 * Builds a prepared mesh from streams.
 * @return OSSA_ERROR_ARGUMENT for a bad description (error names the problem),
 *         OSSA_ERROR_OUT_OF_MEMORY.
 */
ossa_result ossa_skin_mesh_create(const ossa_skin_mesh_desc *desc, ossa_skin_mesh **out,
                                  ossa_error *error);

/**
 * Builds a prepared mesh from primitive `primitive` of mesh `mesh` of a document: POSITION,
 * NORMAL, TANGENT, every JOINTS_n/WEIGHTS_n set and every morph target. The joint count is
 * that of `skin` (-1: the primitive is treated as unskinned even if it has influences).
 */
ossa_result ossa_skin_mesh_from_document(const ossa_document *document, uint32_t mesh,
                                         uint32_t primitive, int32_t skin,
                                         const ossa_allocator *allocator, ossa_skin_mesh **out,
                                         ossa_error *error);

/** Frees a prepared mesh. NULL is allowed. */
void ossa_skin_mesh_free(ossa_skin_mesh *mesh);

/** Vertices of the source (original order). */
size_t ossa_skin_mesh_vertex_count(const ossa_skin_mesh *mesh);

/**
 * Vertex slots in prepared order: a multiple of 16, >= the vertex count (each influence-count
 * group is padded to whole blocks of 16 with copies of one of its vertices). Ranges passed to
 * ::ossa_skin_mesh_run are in this index space; outputs in prepared order need this many.
 */
size_t ossa_skin_mesh_slot_count(const ossa_skin_mesh *mesh);

/**
 * The remap table: slot -> original vertex index, slot_count entries. Padding slots map to the
 * vertex they copy. Remap an index buffer once with it to draw prepared-order output.
 */
const uint32_t *ossa_skin_mesh_order(const ossa_skin_mesh *mesh);

/** Largest number of non-zero influences of any vertex (0: unskinned). */
uint32_t ossa_skin_mesh_max_influences(const ossa_skin_mesh *mesh);

/** Vertices with exactly `count` non-zero influences (count 0..max_influences). */
size_t ossa_skin_mesh_influence_histogram(const ossa_skin_mesh *mesh, uint32_t count);

/** Morph targets of the mesh. */
uint32_t ossa_skin_mesh_target_count(const ossa_skin_mesh *mesh);

/** 1 when the mesh has normals / tangents. */
int ossa_skin_mesh_has_normals(const ossa_skin_mesh *mesh);
int ossa_skin_mesh_has_tangents(const ossa_skin_mesh *mesh);

/**
 * Bytes the kernel reads and writes per prepared slot for this mesh and output, as `ossa bench`
 * counts them: the block's float rows (positions, normals, tangents, weights), its joint bytes
 * (1 per influence in window-relative form, 2 otherwise) and the requested float outputs.
 * Palette reads (cache-resident) and morph target data are not counted.
 */
double ossa_skin_mesh_bytes_per_vertex(const ossa_skin_mesh *mesh, const ossa_skin_output *out);

/** Where outputs go. */
typedef enum ossa_skin_order {
    /** output element i holds prepared slot i (fastest: whole blocks, contiguous stores) */
    OSSA_SKIN_ORDER_PREPARED = 0,
    /** output index order[i] holds slot i; padding slots are not written */
    OSSA_SKIN_ORDER_ORIGINAL = 1
} ossa_skin_order;

/** How the AVX-512 fast path stores its outputs (other paths always use ordinary stores). */
typedef enum ossa_skin_stores {
    /** Non-temporal when the mesh's outputs (positions and normals) are 1 MiB or more; smaller
     *  ones stay in the cache for their next reader. */
    OSSA_SKIN_STORES_AUTO = 0,
    /** Ordinary stores: the outputs stay in the cache. */
    OSSA_SKIN_STORES_CACHED,
    /** Non-temporal stores, around the caches: for outputs not read again soon, e.g. a crowd
     *  whose many small meshes' outputs together exceed the last-level cache (ordinary stores
     *  would also read every output line from memory first). */
    OSSA_SKIN_STORES_STREAM
} ossa_skin_stores;

/** Per-frame parameters of ::ossa_skin_mesh_run. Zero-initialised means the defaults. */
typedef struct ossa_skin_frame {
    /** LBS: joint_count 3x4 row-major matrices, required for skinned meshes (ignored for
     *  unskinned ones) */
    const float *palette;
    /** Joints in palette / dual_quats: at least the mesh's joint count */
    uint32_t joint_count;
    /** DQS: ::ossa_skin_dual_quats of the palette, required for skinned meshes */
    const float *dual_quats;
    /** For unskinned meshes: a 3x4 row-major transform (e.g. the node's world); NULL: identity */
    const float *transform;
    /** Morph weights, morph_weight_count of them (weights of targets beyond the count are 0,
     *  extra weights are ignored); NULL with a count of 0: no morphing */
    const float *morph_weights;
    uint32_t morph_weight_count;
    ossa_skin_mode mode;
    ossa_skin_order order;
    /** An instruction set this CPU lacks falls back to the best it has (see
     *  ::ossa_skin_backend_supported) */
    ossa_skin_backend backend;
    /** Store kind of the AVX-512 fast path (0: OSSA_SKIN_STORES_AUTO) */
    ossa_skin_stores stores;
} ossa_skin_frame;

/**
 * Morphs then skins prepared slots [begin, end) (end is clamped to the slot count). Skinned
 * meshes use frame->palette (LBS) or frame->dual_quats (DQS); unskinned meshes use
 * frame->transform.
 * With OSSA_SKIN_ORDER_PREPARED, output element i is slot i; on AVX-512, whole blocks going to
 * tightly packed, 64-byte aligned position/normal outputs (no tangent output) take the fastest
 * path, with non-temporal stores as frame->stores says (by default when the mesh's output is 1
 * MiB or more: smaller outputs stay in the cache for their next reader). Any other layout goes
 * through a generic strided store.
 * @param output_capacity elements each output stream holds: at least the (clamped) end with
 *        OSSA_SKIN_ORDER_PREPARED, at least the vertex count with OSSA_SKIN_ORDER_ORIGINAL.
 * @return OSSA_ERROR_ARGUMENT, with nothing written, for: NULL mesh, frame or output; an
 *         unknown mode, order or backend; begin > end; a skinned mesh without its table (palette
 *         for LBS, dual_quats for DQS) or with frame->joint_count below the mesh's joint count;
 *         morph weights NULL with a non-zero count; no output positions; output normals or
 *         tangents the mesh does not have; a misaligned or short-strided output stream; an
 *         output_capacity too small for the range and order. Valid inputs cannot fail.
 */
ossa_result ossa_skin_mesh_run(const ossa_skin_mesh *mesh, const ossa_skin_frame *frame,
                               const ossa_skin_output *output, size_t output_capacity, size_t begin,
                               size_t end, ossa_error *error);

#ifdef __cplusplus
}
#endif

#endif
