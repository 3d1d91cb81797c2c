/* Building a prepared mesh: influences compacted and renormalised, vertices grouped by
 * influence count and sorted by joints into SoA blocks of 16, morph targets alongside. Within a
 * count, vertices sharing one joint list fill whole blocks of their own first (uniform blocks:
 * the kernels read their palette entries once per block instead of once per lane); the rest
 * follow, sorted by their joints. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "influences.h"
#include "io/error.h"
#include "rig/owned.h"
#include "skin_mesh_internal.h"

/* Per-vertex facts used to order the vertices. */
typedef struct vertex_key {
    uint32_t vertex;
    uint32_t count;
    uint32_t min_joint, max_joint;
    uint32_t hash; /* of the joint list in influence order: equal lists sort together */
} vertex_key;

static void *mem_alloc(const ossa_allocator *a, size_t size) {
    return ossa_alloc_array(a, size, 1);
}

static void mem_free(const ossa_allocator *a, void *p) {
    ossa_free(a, p);
}

/* 64-byte aligned zeroed floats on top of the allocator (the offset is kept before them). */
static float *alloc_floats(const ossa_allocator *a, size_t count) {
    if (count > (SIZE_MAX - 64 - sizeof(void *)) / sizeof(float)) return NULL;
    uint8_t *raw = mem_alloc(a, count * sizeof(float) + 64 + sizeof(void *));
    if (!raw) return NULL;
    uintptr_t start = ((uintptr_t)(raw + sizeof(void *)) + 63) & ~(uintptr_t)63;
    memcpy((void *)(start - sizeof(void *)), &raw, sizeof raw);
    memset((void *)start, 0, count * sizeof(float));
    return (float *)start;
}

static void free_floats(const ossa_allocator *a, float *p) {
    if (!p) return;
    void *raw;
    memcpy(&raw, (uint8_t *)p - sizeof(void *), sizeof raw);
    mem_free(a, raw);
}

static int compare_keys(const void *pa, const void *pb) {
    const vertex_key *a = pa, *b = pb;
    if (a->count != b->count) return a->count < b->count ? -1 : 1;
    if (a->min_joint != b->min_joint) return a->min_joint < b->min_joint ? -1 : 1;
    if (a->max_joint != b->max_joint) return a->max_joint < b->max_joint ? -1 : 1;
    if (a->hash != b->hash) return a->hash < b->hash ? -1 : 1;
    return a->vertex < b->vertex ? -1 : a->vertex > b->vertex;
}

/* FNV-1a over a joint list. */
static uint32_t hash_joints(const uint32_t *joints, uint32_t count) {
    uint32_t h = 2166136261u;
    for (uint32_t k = 0; k < count; k++)
        h = (h ^ joints[k]) * 16777619u;
    return h;
}

/* 1 when vertices a and b have the same joints in the same influence order. */
static int same_joints(const vertex_key *a, const vertex_key *b, const uint32_t *all_joints,
                       uint32_t cap) {
    return a->count == b->count && a->hash == b->hash &&
           !memcmp(all_joints + (size_t)a->vertex * cap, all_joints + (size_t)b->vertex * cap,
                   a->count * sizeof *all_joints);
}

/* Reorders each influence count's sorted keys [first, end): the whole blocks of every run of one
 * joint list first, then the rest in their sorted order. */
static void uniform_first(const vertex_key *sorted, vertex_key *out, size_t first, size_t end,
                          const uint32_t *all_joints, uint32_t cap) {
    size_t at = first;
    for (int pass = 0; pass < 2; pass++)
        for (size_t run = first; run < end;) {
            size_t stop = run + 1;
            while (stop < end && same_joints(&sorted[run], &sorted[stop], all_joints, cap))
                stop++;
            size_t whole = (stop - run) / SKIN_BLOCK * SKIN_BLOCK;
            if (!sorted[run].count) whole = 0; /* unskinned: nothing to share */
            size_t from = pass == 0 ? run : run + whole, to = pass == 0 ? run + whole : stop;
            memcpy(out + at, sorted + from, (to - from) * sizeof *out);
            at += to - from;
            run = stop;
        }
}

static ossa_result fail(ossa_error *error, ossa_result code, const char *message) {
    return ossa_error_set(error, code, NULL, NULL, "%s", message);
}

