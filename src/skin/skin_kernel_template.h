/*
 * The block kernel, written once for every backend. Include it after defining:
 *   W                      lanes per vector (1, 4, 8 or 16; 16 must be a multiple of W)
 *   vf, vi                 float vector type; joint index type
 *   V_SET1(x) V_LOAD(p) V_STORE(p, v) V_ADD V_SUB V_MUL V_FMA(a, b, c) = a * b + c
 *   V_FNMA(a, b, c)        c - a * b
 *   V_INVSQRT(x), V_RCP(x) 1 / sqrt(x), 1 / x; 0 where x is 0
 *   V_FLIPSIGN(w, d)       w with its sign flipped in the lanes where d < 0
 *   lookup_state           per-call state of the palette lookups
 *   state_init(st, ctx)    once per call
 *   state_block(st, ctx, b)   before each block
 *   V_JOINTS(st, b, k, l, narrow)  the joint indices of influence k, lanes [l, l + W)
 *   V_LOOKUP(st, idx, e, narrow)   element e (0..11) of the table rows named by idx
 *   store_fast(ctx, out, order, block, lo, hi, p, n)  1 when it stored a whole block's
 *                          positions p[3] and normals n[3] (W == 16 only) itself
 *   state_finish(st)       once at the end of a call
 * It defines `static void skin_range_impl(...)` with the skin_range_fn signature.
 */
#include "skin_mesh_internal.h"

#if defined(__GNUC__)
#define SKIN_INLINE static inline __attribute__((always_inline))
#else
#define SKIN_INLINE static inline
#endif

/* The element loops must be unrolled so the 12 matrix rows stay in registers. */
#define SKIN_UNROLL _Pragma("GCC unroll 12")

/*
 * Converts a blended dual quaternion (real r, dual d) to 3x4 matrix rows with the rotation scaled
 * by s, normalising on the way: with n2 = |r|^2 and k = 2 / n2, s times the rotation of r / |r|
 * is s I - s k (...) and the translation 2 * (d / |r|) * conj(r / |r|) is k (w_r d - w_d r +
 * r x d). One reciprocal, no square root; the products of the rotation carry s k once.
 */
SKIN_INLINE void dq_rows_v(const vf *q, vf s, vf *m) {
    vf x = q[0], y = q[1], z = q[2], w = q[3], dx = q[4], dy = q[5], dz = q[6], dw = q[7];
    vf r = V_RCP(V_FMA(x, x, V_FMA(y, y, V_FMA(z, z, V_MUL(w, w)))));
    vf k = V_ADD(r, r), sk = V_MUL(s, k);
    m[3] = V_MUL(k, V_FMA(w, dx, V_FNMA(dw, x, V_FNMA(z, dy, V_MUL(y, dz)))));
    m[7] = V_MUL(k, V_FMA(w, dy, V_FNMA(dw, y, V_FNMA(x, dz, V_MUL(z, dx)))));
    m[11] = V_MUL(k, V_FMA(w, dz, V_FNMA(dw, z, V_FNMA(y, dx, V_MUL(x, dy)))));
    vf ax = V_MUL(sk, x), ay = V_MUL(sk, y), az = V_MUL(sk, z);
    vf xy = V_MUL(ax, y), xz = V_MUL(ax, z), yz = V_MUL(ay, z);
    vf xw = V_MUL(ax, w), yw = V_MUL(ay, w), zw = V_MUL(az, w);
    m[0] = V_FNMA(ay, y, V_FNMA(az, z, s));
    m[5] = V_FNMA(ax, x, V_FNMA(az, z, s));
    m[10] = V_FNMA(ax, x, V_FNMA(ay, y, s));
    m[1] = V_SUB(xy, zw);
    m[4] = V_ADD(xy, zw);
    m[2] = V_ADD(xz, yw);
    m[8] = V_SUB(xz, yw);
    m[6] = V_SUB(yz, xw);
    m[9] = V_ADD(yz, xw);
}

/* The blended dual quaternion and scale (9 vectors) as the vertex's matrix s R, t. */
SKIN_INLINE void dq_to_matrix_v(const vf *q, vf *m) {
    dq_rows_v(q, q[8], m);
}

/* Scales a direction to unit length (0 stays 0). */
SKIN_INLINE void renormalise(vf *o) {
    vf inv = V_INVSQRT(V_FMA(o[0], o[0], V_FMA(o[1], o[1], V_MUL(o[2], o[2]))));
    SKIN_UNROLL
    for (int i = 0; i < 3; i++)
        o[i] = V_MUL(o[i], inv);
}

