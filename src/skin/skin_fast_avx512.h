/*
 * The AVX-512 fast path, included by skin_kernel_avx512.c after the block template: whole
 * uniform or narrow blocks of 1-4 influences, no active morph target, prepared order, packed
 * 64-byte aligned position/normal outputs. One copy per influence count, mode and table width keeps
 * the joint indices, weights and blended matrix in registers; the generic template (runtime counts)
 * spills them and was ~1.5x slower. Runs of uniform blocks of one influence count (a
 * prepared mesh puts each count's uniform blocks together) go through loops of their own. The
 * arithmetic is the template's, in the same order, so both paths give the same bits (one range may
 * mix them: partial blocks take the template).
 */
#ifndef SKIN_FAST_AVX512_H
#define SKIN_FAST_AVX512_H

/* Influence counts the fast path is specialised for; larger ones take the template. */
#define FAST_MAX_INFLUENCES 4
/* How many blocks ahead DQS fetches the float rows of large meshes (see fast_range). */
#define FAST_PREFETCH_BLOCKS 8

/* 1 when no morph target moves anything in this call. */
static int morph_inactive(const skin_ctx *ctx) {
    const ossa_skin_mesh *mesh = ctx->mesh;
    uint32_t targets = mesh->morph ? ctx->morph_weight_count : 0;
    if (targets > mesh->target_count) targets = mesh->target_count;
    for (uint32_t t = 0; t < targets; t++)
        if (ctx->morph_weights[t] != 0.0f) return 0;
    return 1;
}

/* 1 when the whole narrow blocks of 1-4 influences of this call can take the fast path. */
static int fast_path_applies(const skin_ctx *ctx, const ossa_skin_output *out,
                             ossa_skin_order order) {
    const ossa_skin_mesh *mesh = ctx->mesh;
    return ctx->table && order == OSSA_SKIN_ORDER_PREPARED && out->positions &&
           packed_aligned(out->positions, out->positions_stride, 0) &&
           !(out->normals && mesh->has_normals &&
             !packed_aligned(out->normals, out->normals_stride, 0)) &&
           !(out->tangents && mesh->has_tangents) && morph_inactive(ctx);
}

/* The table of element e for one block: SKIN_NARROW16 blocks (`t16`, a constant) use a 16-entry
 * rotation of the window (see skin_block.upper), others its two 16-entry halves. */
typedef struct fast_table {
    vf lo, hi;
} fast_table;

SKIN_INLINE fast_table row_table(const float *row, __mmask16 upper, const int t16) {
    fast_table t = {_mm512_load_ps(row), _mm512_load_ps(row + 16)};
    if (t16) t.lo = _mm512_mask_blend_ps(upper, t.lo, t.hi);
    return t;
}

SKIN_INLINE fast_table table_of(const lookup_state *st, int e, __mmask16 upper, const int t16) {
    return row_table(st->window[e], upper, t16);
}

/* The entries of table t named by idx (joint - base). */
SKIN_INLINE vf table_lookup(fast_table t, vi idx, const int t16) {
    return t16 ? _mm512_permutexvar_ps(idx, t.lo) : _mm512_permutex2var_ps(t.lo, idx, t.hi);
}

/* LBS: the weighted sum of the palette matrices (blend_matrix's LBS branch). */
SKIN_INLINE void lbs_matrix(const lookup_state *st, __mmask16 upper, const vi *idx, const vf *w,
                            const unsigned count, const int t16, vf *m) {
    SKIN_UNROLL
    for (int e = 0; e < 12; e++) {
        fast_table t = table_of(st, e, upper, t16);
        vf acc = table_lookup(t, idx[0], t16);
        if (count > 1) acc = V_MUL(acc, w[0]); /* a single influence has weight 1: exact */
        SKIN_UNROLL
        for (unsigned k = 1; k < count; k++)
            acc = V_FMA(table_lookup(t, idx[k], t16), w[k], acc);
        m[e] = acc;
    }
}