void ossa_skin_mesh_free(ossa_skin_mesh *m) {
    if (!m) return;
    ossa_allocator a = m->allocator;
    mem_free(&a, m->histogram);
    mem_free(&a, m->blocks);
    free_floats(&a, m->data);
    mem_free(&a, m->rel_joints);
    mem_free(&a, m->abs_joints);
    free_floats(&a, m->morph);
    mem_free(&a, m->order);
    mem_free(&a, m);
}

/* A float stream: 4-byte aligned, stride 0 or a multiple of 4 no smaller than the element. */
static int bad_float_stream(const float *p, size_t stride, size_t packed) {
    return p && (((uintptr_t)p % sizeof(float)) != 0 || (stride && stride < packed) ||
                 stride % sizeof(float) != 0);
}

static ossa_result check_desc(const ossa_skin_mesh_desc *d, ossa_error *error) {
    const ossa_skin_input *in = &d->input;
    if (!in->positions && d->vertex_count)
        return fail(error, OSSA_ERROR_ARGUMENT, "a prepared mesh needs positions");
    if (d->vertex_count > UINT32_MAX - 2 * SKIN_BLOCK * 64)
        return fail(error, OSSA_ERROR_LIMIT, "too many vertices for a prepared mesh");
    if (in->set_count && !in->sets)
        return fail(error, OSSA_ERROR_ARGUMENT, "set_count is not 0 but sets is NULL");
    if (in->set_count > SKIN_MAX_SETS)
        return fail(error, OSSA_ERROR_LIMIT,
                    "more than 63 JOINTS_n/WEIGHTS_n sets (252 influences per vertex)");
    if (in->set_count && d->joint_count > 65536)
        return fail(error, OSSA_ERROR_LIMIT, "more than 65536 joints");
    if (d->target_count && !d->targets)
        return fail(error, OSSA_ERROR_ARGUMENT, "target_count is not 0 but targets is NULL");
    if (bad_float_stream(in->positions, in->positions_stride, 12) ||
        bad_float_stream(in->normals, in->normals_stride, 12) ||
        bad_float_stream(in->tangents, in->tangents_stride, 16))
        return fail(error, OSSA_ERROR_ARGUMENT,
                    "a vertex stream is not 4-byte aligned or its stride is smaller than its "
                    "element or not a multiple of 4");
    for (uint32_t s = 0; s < in->set_count; s++) {
        const ossa_influence_set *set = &in->sets[s];
        if (!set->joints || !set->weights)
            return fail(error, OSSA_ERROR_ARGUMENT, "an influence set lacks joints or weights");
        if (set->joints_type != OSSA_COMPONENT_UNSIGNED_BYTE &&
            set->joints_type != OSSA_COMPONENT_UNSIGNED_SHORT)
            return fail(error, OSSA_ERROR_ARGUMENT, "joints must be unsigned byte or short");
        if (set->weights_type != OSSA_COMPONENT_FLOAT &&
            set->weights_type != OSSA_COMPONENT_UNSIGNED_BYTE &&
            set->weights_type != OSSA_COMPONENT_UNSIGNED_SHORT)
            return fail(error, OSSA_ERROR_ARGUMENT,
                        "weights must be float or normalized unsigned byte or short");
        if ((set->joints_stride && set->joints_stride < skin_joints_bytes(set)) ||
            (set->weights_stride && set->weights_stride < skin_weights_bytes(set)))
            return fail(error, OSSA_ERROR_ARGUMENT,
                        "an influence set's stride is smaller than its 4 components");
    }
    for (uint32_t t = 0; t < d->target_count; t++) {
        const ossa_morph_target_streams *ts = &d->targets[t];
        if (bad_float_stream(ts->positions, ts->positions_stride, 12) ||
            bad_float_stream(ts->normals, ts->normals_stride, 12) ||
            bad_float_stream(ts->tangents, ts->tangents_stride, 12))
            return fail(error, OSSA_ERROR_ARGUMENT,
                        "a morph target stream is not 4-byte aligned or its stride is smaller "
                        "than its element or not a multiple of 4");
    }
    return OSSA_OK;
}

