/* The SSE2 backend: the block kernel 4 lanes at a time (palette rows fetched per lane). */
#if defined(__x86_64__) || defined(__i386__)
#include "simd_target.h"
OSSA_TARGET_BEGIN("sse2")
#include <emmintrin.h>

#include "skin_mesh_internal.h"

typedef __m128 vf;
typedef struct vi {
    const float *row[4];
} vi;
#define W              4
#define V_SET1(x)      _mm_set1_ps(x)
#define V_LOAD(p)      _mm_load_ps(p)
#define V_STORE(p, v)  _mm_store_ps(p, v)
#define V_ADD(a, b)    _mm_add_ps(a, b)
#define V_SUB(a, b)    _mm_sub_ps(a, b)
#define V_MUL(a, b)    _mm_mul_ps(a, b)
#define V_FMA(a, b, c) _mm_add_ps(_mm_mul_ps(a, b), c)

static inline vf invsqrt(vf x) {
    vf positive = _mm_cmpgt_ps(x, _mm_setzero_ps());
    return _mm_and_ps(positive, _mm_div_ps(_mm_set1_ps(1.0f), _mm_sqrt_ps(x)));
}
#define V_INVSQRT(x)    invsqrt(x)
#define V_FNMA(a, b, c) _mm_sub_ps(c, _mm_mul_ps(a, b))

static inline vf rcp(vf x) {
    vf positive = _mm_cmpgt_ps(x, _mm_setzero_ps());
    return _mm_and_ps(positive, _mm_div_ps(_mm_set1_ps(1.0f), x));
}
#define V_RCP(x) rcp(x)

static inline vf flipsign(vf w, vf d) {
    vf negative = _mm_cmplt_ps(d, _mm_setzero_ps());
    return _mm_xor_ps(w, _mm_and_ps(negative, _mm_set1_ps(-0.0f)));
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

static inline vi lane_joints(const lookup_state *st, const ossa_skin_mesh *mesh,
                             const skin_block *b, unsigned k, unsigned l) {
    vi r;
    size_t at = b->joints + (size_t)k * SKIN_BLOCK + l;
    for (int i = 0; i < 4; i++) {
        uint32_t j =
            b->narrow ? b->base + (uint32_t)mesh->rel_joints[at + i] : mesh->abs_joints[at + i];
        r.row[i] = st->table + (size_t)SKIN_JOINT_FLOATS * j;
    }
    return r;
}
#define V_JOINTS(st, b, k, l, narrow) lane_joints(st, ctx->mesh, b, k, l)
#define V_LOOKUP(st, idx, e, narrow)                                                               \
    ((void)(st), _mm_setr_ps(idx.row[0][e], idx.row[1][e], idx.row[2][e], idx.row[3][e]))

static inline int store_fast(const skin_ctx *ctx, const ossa_skin_output *out,
                             ossa_skin_order order, size_t block, unsigned lo, unsigned hi,
                             const vf *p, const vf *n) {
    (void)ctx, (void)out, (void)order, (void)block, (void)lo, (void)hi, (void)p, (void)n;
    return 0; /* blocks are wider than this backend's vectors */
}

#include "skin_kernel_template.h"

void skin_range_sse2(const skin_ctx *ctx, const ossa_skin_output *out, ossa_skin_order order,
                     size_t begin, size_t end) {
    skin_range_impl(ctx, out, order, begin, end);
}

OSSA_TARGET_END
#else
typedef int skin_sse2_not_on_this_cpu; /* ISO C wants a non-empty translation unit */
#endif