/* v x a for v = (x, y, z), plus `add` (added first: the products fuse onto it). */
SKIN_INLINE void cross_add_v(vf x, vf y, vf z, const vf *a, const vf *add, vf *o) {
    o[0] = V_FNMA(z, a[1], V_FMA(y, a[2], add[0]));
    o[1] = V_FNMA(x, a[2], V_FMA(z, a[0], add[1]));
    o[2] = V_FNMA(y, a[0], V_FMA(x, a[1], add[2]));
}

/*
 * The blended dual quaternion and scale (9 vectors) applied to a position, and to a normal when
 * `normals`, without building a matrix: about 36 operations for the position and 18 for the
 * normal, against dq_rows_v's 46 and a matrix product's 9 or 12 each. With v the real part's
 * vector, w its scalar and k = 2 / |r|^2 as in dq_rows_v, the unit rotation takes a to
 * a + k (w c + v x c) with c = v x a; so s R p + t = s p + k s (w c + v x c) + k (w d - d_w v +
 * v x d) for the position, which is s p + k (w g + v x g - d_w v) with g = s c + d. The normal
 * is turned and not scaled, as a DQS vertex's matrix s R turns it; renormalised unless the
 * mesh's normals are all unit (`unit`), since R keeps their length to rounding.
 */
SKIN_INLINE void dq_apply_v(const vf *q, const vf *p, const vf *n, const int normals,
                            const int unit, vf *op, vf *on) {
    vf x = q[0], y = q[1], z = q[2], w = q[3], dw = q[7], s = q[8];
    vf r = V_RCP(V_FMA(x, x, V_FMA(y, y, V_FMA(z, z, V_MUL(w, w)))));
    vf k = V_ADD(r, r), zero[3] = {V_SET1(0.0f), V_SET1(0.0f), V_SET1(0.0f)};
    vf c[3], g[3], h[3];
    cross_add_v(x, y, z, p, zero, c);
    SKIN_UNROLL
    for (int i = 0; i < 3; i++) {
        g[i] = V_FMA(s, c[i], q[4 + i]);
        h[i] = V_FNMA(dw, q[i], V_MUL(w, g[i]));
    }
    cross_add_v(x, y, z, g, h, h);
    SKIN_UNROLL
    for (int i = 0; i < 3; i++)
        op[i] = V_FMA(k, h[i], V_MUL(s, p[i]));
    if (!normals) return;
    cross_add_v(x, y, z, n, zero, c);
    SKIN_UNROLL
    for (int i = 0; i < 3; i++)
        h[i] = V_MUL(w, c[i]);
    cross_add_v(x, y, z, c, h, h);
    SKIN_UNROLL
    for (int i = 0; i < 3; i++)
        on[i] = V_FMA(k, h[i], n[i]);
    if (!unit) renormalise(on);
}

/* Floats of a block's attribute rows (position, normal, tangent), where its weight rows start. */
SKIN_INLINE size_t attribute_floats(const ossa_skin_mesh *mesh) {
    return (3 + 3 * (size_t)mesh->has_normals + 4 * (size_t)mesh->has_tangents) * SKIN_BLOCK;
}

/* The weight rows of a block of several influences, after its attribute rows. */
SKIN_INLINE const float *block_weights(const ossa_skin_mesh *mesh, const skin_block *b) {
    return mesh->data + b->data + attribute_floats(mesh);
}

/* The blended dual quaternion and scale (9 vectors) of lanes [l, l + W) of a skinned block;
 * `narrow` as in blend_matrix. */
SKIN_INLINE void blend_dq(const skin_ctx *ctx, lookup_state *st, const skin_block *b, unsigned l,
                          vf *acc, const int narrow) {
    (void)narrow; /* only some backends' lookups depend on it */
    vi idx = V_JOINTS(st, b, 0, l, narrow);
    vf first[4];
    SKIN_UNROLL
    for (int e = 0; e < 4; e++)
        first[e] = V_LOOKUP(st, idx, e, narrow);
    if (b->count == 1) {
        SKIN_UNROLL
        for (int e = 0; e < 4; e++)
            acc[e] = first[e];
        SKIN_UNROLL
        for (int e = 4; e < 9; e++)
            acc[e] = V_LOOKUP(st, idx, e, narrow);
        return;
    }
    const float *weights = block_weights(ctx->mesh, b);
    vf w = V_LOAD(weights + l);
    SKIN_UNROLL
    for (int e = 0; e < 4; e++)
        acc[e] = V_MUL(first[e], w);
    SKIN_UNROLL
    for (int e = 4; e < 9; e++)
        acc[e] = V_MUL(V_LOOKUP(st, idx, e, narrow), w);
    for (unsigned k = 1; k < b->count; k++) {
        idx = V_JOINTS(st, b, k, l, narrow);
        w = V_LOAD(weights + k * SKIN_BLOCK + l);
        vf q[9];
        SKIN_UNROLL
        for (int e = 0; e < 9; e++)
            q[e] = V_LOOKUP(st, idx, e, narrow);
        vf dot = V_FMA(q[0], first[0],
                       V_FMA(q[1], first[1], V_FMA(q[2], first[2], V_MUL(q[3], first[3]))));
        vf sw = V_FLIPSIGN(w, dot); /* antipodality: blend in the first one's hemisphere */
        SKIN_UNROLL
        for (int e = 0; e < 8; e++)
            acc[e] = V_FMA(q[e], sw, acc[e]);
        acc[8] = V_FMA(q[8], w, acc[8]);
    }
}