/* DQS: blended dual quaternions and scales (blend_dq). */
SKIN_INLINE void dqs_blend(const lookup_state *st, __mmask16 upper, const vi *idx, const vf *w,
                           const unsigned count, const int t16, vf *acc) {
    fast_table t[9];
    SKIN_UNROLL
    for (int e = 0; e < 9; e++)
        t[e] = table_of(st, e, upper, t16);
    SKIN_UNROLL
    for (int e = 0; e < 9; e++) {
        acc[e] = table_lookup(t[e], idx[0], t16);
        if (count > 1) acc[e] = V_MUL(acc[e], w[0]);
    }
    vf first[4];
    SKIN_UNROLL
    for (int e = 0; e < 4; e++)
        first[e] = count > 1 ? table_lookup(t[e], idx[0], t16) : acc[e];
    SKIN_UNROLL
    for (unsigned k = 1; k < count; k++) {
        /* the real part first, so only 4 of the 9 looked-up rows are live at once */
        vf q[4];
        SKIN_UNROLL
        for (int e = 0; e < 4; e++)
            q[e] = table_lookup(t[e], idx[k], t16);
        vf dot = V_FMA(q[0], first[0],
                       V_FMA(q[1], first[1], V_FMA(q[2], first[2], V_MUL(q[3], first[3]))));
        vf sw = V_FLIPSIGN(w[k], dot); /* antipodality: blend in the first one's hemisphere */
        SKIN_UNROLL
        for (int e = 0; e < 4; e++)
            acc[e] = V_FMA(q[e], sw, acc[e]);
        SKIN_UNROLL
        for (int e = 4; e < 8; e++)
            acc[e] = V_FMA(table_lookup(t[e], idx[k], t16), sw, acc[e]);
        acc[8] = V_FMA(table_lookup(t[8], idx[k], t16), w[k], acc[8]);
    }
}

/* A DQS vertex's matrix is s R, R a rotation: with unit normals R n is already unit (to rounding),
 * so the normal skips direction()'s renormalisation and s moves to the position. 1 when this call
 * does so (nrm: the normals it writes, NULL for none). */
SKIN_INLINE int dqs_unit_rotation(const skin_ctx *ctx, const float *nrm) {
    return ctx->dqs && nrm && ctx->unit_normals;
}

/* Stores a block's positions (and normals, when nrm is not NULL) from its blended dual
 * quaternions (dq_apply_v). d: the block's float rows. */
SKIN_INLINE void dq_direct_block(const skin_ctx *ctx, const vf *acc, const float *d, float *pos,
                                 float *nrm) {
    vf p[3] = {V_LOAD(d), V_LOAD(d + SKIN_BLOCK), V_LOAD(d + 2 * SKIN_BLOCK)}, op[3], on[3];
    if (!nrm) {
        dq_apply_v(acc, p, NULL, 0, 0, op, on);
        store_xyz(pos, op, ctx->nontemporal);
        return;
    }
    const float *n = d + 3 * SKIN_BLOCK;
    vf nv[3] = {V_LOAD(n), V_LOAD(n + SKIN_BLOCK), V_LOAD(n + 2 * SKIN_BLOCK)};
    if (ctx->unit_normals)
        dq_apply_v(acc, p, nv, 1, 1, op, on);
    else
        dq_apply_v(acc, p, nv, 1, 0, op, on);
    store_xyz(pos, op, ctx->nontemporal);
    store_xyz(nrm, on, ctx->nontemporal);
}

/* 1 when a whole block's DQS matrix comes from st->dq_window (dq_window_rows must have run for
 * its window): narrow blocks of one influence. */
SKIN_INLINE int dqs_single_block(const skin_ctx *ctx, const skin_block *b) {
    return ctx->dqs && b->count == 1 && b->narrow;
}

/* A vertex moved by one joint alone gets the same DQS matrix from it whatever its weight (1):
 * st->dq_window holds it for each joint of the window, converted sixteen joints at a time by
 * the steps fast_block takes per vertex (same operations lane for lane, so the same bits), once
 * per window instead of once per block. `rotation`: dqs_unit_rotation of the call. */
SKIN_INLINE void dq_window_rows(lookup_state *st, const int rotation) {
    if (st->dq_base == st->base) return;
    for (int half = 0; half < 2; half++) {
        vf q[9], m[12];
        SKIN_UNROLL
        for (int e = 0; e < 9; e++)
            q[e] = _mm512_load_ps(st->window[e] + 16 * half);
        dq_rows_v(q, rotation ? V_SET1(1.0f) : q[8], m);
        SKIN_UNROLL
        for (int e = 0; e < 12; e++)
            _mm512_store_ps(st->dq_window[e] + 16 * half, m[e]);
    }
    st->dq_base = st->base;
}

