/*
 * The AVX-512 backend: 16 vertices per vector. Narrow blocks (joints within a 32-wide window)
 * look palette elements up with one vpermt2ps from 12 tables of 32 floats (no gathers); wide
 * blocks gather. Whole blocks in prepared order go out through in-register transposes (and
 * non-temporal stores when the output is large); LBS and DQS of the common blocks have their own
 * fast path (skin_fast_avx512.h).
 */
#if defined(__x86_64__) || defined(__i386__)
#include "simd_target.h"
OSSA_TARGET_BEGIN("avx512f,avx512bw,avx512vl,avx2,fma")
#include <immintrin.h>

#include "joint_rows_avx512.h"
#include "skin_mesh_internal.h"

typedef __m512 vf;
typedef __m512i vi; /* narrow: joint - base; wide: joint * 12 */
#define W              16
#define V_SET1(x)      _mm512_set1_ps(x)
#define V_LOAD(p)      _mm512_load_ps(p)
#define V_STORE(p, v)  _mm512_store_ps(p, v)
#define V_ADD(a, b)    _mm512_add_ps(a, b)
#define V_SUB(a, b)    _mm512_sub_ps(a, b)
#define V_MUL(a, b)    _mm512_mul_ps(a, b)
#define V_FMA(a, b, c) _mm512_fmadd_ps(a, b, c)

/* rsqrt14 and one Newton step: ~1e-7 relative, well inside the 1e-6 the scalar kernel allows. */
static inline vf invsqrt(vf x) {
    __mmask16 positive = _mm512_cmp_ps_mask(x, _mm512_setzero_ps(), _CMP_GT_OQ);
    vf r = _mm512_maskz_rsqrt14_ps(positive, x);
    vf half_x_rr = _mm512_mul_ps(_mm512_mul_ps(_mm512_set1_ps(0.5f), x), _mm512_mul_ps(r, r));
    return _mm512_mul_ps(r, _mm512_sub_ps(_mm512_set1_ps(1.5f), half_x_rr));
}
#define V_INVSQRT(x)    invsqrt(x)
#define V_FNMA(a, b, c) _mm512_fnmadd_ps(a, b, c)

/* rcp14 and one Newton step (r + r (1 - x r)): ~1e-7 relative, 0 where x is not positive. */
static inline vf rcp(vf x) {
    __mmask16 positive = _mm512_cmp_ps_mask(x, _mm512_setzero_ps(), _CMP_GT_OQ);
    vf r = _mm512_maskz_rcp14_ps(positive, x);
    return _mm512_fmadd_ps(r, _mm512_fnmadd_ps(x, r, _mm512_set1_ps(1.0f)), r);
}
#define V_RCP(x) rcp(x)

static inline vf flipsign(vf w, vf d) {
    __mmask16 negative = _mm512_cmp_ps_mask(d, _mm512_setzero_ps(), _CMP_LT_OQ);
    return _mm512_mask_sub_ps(w, negative, _mm512_setzero_ps(), w);
}
#define V_FLIPSIGN(w, d) flipsign(w, d)

typedef struct lookup_state {
    _Alignas(64) float window[SKIN_JOINT_FLOATS][SKIN_WINDOW];
    /* DQS fast path: the matrix each window joint gives a vertex it alone moves (see
     * dq_window_rows in skin_fast_avx512.h), for the window at dq_base (-1: none yet) */
    _Alignas(64) float dq_window[SKIN_JOINT_FLOATS][SKIN_WINDOW];
    const float *table;
    uint32_t joint_count;
    int base; /* joint of window[.][0]; -1 before the first narrow block */
    int dq_base;
} lookup_state;

static inline void state_init(lookup_state *st, const skin_ctx *ctx) {
    st->table = ctx->table;
    st->joint_count = ctx->mesh->joint_count;
    st->base = -1;
    st->dq_base = -1;
}

/* Transposes joints [base, base + 32) of the table into one 32-float row per element (rows of
 * joints past the end are zero), sixteen joints at a time in registers. */
static void load_window(lookup_state *st, int base) {
    for (int half = 0; half < 2; half++) {
        uint32_t first = (uint32_t)base + 16 * (uint32_t)half, n = 0;
        if (first < st->joint_count)
            n = st->joint_count - first < 16 ? st->joint_count - first : 16;
        __m512 rows[16], elements[SKIN_JOINT_FLOATS];
        load_joint_rows(n ? st->table + 12 * (size_t)first : st->table, n, rows);
        rows_to_elements(rows, elements);
        for (int e = 0; e < SKIN_JOINT_FLOATS; e++)
            _mm512_store_ps(st->window[e] + 16 * half, elements[e]);
    }
    st->base = base;
}

static inline void state_block(lookup_state *st, const skin_ctx *ctx, const skin_block *b) {
    (void)ctx;
    if (b->narrow && b->base != st->base) load_window(st, b->base);
}

static inline void state_finish(lookup_state *st) {
    (void)st;
    _mm_sfence(); /* order the non-temporal stores before whoever reads the output */
}