/* The blended joint matrix of lanes [l, l + W) of a skinned block. `narrow` is b->narrow as a
 * constant, so each lookup kind gets its own copy of the loops. */
SKIN_INLINE void blend_matrix(const skin_ctx *ctx, lookup_state *st, const skin_block *b,
                              unsigned l, vf *m, const int narrow) {
    (void)narrow; /* only some backends' lookups depend on it */
    if (ctx->dqs) {
        vf acc[9];
        blend_dq(ctx, st, b, l, acc, narrow);
        dq_to_matrix_v(acc, m);
        return;
    }
    vi idx = V_JOINTS(st, b, 0, l, narrow);
    if (b->count == 1) {
        SKIN_UNROLL
        for (int e = 0; e < 12; e++)
            m[e] = V_LOOKUP(st, idx, e, narrow);
        return;
    }
    const float *weights = block_weights(ctx->mesh, b);
    vf w = V_LOAD(weights + l);
    SKIN_UNROLL
    for (int e = 0; e < 12; e++)
        m[e] = V_MUL(V_LOOKUP(st, idx, e, narrow), w);
    for (unsigned k = 1; k < b->count; k++) {
        idx = V_JOINTS(st, b, k, l, narrow);
        w = V_LOAD(weights + k * SKIN_BLOCK + l);
        SKIN_UNROLL
        for (int e = 0; e < 12; e++)
            m[e] = V_FMA(V_LOOKUP(st, idx, e, narrow), w, m[e]);
    }
}

/* Transforms a direction by the 3x3 part of m and renormalises it. */
SKIN_INLINE void direction(const vf *m, vf x, vf y, vf z, vf *o) {
    o[0] = V_FMA(m[0], x, V_FMA(m[1], y, V_MUL(m[2], z)));
    o[1] = V_FMA(m[4], x, V_FMA(m[5], y, V_MUL(m[6], z)));
    o[2] = V_FMA(m[8], x, V_FMA(m[9], y, V_MUL(m[10], z)));
    renormalise(o);
}

/* 1 when DQS blocks of several influences of a mesh take dq_apply_v: meshes without tangents.
 * A property of the mesh, not of the outputs asked for, so that positions and normals come out
 * the same bits whatever else a call writes. */
SKIN_INLINE int dq_direct(const ossa_skin_mesh *mesh) {
    return !mesh->has_tangents;
}

/* Morphs and skins one block: stores lanes [lo, hi) itself through store_fast and returns 1,
 * or leaves the result in res (SKIN_RESULT_ROWS rows of 16 floats) and returns 0. */