/* The DQS matrix (and the scale, for `rotation`) of a narrow single-influence block from
 * st->dq_window: one broadcast per element for a uniform block, else one lookup per lane. */
SKIN_INLINE void dq_single_matrix(const lookup_state *st, const skin_block *b,
                                  const uint8_t *rel_joints, vi idx, const int t16,
                                  const int uniform, const int rotation, vf *m, vf *scale) {
    if (uniform) {
        unsigned rel = rel_joints[b->joints];
        SKIN_UNROLL
        for (int e = 0; e < 12; e++)
            m[e] = V_SET1(st->dq_window[e][rel]);
        if (rotation) *scale = V_SET1(st->window[8][rel]);
        return;
    }
    SKIN_UNROLL
    for (int e = 0; e < 12; e++)
        m[e] = table_lookup(row_table(st->dq_window[e], b->upper, t16), idx, t16);
    if (rotation) *scale = table_lookup(table_of(st, 8, b->upper, t16), idx, t16);
}

/* The palette entries of a uniform block's joints (every lane has the same ones). */
SKIN_INLINE void uniform_entries(const skin_ctx *ctx, const skin_block *b, const unsigned count,
                                 const float **p) {
    const ossa_skin_mesh *mesh = ctx->mesh;
    SKIN_UNROLL
    for (unsigned k = 0; k < count; k++) {
        size_t at = b->joints + (size_t)k * SKIN_BLOCK;
        uint32_t j = b->narrow ? b->base + (uint32_t)mesh->rel_joints[at] : mesh->abs_joints[at];
        p[k] = ctx->table + (size_t)j * SKIN_JOINT_FLOATS;
    }
}

/* lbs_matrix for a uniform block: each element is broadcast from the palette once per block
 * instead of permuted per lane (same arithmetic, same bits). */
SKIN_INLINE void lbs_matrix_uniform(const float *const *p, const vf *w, const unsigned count,
                                    vf *m) {
    SKIN_UNROLL
    for (int e = 0; e < 12; e++) {
        vf acc = V_SET1(p[0][e]);
        if (count > 1) acc = V_MUL(acc, w[0]);
        SKIN_UNROLL
        for (unsigned k = 1; k < count; k++)
            acc = V_FMA(V_SET1(p[k][e]), w[k], acc);
        m[e] = acc;
    }
}

/* dqs_blend for a uniform block: the antipodality test is one scalar dot product per influence
 * (fused as the vector one is, so the same sign), the blend one broadcast per element. */
SKIN_INLINE void dqs_blend_uniform(const float *const *p, const vf *w, const unsigned count,
                                   vf *acc) {
    SKIN_UNROLL
    for (int e = 0; e < 9; e++) {
        acc[e] = V_SET1(p[0][e]);
        if (count > 1) acc[e] = V_MUL(acc[e], w[0]);
    }
    SKIN_UNROLL
    for (unsigned k = 1; k < count; k++) {
        const float *q = p[k], *f = p[0];
        float dot = __builtin_fmaf(
            q[0], f[0], __builtin_fmaf(q[1], f[1], __builtin_fmaf(q[2], f[2], q[3] * f[3])));
        vf sw = dot < 0.0f ? V_SUB(_mm512_setzero_ps(), w[k]) : w[k];
        SKIN_UNROLL
        for (int e = 0; e < 8; e++)
            acc[e] = V_FMA(V_SET1(q[e]), sw, acc[e]);
        acc[8] = V_FMA(V_SET1(q[8]), w[k], acc[8]);
    }
}

/* The 3x3 part of m times a direction. */
SKIN_INLINE void rotate(const vf *m, vf x, vf y, vf z, vf *o) {
    SKIN_UNROLL
    for (int r = 0; r < 3; r++)
        o[r] = V_FMA(m[4 * r], x, V_FMA(m[4 * r + 1], y, V_MUL(m[4 * r + 2], z)));
}

/* Skins whole block `bi` with `count` influences into pos (and nrm when not NULL): a uniform
 * block (`uniform`) from the table itself, else a narrow block through the window; count, dqs,
 * t16 (the block is SKIN_NARROW16) and uniform are constants after inlining. */
