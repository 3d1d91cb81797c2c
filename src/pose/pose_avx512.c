/* AVX-512 forward kinematics and palettes (pose_avx512.h). A 3x4 matrix lives in one register,
 * element (r, c) in lane 4 r + c (lanes 12-15 unused, never stored). The product of two such
 * matrices is three shuffles of the left one (its column k spread along each row) times the
 * right one's row k repeated in every 128-bit block, summed with FMAs and the left one's
 * translation. The local matrix of a node comes from its TRS in one register the same way:
 * shuffles place the quaternion products of each entry, FMAs scale and offset them. */
#include "pose/pose_avx512.h"

#ifdef OSSA_POSE_AVX512
#include "simd_target.h"
OSSA_TARGET_BEGIN("avx512f,fma")
#include <immintrin.h>

#include "pose/trs_entries_avx512.h"

int ossa_pose_avx512_supported(void) {
    return __builtin_cpu_supports("avx512f");
}

/* a * b for a in lanes and b given as its rows, each repeated in every 128-bit block:
 * out(r, c) = a(r, 0) b(0, c) + a(r, 1) b(1, c) + a(r, 2) b(2, c) + a(r, 3) [c == 3].
 * a(r, k) is spread along row r by an in-block shuffle. The sum is a chain of three FMAs: one
 * operation fewer than a tree of a product, two FMAs and an add, and no longer, since the
 * three shuffles of a (the parent, in forward kinematics) issue one after another anyway. */
static inline __m512 mul_rows(__m512 a, __m512 b0, __m512 b1, __m512 b2) {
    __m512 u = _mm512_fmadd_ps(_mm512_permute_ps(a, 0x00), b0, _mm512_maskz_mov_ps(0x0888, a));
    u = _mm512_fmadd_ps(_mm512_permute_ps(a, 0x55), b1, u);
    return _mm512_fmadd_ps(_mm512_permute_ps(a, 0xaa), b2, u);
}

/* a * b with both in lanes. */
static inline __m512 mul(__m512 a, __m512 b) {
    return mul_rows(a, _mm512_shuffle_f32x4(b, b, 0x00), _mm512_shuffle_f32x4(b, b, 0x55),
                    _mm512_shuffle_f32x4(b, b, 0xaa));
}

/* a * b with b's three rows read from memory. */
static inline __m512 mul_mem(__m512 a, const float *b) {
    return mul_rows(a, _mm512_broadcast_f32x4(_mm_loadu_ps(b)),
                    _mm512_broadcast_f32x4(_mm_loadu_ps(b + 4)),
                    _mm512_broadcast_f32x4(_mm_loadu_ps(b + 8)));
}

/* A 3x4 matrix from memory into lanes 0-11 (12-15 zero), and back: 32 and 16 bytes at a time,
 * cheaper on Intel than masked loads and stores, half of which cross a cache line. */
static inline __m512 load12(const float *m) {
    return _mm512_insertf32x4(_mm512_zextps256_ps512(_mm256_loadu_ps(m)), _mm_loadu_ps(m + 8), 2);
}

static inline void store12(float *out, __m512 v) {
    _mm256_storeu_ps(out, _mm512_castps512_ps256(v));
    _mm_storeu_ps(out + 8, _mm512_extractf32x4_ps(v, 2));
}

/* T * R * S of a TRS, its three rows in lanes 0-11 (trs_entries_avx512.h); the fields are
 * repeated in every block, and each lane's constants describe its entry. */
