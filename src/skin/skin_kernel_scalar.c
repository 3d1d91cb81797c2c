/* The scalar backend: the block kernel one lane at a time, portable C. */
#include <math.h>

typedef float vf;
typedef const float *vi; /* the table row of the joint */
#define W                1
#define V_SET1(x)        (x)
#define V_LOAD(p)        (*(p))
#define V_STORE(p, v)    (*(p) = (v))
#define V_ADD(a, b)      ((a) + (b))
#define V_SUB(a, b)      ((a) - (b))
#define V_MUL(a, b)      ((a) * (b))
#define V_FMA(a, b, c)   ((a) * (b) + (c))
#define V_FNMA(a, b, c)  ((c) - (a) * (b))
#define V_INVSQRT(x)     ((x) > 0.0f ? 1.0f / sqrtf(x) : 0.0f)
#define V_RCP(x)         ((x) > 0.0f ? 1.0f / (x) : 0.0f)
#define V_FLIPSIGN(w, d) ((d) < 0.0f ? -(w) : (w))

#include "skin_mesh_internal.h"

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

static inline vi scalar_joint(const lookup_state *st, const ossa_skin_mesh *mesh,
                              const skin_block *b, unsigned k, unsigned l) {
    size_t at = b->joints + (size_t)k * SKIN_BLOCK + l;
    uint32_t j = b->narrow ? b->base + (uint32_t)mesh->rel_joints[at] : mesh->abs_joints[at];
    return st->table + (size_t)SKIN_JOINT_FLOATS * j;
}
#define V_JOINTS(st, b, k, l, narrow) scalar_joint(st, ctx->mesh, b, k, l)
#define V_LOOKUP(st, idx, e, narrow)  ((void)(st), (idx)[e])

static inline int store_fast(const skin_ctx *ctx, const ossa_skin_output *out,
                             ossa_skin_order order, size_t block, unsigned lo, unsigned hi,
                             const vf *p, const vf *n) {
    (void)ctx, (void)out, (void)order, (void)block, (void)lo, (void)hi, (void)p, (void)n;
    return 0; /* blocks are wider than this backend's vectors */
}

#include "skin_kernel_template.h"

void skin_range_scalar(const skin_ctx *ctx, const ossa_skin_output *out, ossa_skin_order order,
                       size_t begin, size_t end) {
    skin_range_impl(ctx, out, order, begin, end);
}