SKIN_INLINE void fast_block(const skin_ctx *ctx, const lookup_state *st, size_t bi, float *pos,
                            float *nrm, const unsigned count, const int dqs, const int t16,
                            const int uniform) {
    const ossa_skin_mesh *mesh = ctx->mesh;
    const skin_block *b = &mesh->blocks[bi];
    const float *d = mesh->data + b->data;
    const float *weights = block_weights(mesh, b);
    const uint8_t *joints = mesh->rel_joints + b->joints;
    vi idx[FAST_MAX_INFLUENCES];
    vf w[FAST_MAX_INFLUENCES];
    SKIN_UNROLL
    for (unsigned k = 0; k < count; k++) {
        if (!uniform)
            idx[k] =
                _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(joints + k * SKIN_BLOCK)));
        w[k] = count > 1 ? V_LOAD(weights + k * SKIN_BLOCK) : V_SET1(1.0f);
    }
    vf m[12], scale = V_SET1(1.0f);
    const float *entries[FAST_MAX_INFLUENCES];
    if (uniform) uniform_entries(ctx, b, count, entries);
    int rotation = dqs && dqs_unit_rotation(ctx, nrm);
    if (dqs && count == 1 && dqs_single_block(ctx, b)) {
        dq_single_matrix(st, b, mesh->rel_joints, idx[0], t16, uniform, rotation, m, &scale);
    } else if (dqs) {
        vf acc[9];
        if (uniform)
            dqs_blend_uniform(entries, w, count, acc);
        else
            dqs_blend(st, b->upper, idx, w, count, t16, acc);
        if (count > 1 && dq_direct(mesh)) { /* applied directly, as compute_block does */
            dq_direct_block(ctx, acc, d, pos + bi * SKIN_BLOCK * 3,
                            nrm ? nrm + bi * SKIN_BLOCK * 3 : NULL);
            return;
        }
        if (rotation) scale = acc[8];
        dq_rows_v(acc, rotation ? V_SET1(1.0f) : acc[8], m);
    } else if (uniform) {
        lbs_matrix_uniform(entries, w, count, m);
    } else {
        lbs_matrix(st, b->upper, idx, w, count, t16, m);
    }
    vf op[3], p0 = V_LOAD(d), p1 = V_LOAD(d + SKIN_BLOCK), p2 = V_LOAD(d + 2 * SKIN_BLOCK);
    if (rotation) {
        rotate(m, p0, p1, p2, op);
        SKIN_UNROLL
        for (int r = 0; r < 3; r++)
            op[r] = V_FMA(scale, op[r], m[4 * r + 3]);
    } else {
        SKIN_UNROLL
        for (int r = 0; r < 3; r++)
            op[r] =
                V_FMA(m[4 * r], p0, V_FMA(m[4 * r + 1], p1, V_FMA(m[4 * r + 2], p2, m[4 * r + 3])));
    }
    store_xyz(pos + bi * SKIN_BLOCK * 3, op, ctx->nontemporal);
    if (nrm) {
        vf on[3];
        const float *n = d + 3 * SKIN_BLOCK;
        if (rotation)
            rotate(m, V_LOAD(n), V_LOAD(n + SKIN_BLOCK), V_LOAD(n + 2 * SKIN_BLOCK), on);
        else
            direction(m, V_LOAD(n), V_LOAD(n + SKIN_BLOCK), V_LOAD(n + 2 * SKIN_BLOCK), on);
        store_xyz(nrm + bi * SKIN_BLOCK * 3, on, ctx->nontemporal);
    }
}

/* One copy per influence count (1-4). */
SKIN_INLINE void fast_block_count(const skin_ctx *ctx, const lookup_state *st, size_t bi,
                                  float *pos, float *nrm, unsigned count, const int dqs,
                                  const int t16, const int uniform) {
    switch (count) {
    case 1:
        fast_block(ctx, st, bi, pos, nrm, 1, dqs, t16, uniform);
        break;
    case 2:
        fast_block(ctx, st, bi, pos, nrm, 2, dqs, t16, uniform);
        break;
    case 3:
        fast_block(ctx, st, bi, pos, nrm, 3, dqs, t16, uniform);
        break;
    default:
        fast_block(ctx, st, bi, pos, nrm, 4, dqs, t16, uniform);
        break;
    }
}