static inline __m512 local_from_trs(const ossa_trs *trs) {
    const __m512i a1 = _mm512_setr_epi32(1, 0, 0, 3, 0, 0, 1, 3, 0, 1, 0, 3, 3, 3, 3, 3);
    const __m512i a2 = _mm512_setr_epi32(1, 1, 2, 3, 1, 0, 2, 3, 2, 2, 0, 3, 3, 3, 3, 3);
    const __m512i b1 = _mm512_setr_epi32(2, 3, 3, 3, 3, 2, 3, 3, 3, 3, 1, 3, 3, 3, 3, 3);
    const __m512i b2 = _mm512_setr_epi32(2, 2, 1, 3, 2, 2, 0, 3, 1, 0, 1, 3, 3, 3, 3, 3);
    /* s_c at 1 + c of (qw sx sy sz); t_r at 16 + r, in the second source (tx ty tz qx) */
    const __m512i factor = _mm512_setr_epi32(1, 2, 3, 16, 1, 2, 3, 17, 1, 2, 3, 18, 1, 2, 3, 16);
    const __m512 flip = _mm512_setr_ps(0.0f, -0.0f, 0.0f, 0.0f, 0.0f, 0.0f, -0.0f, 0.0f, -0.0f,
                                       0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f);
    const __m512 k = _mm512_setr_ps(-2.0f, 2.0f, 2.0f, 0.0f, 2.0f, -2.0f, 2.0f, 0.0f, 2.0f, 2.0f,
                                    -2.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f);
    const __m512 c = _mm512_setr_ps(1.0f, 0.0f, 0.0f, 1.0f, 0.0f, 1.0f, 0.0f, 1.0f, 0.0f, 0.0f,
                                    1.0f, 1.0f, 0.0f, 0.0f, 0.0f, 0.0f);
    /* Fields of four floats inside the TRS: (tx ty tz qx), (qx qy qz qw), (qw sx sy sz). */
    const float *f = trs->translation;
    __m512 t = _mm512_broadcast_f32x4(_mm_loadu_ps(f));
    __m512 q = _mm512_broadcast_f32x4(_mm_loadu_ps(f + 3));
    __m512 s = _mm512_broadcast_f32x4(_mm_loadu_ps(f + 6));
    return trs_entries(q, t, s, a1, a2, b1, b2, flip, k, c, factor);
}

/* Local matrix of node i. */
static inline __m512 local_matrix(const uint8_t *fixed, const float *fixed_local,
                                  const ossa_trs *local, uint32_t i) {
    return fixed[i] ? load12(fixed_local + 12 * (size_t)i) : local_from_trs(&local[i]);
}

/* The rig's arrays are read into locals first: the intrinsic stores may alias anything, so the
 * compiler would otherwise reload every pointer after each store. */
void ossa_fk_matrices_avx512(const ossa_rig *rig, const ossa_pose *pose, float *world) {
    const uint32_t count = rig->node_count;
    const int32_t *parent = rig->parent;
    const uint8_t *fixed = rig->fixed;
    const float *fixed_local = rig->fixed_local;
    const ossa_trs *local = pose->local;
    __m512 p = _mm512_setzero_ps(); /* the previous node's world matrix */
    for (uint32_t i = 0; i < count; i++) {
        __m512 l = local_matrix(fixed, fixed_local, local, i);
        int32_t pi = parent[i];
        if (pi >= 0) {
            /* In chains of joints the parent is the previous node, still in p. */
            if (pi != (int32_t)i - 1) p = load12(world + 12 * (size_t)pi);
            l = mul(p, l);
        }
        store12(world + 12 * (size_t)i, l);
        p = l;
    }
}

void ossa_palette_avx512(const ossa_rig_skin *skin, const float *to_mesh, const float *world,
                         float *palette) {
    const uint32_t count = skin->joint_count;
    const int32_t *joints = skin->joints;
    const float *inverse_bind = skin->inverse_bind;
    if (!to_mesh) {
        for (uint32_t j = 0; j < count; j++) {
            __m512 w = load12(world + 12 * (size_t)joints[j]);
            store12(palette + 12 * (size_t)j, mul_mem(w, inverse_bind + 12 * (size_t)j));
        }
        return;
    }
    __m512 m = load12(to_mesh);
    for (uint32_t j = 0; j < count; j++) {
        __m512 w = mul_mem(m, world + 12 * (size_t)joints[j]);
        store12(palette + 12 * (size_t)j, mul_mem(w, inverse_bind + 12 * (size_t)j));
    }
}

OSSA_TARGET_END
#else
typedef int ossa_pose_avx512_not_on_this_cpu; /* ISO C wants a non-empty translation unit */
#endif
