/* The AVX2 backend: the block kernel 8 lanes at a time, palette elements gathered. */
#if defined(__x86_64__) || defined(__i386__)
#include "simd_target.h"
OSSA_TARGET_BEGIN("avx2,fma")
#include <immintrin.h>

#include "skin_mesh_internal.h"

typedef __m256 vf;
typedef __m256i vi; /* joint * 12: the float offset of the joint's table row */
#define W              8
#define V_SET1(x)      _mm256_set1_ps(x)
#define V_LOAD(p)      _mm256_load_ps(p)
#define V_STORE(p, v)  _mm256_store_ps(p, v)
#define V_ADD(a, b)    _mm256_add_ps(a, b)
#define V_SUB(a, b)    _mm256_sub_ps(a, b)
#define V_MUL(a, b)    _mm256_mul_ps(a, b)
#define V_FMA(a, b, c) _mm256_fmadd_ps(a, b, c)

static inline vf invsqrt(vf x) {
    vf positive = _mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_GT_OQ);
    return _mm256_and_ps(positive, _mm256_div_ps(_mm256_set1_ps(1.0f), _mm256_sqrt_ps(x)));
}
#define V_INVSQRT(x)    invsqrt(x)
#define V_FNMA(a, b, c) _mm256_fnmadd_ps(a, b, c)

static inline vf rcp(vf x) {
    vf positive = _mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_GT_OQ);
    return _mm256_and_ps(positive, _mm256_div_ps(_mm256_set1_ps(1.0f), x));
}
#define V_RCP(x) rcp(x)

static inline vf flipsign(vf w, vf d) {
    vf negative = _mm256_cmp_ps(d, _mm256_setzero_ps(), _CMP_LT_OQ);
    return _mm256_xor_ps(w, _mm256_and_ps(negative, _mm256_set1_ps(-0.0f)));
}
#define V_FLIPSIGN(w, d) flipsign(w, d)

typedef struct lookup_state {
    const float *table;
} lookup_state;

static inline void state_init(lookup_state *st, const skin_ctx *ctx) {
    st->table = ctx->table;
}
static inline void state_block(lookup_state *st, const skin_ctx *ctx, const skin_block *b) {
    (void)st, (void)ctx, (void)b;
}
static inline void state_finish(lookup_state *st) {
    (void)st;
}

static inline vi lane_joints(const ossa_skin_mesh *mesh, const skin_block *b, unsigned k,
                             unsigned l) {
    size_t at = b->joints + (size_t)k * SKIN_BLOCK + l;
    __m256i j;
    if (b->narrow)
        j = _mm256_add_epi32(
            _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(mesh->rel_joints + at))),
            _mm256_set1_epi32(b->base));
    else
        j = _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(mesh->abs_joints + at)));
    return _mm256_mullo_epi32(j, _mm256_set1_epi32(SKIN_JOINT_FLOATS));
}
#define V_JOINTS(st, b, k, l, narrow) ((void)(st), lane_joints(ctx->mesh, b, k, l))
#define V_LOOKUP(st, idx, e, narrow)  _mm256_i32gather_ps((st)->table + (e), idx, 4)

static inline int store_fast(const skin_ctx *ctx, const ossa_skin_output *out,
                             ossa_skin_order order, size_t block, unsigned lo, unsigned hi,
                             const vf *p, const vf *n) {
    (void)ctx, (void)out, (void)order, (void)block, (void)lo, (void)hi, (void)p, (void)n;
    return 0; /* blocks are wider than this backend's vectors */
}

#include "skin_kernel_template.h"

void skin_range_avx2(const skin_ctx *ctx, const ossa_skin_output *out, ossa_skin_order order,
                     size_t begin, size_t end) {
    skin_range_impl(ctx, out, order, begin, end);
}

OSSA_TARGET_END
#else
typedef int skin_avx2_not_on_this_cpu; /* ISO C wants a non-empty translation unit */
#endif