/* Asks for the float rows of block bi in the L1 cache. Always inlined: GCC deems a function
 * that only prefetches free of effects and drops calls to it. */
SKIN_INLINE void prefetch_block(const ossa_skin_mesh *mesh, size_t bi) {
    const skin_block *b = &mesh->blocks[bi];
    size_t rows = 3 + 3 * (size_t)mesh->has_normals + 4 * (size_t)mesh->has_tangents +
                  (b->count > 1 ? b->count : 0);
    const char *d = (const char *)(mesh->data + b->data);
    for (size_t r = 0; r < rows; r++)
        _mm_prefetch(d + r * SKIN_BLOCK * sizeof(float), _MM_HINT_T0);
}

/* Whole uniform LBS blocks [first, last), all of `count` influences, with fast_block's
 * arithmetic (the same bits). A block's work is one chain of dependent steps from its joints'
 * palette entries to its stores, and a loop of its own overlaps the chains of neighbouring
 * blocks better than fast_range's dispatch did: the call's invariants stay in registers and the
 * next block's palette entries are found while this block is skinned (1.14x on CesiumMan, 1.18x
 * on Fox, Zen 5). With `fetch` (a constant), blocks below fetch_until are fetched ahead as
 * fast_range fetches them. */
SKIN_INLINE void lbs_uniform_run(const skin_ctx *ctx, size_t first, size_t last, float *pos,
                                 float *nrm, size_t fetch_until, const unsigned count,
                                 const int fetch) {
    const ossa_skin_mesh *mesh = ctx->mesh;
    const skin_block *blocks = mesh->blocks;
    const float *data = mesh->data;
    const size_t weight_row = attribute_floats(mesh);
    const int nontemporal = ctx->nontemporal;
    const float *next[FAST_MAX_INFLUENCES];
    uniform_entries(ctx, &blocks[first], count, next);
    for (size_t bi = first; bi < last; bi++) {
        if (fetch && bi + FAST_PREFETCH_BLOCKS < fetch_until)
            prefetch_block(mesh, bi + FAST_PREFETCH_BLOCKS);
        const float *entries[FAST_MAX_INFLUENCES];
        SKIN_UNROLL
        for (unsigned k = 0; k < count; k++)
            entries[k] = next[k];
        if (bi + 1 < last) uniform_entries(ctx, &blocks[bi + 1], count, next);
        const float *d = data + blocks[bi].data;
        vf w[FAST_MAX_INFLUENCES], m[12];
        SKIN_UNROLL
        for (unsigned k = 0; k < count; k++)
            w[k] = count > 1 ? V_LOAD(d + weight_row + k * SKIN_BLOCK) : V_SET1(1.0f);
        lbs_matrix_uniform(entries, w, count, m);
        vf op[3], p0 = V_LOAD(d), p1 = V_LOAD(d + SKIN_BLOCK), p2 = V_LOAD(d + 2 * SKIN_BLOCK);
        SKIN_UNROLL
        for (int r = 0; r < 3; r++)
            op[r] =
                V_FMA(m[4 * r], p0, V_FMA(m[4 * r + 1], p1, V_FMA(m[4 * r + 2], p2, m[4 * r + 3])));
        store_xyz(pos + bi * SKIN_BLOCK * 3, op, nontemporal);
        if (nrm) {
            vf on[3];
            const float *n = d + 3 * SKIN_BLOCK;
            direction(m, V_LOAD(n), V_LOAD(n + SKIN_BLOCK), V_LOAD(n + 2 * SKIN_BLOCK), on);
            store_xyz(nrm + bi * SKIN_BLOCK * 3, on, nontemporal);
        }
    }
}

/* Whole uniform DQS blocks [first, last) of `count` (2-4) influences of a mesh whose blended
 * dual quaternions apply directly (dq_direct), looped as lbs_uniform_run loops LBS blocks, with
 * fast_block's arithmetic. A loop of its own: one loop for both modes (a constant choosing the
 * body) made CesiumMan's LBS 2-6% slower, and a shared step function 15%. */
