/* AVX-512 forward kinematics and palettes of four poses of one rig at once (pose_avx512.h).
 * A register holds one row of a 3x4 matrix for each pose, pose k in 128-bit block k. A product
 * then shuffles only the left matrix (each entry spread along its row, inside its block); the
 * right one's rows are whole registers. One pose per register (pose_avx512.c) must also repeat
 * each row of the right matrix in every block: half of its shuffles go away here. Every lane
 * goes through the operations of pose_avx512.c in the same order, so the results are the same
 * bits. The world rows of every node stay in a scratch on the stack for the children and the
 * palettes that read them: reading them back from the four poses' outputs would cost an insert
 * per row and pose. */
#include "pose/pose_avx512.h"

#ifdef OSSA_POSE_AVX512
#include "simd_target.h"
OSSA_TARGET_BEGIN("avx512f,fma")
#include <immintrin.h>

#include "pose/trs_entries_avx512.h"

/* The rows of a 3x4 matrix, each register one row of the four poses. */
typedef struct rows4 {
    __m512 r0, r1, r2;
} rows4;

/* Four fields of four floats, block k from p[k] + offset. */
static OSSA_SIMD_INLINE __m512 gather_fields(const float *const p[4], size_t offset) {
    __m512 v = _mm512_castps128_ps512(_mm_loadu_ps(p[0] + offset));
    v = _mm512_insertf32x4(v, _mm_loadu_ps(p[1] + offset), 1);
    v = _mm512_insertf32x4(v, _mm_loadu_ps(p[2] + offset), 2);
    return _mm512_insertf32x4(v, _mm_loadu_ps(p[3] + offset), 3);
}

static OSSA_SIMD_INLINE void scatter_fields(float *const p[4], size_t offset, __m512 v) {
    _mm_storeu_ps(p[0] + offset, _mm512_castps512_ps128(v));
    _mm_storeu_ps(p[1] + offset, _mm512_extractf32x4_ps(v, 1));
    _mm_storeu_ps(p[2] + offset, _mm512_extractf32x4_ps(v, 2));
    _mm_storeu_ps(p[3] + offset, _mm512_extractf32x4_ps(v, 3));
}

/* Row r of a * b: a(r, k) spread along the row by an in-block shuffle, b's rows as they are;
 * the chain of FMAs of mul_rows in pose_avx512.c. */
static OSSA_SIMD_INLINE __m512 product_row(__m512 a, rows4 b) {
    __m512 u = _mm512_fmadd_ps(_mm512_permute_ps(a, 0x00), b.r0, _mm512_maskz_mov_ps(0x8888, a));
    u = _mm512_fmadd_ps(_mm512_permute_ps(a, 0x55), b.r1, u);
    return _mm512_fmadd_ps(_mm512_permute_ps(a, 0xaa), b.r2, u);
}

static OSSA_SIMD_INLINE rows4 product(rows4 a, rows4 b) {
    rows4 out = {product_row(a.r0, b), product_row(a.r1, b), product_row(a.r2, b)};
    return out;
}

/* The rows of T * R * S (trs_entries_avx512.h) for the four poses: row r of pose_avx512.c's
 * constants repeated in every block. */