static inline int compute_block(const skin_ctx *ctx, lookup_state *st, size_t bi, float *res,
                                const ossa_skin_output *out, ossa_skin_order order, unsigned lo,
                                unsigned hi) {
    const ossa_skin_mesh *mesh = ctx->mesh;
    const skin_block *b = &mesh->blocks[bi];
    const float *d = mesh->data + b->data;
    const float *nrm = d + 3 * SKIN_BLOCK;
    const float *tan = nrm + 3 * (size_t)mesh->has_normals * SKIN_BLOCK;
    uint32_t targets = mesh->morph ? ctx->morph_weight_count : 0;
    if (targets > mesh->target_count) targets = mesh->target_count;
    /* DQS vertices of several influences take dq_apply_v where dq_direct allows (those of one
     * keep their joint's matrix, which the AVX-512 path converts once a window) */
    int direct = ctx->dqs && ctx->table && b->count > 1 && dq_direct(mesh);
    int tangents = mesh->has_tangents && out->tangents; /* read by skin_store_block_generic */
    for (unsigned l = 0; l < SKIN_BLOCK; l += W) {
        vf p[3], n[3], t[3];
        SKIN_UNROLL
        for (int c = 0; c < 3; c++) {
            p[c] = V_LOAD(d + c * SKIN_BLOCK + l);
            n[c] = mesh->has_normals ? V_LOAD(nrm + c * SKIN_BLOCK + l) : V_SET1(0.0f);
            t[c] = mesh->has_tangents ? V_LOAD(tan + c * SKIN_BLOCK + l) : V_SET1(0.0f);
        }
        for (uint32_t ti = 0; ti < targets; ti++) {
            float mw = ctx->morph_weights[ti];
            if (mw == 0.0f) continue;
            vf w = V_SET1(mw);
            const float *row =
                mesh->morph + bi * mesh->morph_block_floats + ti * mesh->morph_target_floats + l;
            if (mesh->morph_positions) {
                SKIN_UNROLL
                for (int c = 0; c < 3; c++)
                    p[c] = V_FMA(w, V_LOAD(row + c * SKIN_BLOCK), p[c]);
                row += 3 * SKIN_BLOCK;
            }
            if (mesh->morph_normals) {
                SKIN_UNROLL
                for (int c = 0; c < 3; c++)
                    n[c] = V_FMA(w, V_LOAD(row + c * SKIN_BLOCK), n[c]);
                row += 3 * SKIN_BLOCK;
            }
            if (mesh->morph_tangents) {
                SKIN_UNROLL
                for (int c = 0; c < 3; c++)
                    t[c] = V_FMA(w, V_LOAD(row + c * SKIN_BLOCK), t[c]);
            }
        }
        vf op[3], on[3] = {V_SET1(0.0f), V_SET1(0.0f), V_SET1(0.0f)}, ot[3] = {on[0], on[1], on[2]};
        if (direct) {
            vf acc[9];
            if (b->narrow)
                blend_dq(ctx, st, b, l, acc, 1);
            else
                blend_dq(ctx, st, b, l, acc, 0);
            if (ctx->unit_normals)
                dq_apply_v(acc, p, n, 1, 1, op, on);
            else if (mesh->has_normals)
                dq_apply_v(acc, p, n, 1, 0, op, on);
            else
                dq_apply_v(acc, p, n, 0, 0, op, on);
        } else {
            vf m[12];
            if (b->count == 0 || !ctx->table) {
                SKIN_UNROLL
                for (int e = 0; e < 12; e++)
                    m[e] = V_SET1(ctx->transform[e]);
            } else if (b->narrow) {
                blend_matrix(ctx, st, b, l, m, 1);
            } else {
                blend_matrix(ctx, st, b, l, m, 0);
            }
            SKIN_UNROLL
            for (int r = 0; r < 3; r++)
                op[r] = V_FMA(m[4 * r], p[0],
                              V_FMA(m[4 * r + 1], p[1], V_FMA(m[4 * r + 2], p[2], m[4 * r + 3])));
            if (mesh->has_normals) direction(m, n[0], n[1], n[2], on);
            if (tangents) direction(m, t[0], t[1], t[2], ot);
        }
        if (W == SKIN_BLOCK && store_fast(ctx, out, order, bi, lo, hi, op, on)) return 1;
        SKIN_UNROLL
        for (int c = 0; c < 3; c++) {
            V_STORE(res + c * SKIN_BLOCK + l, op[c]);
            if (mesh->has_normals) V_STORE(res + (3 + c) * SKIN_BLOCK + l, on[c]);
        }
        if (tangents) {
            SKIN_UNROLL
            for (int c = 0; c < 3; c++)
                V_STORE(res + (6 + c) * SKIN_BLOCK + l, ot[c]);
            V_STORE(res + 9 * SKIN_BLOCK + l, V_LOAD(tan + 3 * SKIN_BLOCK + l));
        }
    }
    return 0;
}

static void skin_range_impl(const skin_ctx *ctx, const ossa_skin_output *out, ossa_skin_order order,
                            size_t begin, size_t end) {
    const ossa_skin_mesh *mesh = ctx->mesh;
    if (end > mesh->slot_count) end = mesh->slot_count;
    if (begin >= end) return;
    lookup_state st;
    state_init(&st, ctx);
    _Alignas(64) float res[SKIN_RESULT_ROWS * SKIN_BLOCK];
    size_t first = begin / SKIN_BLOCK, last = (end + SKIN_BLOCK - 1) / SKIN_BLOCK;
    for (size_t bi = first; bi < last; bi++) {
        const skin_block *b = &mesh->blocks[bi];
        if (b->count && ctx->table) state_block(&st, ctx, b);
        unsigned lo = bi == first ? (unsigned)(begin % SKIN_BLOCK) : 0;
        unsigned hi = (bi + 1) * SKIN_BLOCK > end ? (unsigned)(end - bi * SKIN_BLOCK) : SKIN_BLOCK;
        if (!compute_block(ctx, &st, bi, res, out, order, lo, hi))
            skin_store_block_generic(ctx, out, order, bi, res, lo, hi);
    }
    state_finish(&st);
}