SKIN_INLINE void dqs_uniform_run(const skin_ctx *ctx, size_t first, size_t last, float *pos,
                                 float *nrm, size_t fetch_until, const unsigned count,
                                 const int fetch) {
    const ossa_skin_mesh *mesh = ctx->mesh;
    const skin_block *blocks = mesh->blocks;
    const float *data = mesh->data;
    const size_t weight_row = attribute_floats(mesh);
    const float *next[FAST_MAX_INFLUENCES];
    uniform_entries(ctx, &blocks[first], count, next);
    for (size_t bi = first; bi < last; bi++) {
        if (fetch && bi + FAST_PREFETCH_BLOCKS < fetch_until)
            prefetch_block(mesh, bi + FAST_PREFETCH_BLOCKS);
        const float *entries[FAST_MAX_INFLUENCES];
        SKIN_UNROLL
        for (unsigned k = 0; k < count; k++)
            entries[k] = next[k];
        if (bi + 1 < last) uniform_entries(ctx, &blocks[bi + 1], count, next);
        const float *d = data + blocks[bi].data;
        vf w[FAST_MAX_INFLUENCES], acc[9];
        SKIN_UNROLL
        for (unsigned k = 0; k < count; k++)
            w[k] = V_LOAD(d + weight_row + k * SKIN_BLOCK);
        dqs_blend_uniform(entries, w, count, acc);
        dq_direct_block(ctx, acc, d, pos + bi * SKIN_BLOCK * 3,
                        nrm ? nrm + bi * SKIN_BLOCK * 3 : NULL);
    }
}

/* dqs_uniform_run with one copy per influence count (2-4). */
SKIN_INLINE void dqs_uniform_run_count(const skin_ctx *ctx, size_t first, size_t last, float *pos,
                                       float *nrm, size_t fetch_until, unsigned count,
                                       const int fetch) {
    switch (count) {
    case 2:
        dqs_uniform_run(ctx, first, last, pos, nrm, fetch_until, 2, fetch);
        break;
    case 3:
        dqs_uniform_run(ctx, first, last, pos, nrm, fetch_until, 3, fetch);
        break;
    default:
        dqs_uniform_run(ctx, first, last, pos, nrm, fetch_until, 4, fetch);
        break;
    }
}

/* lbs_uniform_run with one copy per influence count (1-4). */
SKIN_INLINE void lbs_uniform_run_count(const skin_ctx *ctx, size_t first, size_t last, float *pos,
                                       float *nrm, size_t fetch_until, unsigned count,
                                       const int fetch) {
    switch (count) {
    case 1:
        lbs_uniform_run(ctx, first, last, pos, nrm, fetch_until, 1, fetch);
        break;
    case 2:
        lbs_uniform_run(ctx, first, last, pos, nrm, fetch_until, 2, fetch);
        break;
    case 3:
        lbs_uniform_run(ctx, first, last, pos, nrm, fetch_until, 3, fetch);
        break;
    default:
        lbs_uniform_run(ctx, first, last, pos, nrm, fetch_until, 4, fetch);
        break;
    }
}

/* The end of the run of whole uniform blocks of block bi's influence count that starts at bi
 * (bi itself whole and uniform), within blocks [bi, last) and slots below end. */
static size_t uniform_run_end(const ossa_skin_mesh *mesh, size_t bi, size_t last, size_t end) {
    unsigned count = mesh->blocks[bi].count;
    size_t run = bi + 1;
    while (run < last && (run + 1) * SKIN_BLOCK <= end && mesh->blocks[run].uniform &&
           mesh->blocks[run].count == count)
        run++;
    return run;
}