#define REPEAT_I(a, b, c, d) _mm512_broadcast_i32x4(_mm_setr_epi32(a, b, c, d))
#define REPEAT_F(a, b, c, d) _mm512_broadcast_f32x4(_mm_setr_ps(a, b, c, d))
static OSSA_SIMD_INLINE rows4 local_rows(const ossa_trs *const local[4], uint32_t node) {
    const float *f[4] = {local[0][node].translation, local[1][node].translation,
                         local[2][node].translation, local[3][node].translation};
    __m512 t = gather_fields(f, 0), q = gather_fields(f, 3), s = gather_fields(f, 6);
    /* s_c of block k at 4 k + 1 + c; t_r at 16 + 4 k + r, in the second source */
    rows4 out = {
        trs_entries(q, t, s, REPEAT_I(1, 0, 0, 3), REPEAT_I(1, 1, 2, 3), REPEAT_I(2, 3, 3, 3),
                    REPEAT_I(2, 2, 1, 3), REPEAT_F(0.0f, -0.0f, 0.0f, 0.0f),
                    REPEAT_F(-2.0f, 2.0f, 2.0f, 0.0f), REPEAT_F(1.0f, 0.0f, 0.0f, 1.0f),
                    _mm512_setr_epi32(1, 2, 3, 16, 5, 6, 7, 20, 9, 10, 11, 24, 13, 14, 15, 28)),
        trs_entries(q, t, s, REPEAT_I(0, 0, 1, 3), REPEAT_I(1, 0, 2, 3), REPEAT_I(3, 2, 3, 3),
                    REPEAT_I(2, 2, 0, 3), REPEAT_F(0.0f, 0.0f, -0.0f, 0.0f),
                    REPEAT_F(2.0f, -2.0f, 2.0f, 0.0f), REPEAT_F(0.0f, 1.0f, 0.0f, 1.0f),
                    _mm512_setr_epi32(1, 2, 3, 17, 5, 6, 7, 21, 9, 10, 11, 25, 13, 14, 15, 29)),
        trs_entries(q, t, s, REPEAT_I(0, 1, 0, 3), REPEAT_I(2, 2, 0, 3), REPEAT_I(3, 3, 1, 3),
                    REPEAT_I(1, 0, 1, 3), REPEAT_F(-0.0f, 0.0f, 0.0f, 0.0f),
                    REPEAT_F(2.0f, 2.0f, -2.0f, 0.0f), REPEAT_F(0.0f, 0.0f, 1.0f, 1.0f),
                    _mm512_setr_epi32(1, 2, 3, 18, 5, 6, 7, 22, 9, 10, 11, 26, 13, 14, 15, 30)),
    };
    return out;
}

/* A matrix shared by the four poses (a fixed local matrix, an inverse bind matrix). */
static OSSA_SIMD_INLINE rows4 shared_rows(const float *m) {
    rows4 out = {_mm512_broadcast_f32x4(_mm_loadu_ps(m)),
                 _mm512_broadcast_f32x4(_mm_loadu_ps(m + 4)),
                 _mm512_broadcast_f32x4(_mm_loadu_ps(m + 8))};
    return out;
}

static OSSA_SIMD_INLINE void scatter_rows(float *const out[4], size_t at, rows4 m) {
    scatter_fields(out, at, m.r0);
    scatter_fields(out, at + 4, m.r1);
    scatter_fields(out, at + 8, m.r2);
}

void ossa_fk_palettes4_avx512(const ossa_rig *rig, const ossa_pose *poses, float *const *worlds,
                              float *const *palettes) {
    const uint32_t count = rig->node_count;
    const int32_t *parent = rig->parent;
    const uint8_t *fixed = rig->fixed;
    const float *fixed_local = rig->fixed_local;
    const ossa_trs *local[4] = {poses[0].local, poses[1].local, poses[2].local, poses[3].local};
    float *world[4] = {worlds[0], worlds[1], worlds[2], worlds[3]};
    rows4 scratch[OSSA_FK4_MAX_NODES];
    rows4 p = {_mm512_setzero_ps(), _mm512_setzero_ps(), _mm512_setzero_ps()};
    for (uint32_t i = 0; i < count; i++) {
        rows4 l = fixed[i] ? shared_rows(fixed_local + 12 * (size_t)i) : local_rows(local, i);
        int32_t pi = parent[i];
        if (pi >= 0) {
            /* In chains of joints the parent is the previous node, still in p. */
            if (pi != (int32_t)i - 1) p = scratch[pi];
            l = product(p, l);
        }
        scratch[i] = l;
        scatter_rows(world, 12 * (size_t)i, l);
        p = l;
    }
    float *palette[4] = {palettes[0], palettes[1], palettes[2], palettes[3]};
    for (uint32_t s = 0; s < rig->skin_count; s++) {
        const ossa_rig_skin *skin = &rig->skins[s];
        for (uint32_t j = 0; j < skin->joint_count; j++)
            scatter_rows(palette, 12 * (size_t)j,
                         product(scratch[skin->joints[j]],
                                 shared_rows(skin->inverse_bind + 12 * (size_t)j)));
        for (int k = 0; k < 4; k++)
            palette[k] += 12 * (size_t)skin->joint_count;
    }
}

OSSA_TARGET_END
#else
typedef int ossa_pose4_avx512_not_on_this_cpu; /* ISO C wants a non-empty translation unit */
#endif