/* Copies attribute rows of a vertex into lane `lane` of a block's SoA rows. */
static void put_rows(float *rows, unsigned lane, const float *src, int n) {
    for (int c = 0; c < n; c++)
        rows[c * SKIN_BLOCK + lane] = src[c];
}

static const float *stream_at(const float *base, size_t stride, size_t packed, size_t v) {
    return (const float *)skin_element(base, stride, packed, v);
}

ossa_result ossa_skin_mesh_create(const ossa_skin_mesh_desc *d, ossa_skin_mesh **out,
                                  ossa_error *error) {
    *out = NULL;
    ossa_result r = check_desc(d, error);
    if (r != OSSA_OK) return r;
    const ossa_allocator allocator = ossa_allocator_resolve(&d->allocator);
    const ossa_allocator *a = &allocator;
    const ossa_skin_input *in = &d->input;
    size_t n = d->vertex_count;
    uint32_t cap = 4 * in->set_count;                     /* at most 252 (check_desc) */
    size_t influence_slots = n * (size_t)(cap ? cap : 1); /* n < 2^32: fits 64 bits */
    ossa_skin_mesh *m = mem_alloc(a, sizeof *m);
    vertex_key *keys = ossa_alloc_array(a, n, sizeof *keys);
    uint32_t *all_joints = ossa_alloc_array(a, influence_slots, sizeof(uint32_t));
    float *all_weights = ossa_alloc_array(a, influence_slots, sizeof(float));
    if (m) {
        memset(m, 0, sizeof *m);
        m->allocator = allocator;
    }
    if (!m || !keys || !all_joints || !all_weights) goto out_of_memory;
    m->vertex_count = n;
    m->joint_count = in->set_count ? d->joint_count : 0;
    m->target_count = d->target_count;
    m->has_normals = in->normals != NULL;
    m->unit_normals = m->has_normals;
    m->has_tangents = in->tangents != NULL;
    for (uint32_t t = 0; t < d->target_count; t++) {
        m->morph_positions |= d->targets[t].positions != NULL;
        m->morph_normals |= d->targets[t].normals != NULL && m->has_normals;
        m->morph_tangents |= d->targets[t].tangents != NULL && m->has_tangents;
    }

    /* Influences per vertex, and the keys that order the vertices. */
    for (size_t v = 0; v < n; v++) {
        int bad = 0;
        uint32_t *vj = all_joints + v * cap;
        float *vw = all_weights + v * cap;
        uint32_t c = skin_gather_influences(in, v, m->joint_count, vj, vw, &bad);
        if (bad) {
            mem_free(a, keys);
            mem_free(a, all_joints);
            mem_free(a, all_weights);
            ossa_skin_mesh_free(m);
            return fail(error, OSSA_ERROR_ARGUMENT, "an influence names a joint beyond the skin");
        }
        keys[v].vertex = (uint32_t)v;
        keys[v].count = c;
        keys[v].min_joint = c ? vj[0] : 0;
        keys[v].max_joint = c ? vj[0] : 0;
        for (uint32_t k = 1; k < c; k++) {
            if (vj[k] < keys[v].min_joint) keys[v].min_joint = vj[k];
            if (vj[k] > keys[v].max_joint) keys[v].max_joint = vj[k];
        }
        keys[v].hash = hash_joints(vj, c);
        if (c > m->max_influences) m->max_influences = c;
    }
    qsort(keys, n, sizeof *keys, compare_keys);
    vertex_key *ordered = ossa_alloc_array(a, n, sizeof *ordered);
    if (!ordered && n) goto out_of_memory;
    for (size_t first = 0, end; first < n; first = end) {
        for (end = first; end < n && keys[end].count == keys[first].count;)
            end++;
        uniform_first(keys, ordered, first, end, all_joints, cap);
    }
    mem_free(a, keys);
    keys = ordered;
    m->histogram = ossa_alloc_array(a, m->max_influences + 1, sizeof(size_t));
    if (!m->histogram) goto out_of_memory;
    memset(m->histogram, 0, (m->max_influences + 1) * sizeof(size_t));
    for (size_t v = 0; v < n; v++)
        m->histogram[keys[v].count]++;

    /* Sizes: blocks per group, float data, joint bytes. */
    size_t block_count = 0, floats = 0, rel = 0, abs = 0;
    size_t attr_rows = 3 + 3 * (size_t)m->has_normals + 4 * (size_t)m->has_tangents;
    for (uint32_t c = 0; c <= m->max_influences; c++) {
        size_t blocks = (m->histogram[c] + SKIN_BLOCK - 1) / SKIN_BLOCK;
        block_count += blocks;
        floats += blocks * SKIN_BLOCK * (attr_rows + (c > 1 ? c : 0));
        rel += blocks * SKIN_BLOCK * c; /* upper bounds: a block is narrow or wide */
        abs += blocks * SKIN_BLOCK * c;
    }
    if (floats > UINT32_MAX || rel > UINT32_MAX || abs > UINT32_MAX) { /* block offsets */
        mem_free(a, keys);
        mem_free(a, all_joints);
        mem_free(a, all_weights);
        ossa_skin_mesh_free(m);
        return fail(error, OSSA_ERROR_LIMIT, "the mesh is too large for one prepared mesh");
    }
    m->block_count = block_count;
    m->slot_count = block_count * SKIN_BLOCK;
    m->morph_target_floats =
        SKIN_BLOCK * (3 * (size_t)m->morph_positions + 3 * (size_t)m->morph_normals +
                      3 * (size_t)m->morph_tangents);
    m->morph_block_floats = m->morph_target_floats * m->target_count;
    m->blocks = ossa_alloc_array(a, block_count, sizeof *m->blocks);
    m->data = alloc_floats(a, floats);
    m->rel_joints = mem_alloc(a, rel);
    m->abs_joints = ossa_alloc_array(a, abs, sizeof(uint16_t));
    m->order = ossa_alloc_array(a, m->slot_count, sizeof(uint32_t));
    if (m->morph_block_floats && block_count > SIZE_MAX / sizeof(float) / m->morph_block_floats)
        goto out_of_memory; /* more morph data than an address space holds */
    if (m->morph_block_floats) m->morph = alloc_floats(a, m->morph_block_floats * block_count);
    if (!m->blocks || !m->data || !m->rel_joints || !m->abs_joints || !m->order ||
        (m->morph_block_floats && !m->morph))
        goto out_of_memory;
    m->data_floats = floats;

    /* Fill the blocks group by group. */
    size_t first = 0, block = 0, fpos = 0, rpos = 0, apos = 0;
    while (first < n) {
        uint32_t c = keys[first].count;
        size_t group_end = first;
        while (group_end < n && keys[group_end].count == c)
            group_end++;
        for (size_t start = first; start < group_end; start += SKIN_BLOCK, block++) {
            skin_block *b = &m->blocks[block];
            memset(b, 0, sizeof *b);
            b->count = (uint8_t)c;
            b->data = (uint32_t)fpos;
            uint32_t lo = UINT32_MAX, hi = 0;
            size_t lanes[SKIN_BLOCK];
            for (unsigned l = 0; l < SKIN_BLOCK; l++) {
                size_t k = start + l < group_end ? start + l : group_end - 1;
                lanes[l] = keys[k].vertex;
                if (start + l < group_end) b->valid |= (uint16_t)(1u << l);
                m->order[block * SKIN_BLOCK + l] = keys[k].vertex;
                if (c && keys[k].min_joint < lo) lo = keys[k].min_joint;
                if (c && keys[k].max_joint > hi) hi = keys[k].max_joint;
            }
            b->uniform = c > 0;
            for (unsigned l = 1; l < SKIN_BLOCK && b->uniform; l++)
                b->uniform = same_joints(&keys[start],
                                         &keys[start + l < group_end ? start + l : group_end - 1],
                                         all_joints, cap);
            if (c) {
                /* Few distinct windows: each change of window costs a table reload. */
                uint32_t base = lo & ~15u;
                if (m->joint_count <= SKIN_WINDOW)
                    base = 0;
                else if (base + SKIN_WINDOW > m->joint_count)
                    base = m->joint_count - SKIN_WINDOW;
                if (hi >= base + SKIN_WINDOW) base = lo;
                b->narrow = hi < base + SKIN_WINDOW ? SKIN_NARROW32 : 0;
                b->base = (uint16_t)(b->narrow ? base : 0);
                if (b->narrow && hi - lo < 16) {
                    uint32_t rel_lo = lo - base; /* the table covers [rel_lo, rel_lo + 16) */
                    b->narrow = SKIN_NARROW16;
                    b->upper = (uint16_t)(rel_lo >= 16 ? 0xffffu : (1u << rel_lo) - 1);
                }
                b->joints = (uint32_t)(b->narrow ? rpos : apos);
            }
            float *rows = m->data + fpos;
            float *weights = rows + attr_rows * SKIN_BLOCK;
            for (unsigned l = 0; l < SKIN_BLOCK; l++) {
                size_t v = lanes[l];
                put_rows(rows, l, stream_at(in->positions, in->positions_stride, 12, v), 3);
                if (m->has_normals) {
                    const float *n = stream_at(in->normals, in->normals_stride, 12, v);
                    put_rows(rows + 3 * SKIN_BLOCK, l, n, 3);
                    if (!(fabsf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2] - 1.0f) <= 0x1p-21f))
                        m->unit_normals = 0;
                }
                if (m->has_tangents)
                    put_rows(rows + (3 + 3 * (size_t)m->has_normals) * SKIN_BLOCK, l,
                             stream_at(in->tangents, in->tangents_stride, 16, v), 4);
                for (uint32_t k = 0; k < c; k++) {
                    uint32_t j = all_joints[v * cap + k];
                    if (c > 1) weights[k * SKIN_BLOCK + l] = all_weights[v * cap + k];
                    if (b->narrow)
                        m->rel_joints[rpos + k * SKIN_BLOCK + l] = (uint8_t)(j - b->base);
                    else
                        m->abs_joints[apos + k * SKIN_BLOCK + l] = (uint16_t)j;
                }
                if (m->morph) {
                    float *md = m->morph + block * m->morph_block_floats;
                    for (uint32_t t = 0; t < d->target_count; t++) {
                        const ossa_morph_target_streams *ts = &d->targets[t];
                        float *row = md + t * m->morph_target_floats;
                        if (m->morph_positions) {
                            if (ts->positions)
                                put_rows(row, l,
                                         stream_at(ts->positions, ts->positions_stride, 12, v), 3);
                            row += 3 * SKIN_BLOCK;
                        }
                        if (m->morph_normals) {
                            if (ts->normals)
                                put_rows(row, l, stream_at(ts->normals, ts->normals_stride, 12, v),
                                         3);
                            row += 3 * SKIN_BLOCK;
                        }
                        if (m->morph_tangents && ts->tangents)
                            put_rows(row, l, stream_at(ts->tangents, ts->tangents_stride, 12, v),
                                     3);
                    }
                }
            }
            fpos += SKIN_BLOCK * (attr_rows + (c > 1 ? c : 0));
            if (c && b->narrow)
                rpos += SKIN_BLOCK * c;
            else
                apos += SKIN_BLOCK * c;
        }
        first = group_end;
    }
    mem_free(a, keys);
    mem_free(a, all_joints);
    mem_free(a, all_weights);
    *out = m;
    return OSSA_OK;