/* skin_range_impl with the whole narrow blocks of 1-4 influences on the fast path. */
static void fast_range(const skin_ctx *ctx, const ossa_skin_output *out, size_t begin, size_t end) {
    const ossa_skin_mesh *mesh = ctx->mesh;
    if (end > mesh->slot_count) end = mesh->slot_count;
    if (begin >= end) return;
    float *pos = out->positions, *nrm = mesh->has_normals ? out->normals : NULL;
    lookup_state st;
    state_init(&st, ctx);
    _Alignas(64) float res[SKIN_RESULT_ROWS * SKIN_BLOCK];
    size_t first = begin / SKIN_BLOCK, last = (end + SKIN_BLOCK - 1) / SKIN_BLOCK;
    /* A DQS block is a long dependency chain, so the out-of-order window spans too few blocks
     * to hide memory latency: meshes too large for the caches (measured by their positions
     * and normals, as OSSA_SKIN_STORES_AUTO measures them) fetch ahead. ~1.3x on a 1M-vertex
     * mesh on Zen 4, where LBS got slower, so LBS does not on AMD family 19h (Zen 3 and 4). LBS
     * gained 1.08-1.20x on an Intel Xeon (2026-11-27) and 1.6-1.9x on Zen 5 (2026-11-28), both
     * on a 4M-vertex mesh. A crowd's small shared meshes stay in cache whatever it stores. */
    int prefetch = (ctx->dqs || !__builtin_cpu_is("amdfam19h")) &&
                   mesh->slot_count * 24 >= SKIN_NONTEMPORAL_BYTES;
    int rotation = dqs_unit_rotation(ctx, nrm);
    for (size_t bi = first; bi < last; bi++) {
        const skin_block *b = &mesh->blocks[bi];
        if (prefetch && bi + FAST_PREFETCH_BLOCKS < last)
            prefetch_block(mesh, bi + FAST_PREFETCH_BLOCKS);
        unsigned lo = bi == first ? (unsigned)(begin % SKIN_BLOCK) : 0;
        unsigned hi = (bi + 1) * SKIN_BLOCK > end ? (unsigned)(end - bi * SKIN_BLOCK) : SKIN_BLOCK;
        int whole = lo == 0 && hi == SKIN_BLOCK && b->count >= 1 && b->count <= FAST_MAX_INFLUENCES;
        /* DQS single-influence blocks read the window's matrices (dq_window_rows); other
         * uniform blocks need no window */
        int dq_single = whole && dqs_single_block(ctx, b);
        if (whole && b->uniform && !ctx->dqs) {
            size_t run = uniform_run_end(mesh, bi, last, end);
            if (prefetch)
                lbs_uniform_run_count(ctx, bi, run, pos, nrm, last, b->count, 1);
            else
                lbs_uniform_run_count(ctx, bi, run, pos, nrm, last, b->count, 0);
            bi = run - 1;
            continue;
        }
        if (whole && b->uniform && ctx->dqs && b->count > 1 && dq_direct(mesh)) {
            size_t run = uniform_run_end(mesh, bi, last, end);
            if (prefetch)
                dqs_uniform_run_count(ctx, bi, run, pos, nrm, last, b->count, 1);
            else
                dqs_uniform_run_count(ctx, bi, run, pos, nrm, last, b->count, 0);
            bi = run - 1;
            continue;
        }
        /* DQS blocks the run leaves: one influence in a wide block, or a mesh with tangents */
        if (whole && b->uniform && !dq_single) {
            fast_block_count(ctx, &st, bi, pos, nrm, b->count, 1, 0, 1);
            continue;
        }
        if (b->count) state_block(&st, ctx, b);
        if (dq_single) {
            dq_window_rows(&st, rotation);
            if (b->uniform)
                fast_block(ctx, &st, bi, pos, nrm, 1, 1, 0, 1);
            else if (b->narrow == SKIN_NARROW16)
                fast_block(ctx, &st, bi, pos, nrm, 1, 1, 1, 0);
            else
                fast_block(ctx, &st, bi, pos, nrm, 1, 1, 0, 0);
        } else if (whole && b->narrow) {
            int t16 = b->narrow == SKIN_NARROW16;
            if (ctx->dqs && t16)
                fast_block_count(ctx, &st, bi, pos, nrm, b->count, 1, 1, 0);
            else if (ctx->dqs)
                fast_block_count(ctx, &st, bi, pos, nrm, b->count, 1, 0, 0);
            else if (t16)
                fast_block_count(ctx, &st, bi, pos, nrm, b->count, 0, 1, 0);
            else
                fast_block_count(ctx, &st, bi, pos, nrm, b->count, 0, 0, 0);
        } else if (!compute_block(ctx, &st, bi, res, out, OSSA_SKIN_ORDER_PREPARED, lo, hi)) {
            skin_store_block_generic(ctx, out, OSSA_SKIN_ORDER_PREPARED, bi, res, lo, hi);
        }
    }
    state_finish(&st);
}

#endif