static inline vi lane_joints(const ossa_skin_mesh *mesh, const skin_block *b, unsigned k,
                             int narrow) {
    size_t at = b->joints + (size_t)k * SKIN_BLOCK;
    if (narrow)
        return _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(mesh->rel_joints + at)));
    __m512i j = _mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)(mesh->abs_joints + at)));
    return _mm512_mullo_epi32(j, _mm512_set1_epi32(SKIN_JOINT_FLOATS));
}

static inline vf lookup(const lookup_state *st, vi idx, int e, int narrow) {
    if (narrow)
        return _mm512_permutex2var_ps(_mm512_load_ps(st->window[e]), idx,
                                      _mm512_load_ps(st->window[e] + 16));
    return _mm512_i32gather_ps(idx, st->table + e, 4);
}
#define V_JOINTS(st, b, k, l, narrow) ((void)(st), (void)(l), lane_joints(ctx->mesh, b, k, narrow))
#define V_LOOKUP(st, idx, e, narrow)  lookup(st, idx, e, narrow)

/* Writes 16 xyz vectors (SoA x, y, z) as 48 interleaved floats (non-temporal stores or not).
 * Output lane j of vector q holds component (q + j) % 3: one permute per component puts each
 * value in the lane it takes, then mask blends (cheaper than permutes on Zen 4, and they issue
 * alongside the FMAs) assemble the three vectors. */
static inline void store_xyz(float *dst, const vf *v, int nontemporal) {
    const __m512i ix = _mm512_setr_epi32(0, 11, 6, 1, 12, 7, 2, 13, 8, 3, 14, 9, 4, 15, 10, 5);
    const __m512i iy = _mm512_setr_epi32(5, 0, 11, 6, 1, 12, 7, 2, 13, 8, 3, 14, 9, 4, 15, 10);
    const __m512i iz = _mm512_setr_epi32(10, 5, 0, 11, 6, 1, 12, 7, 2, 13, 8, 3, 14, 9, 4, 15);
    __m512 x = _mm512_permutexvar_ps(ix, v[0]), y = _mm512_permutexvar_ps(iy, v[1]),
           z = _mm512_permutexvar_ps(iz, v[2]);
    /* lanes j with j % 3 == 0, 1, 2: vector q takes y where (q + j) % 3 == 1, z where it is 2 */
    const __mmask16 mod0 = 0x9249, mod1 = 0x2492, mod2 = 0x4924;
    __m512 o0 = _mm512_mask_blend_ps(mod2, _mm512_mask_blend_ps(mod1, x, y), z);
    __m512 o1 = _mm512_mask_blend_ps(mod1, _mm512_mask_blend_ps(mod0, x, y), z);
    __m512 o2 = _mm512_mask_blend_ps(mod0, _mm512_mask_blend_ps(mod2, x, y), z);
    if (nontemporal) {
        _mm512_stream_ps(dst, o0);
        _mm512_stream_ps(dst + 16, o1);
        _mm512_stream_ps(dst + 32, o2);
    } else {
        _mm512_store_ps(dst, o0);
        _mm512_store_ps(dst + 16, o1);
        _mm512_store_ps(dst + 32, o2);
    }
}

static inline int packed_aligned(const float *base, size_t stride, size_t block) {
    return (stride == 0 || stride == 12) &&
           (((uintptr_t)(base + block * SKIN_BLOCK * 3)) & 63) == 0;
}

/* Whole blocks in prepared order to packed, 64-byte aligned outputs (without tangents). */
static inline int store_fast(const skin_ctx *ctx, const ossa_skin_output *out,
                             ossa_skin_order order, size_t block, unsigned lo, unsigned hi,
                             const vf *p, const vf *n) {
    const ossa_skin_mesh *mesh = ctx->mesh;
    int normals = out->normals && mesh->has_normals;
    if (order != OSSA_SKIN_ORDER_PREPARED || lo != 0 || hi != SKIN_BLOCK || !out->positions ||
        (out->tangents && mesh->has_tangents) ||
        !packed_aligned(out->positions, out->positions_stride, block) ||
        (normals && !packed_aligned(out->normals, out->normals_stride, block)))
        return 0;
    store_xyz(out->positions + block * SKIN_BLOCK * 3, p, ctx->nontemporal);
    if (normals) store_xyz(out->normals + block * SKIN_BLOCK * 3, n, ctx->nontemporal);
    return 1;
}

#include "skin_kernel_template.h"
#include "skin_fast_avx512.h"

void skin_range_avx512(const skin_ctx *ctx, const ossa_skin_output *out, ossa_skin_order order,
                       size_t begin, size_t end) {
    if (fast_path_applies(ctx, out, order))
        fast_range(ctx, out, begin, end);
    else
        skin_range_impl(ctx, out, order, begin, end);
}

OSSA_TARGET_END
#else
typedef int skin_avx512_not_on_this_cpu; /* ISO C wants a non-empty translation unit */
#endif