out_of_memory:
    mem_free(a, keys);
    mem_free(a, all_joints);
    mem_free(a, all_weights);
    ossa_skin_mesh_free(m);
    return fail(error, OSSA_ERROR_OUT_OF_MEMORY, "out of memory building a prepared mesh");
}

size_t ossa_skin_mesh_vertex_count(const ossa_skin_mesh *m) {
    return m->vertex_count;
}
size_t ossa_skin_mesh_slot_count(const ossa_skin_mesh *m) {
    return m->slot_count;
}
const uint32_t *ossa_skin_mesh_order(const ossa_skin_mesh *m) {
    return m->order;
}
uint32_t ossa_skin_mesh_max_influences(const ossa_skin_mesh *m) {
    return m->max_influences;
}
uint32_t ossa_skin_mesh_target_count(const ossa_skin_mesh *m) {
    return m->target_count;
}
int ossa_skin_mesh_has_normals(const ossa_skin_mesh *m) {
    return m->has_normals;
}
int ossa_skin_mesh_has_tangents(const ossa_skin_mesh *m) {
    return m->has_tangents;
}

size_t ossa_skin_mesh_influence_histogram(const ossa_skin_mesh *m, uint32_t count) {
    return count <= m->max_influences ? m->histogram[count] : 0;
}
