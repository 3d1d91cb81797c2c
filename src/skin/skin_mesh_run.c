/* ossa_skin_mesh_run: backend choice, per-call context, and the generic output store. */
#include <stdint.h>
#include <string.h>

#include "io/error.h"
#include "skin_mesh_internal.h"

static const float identity[12] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};

int ossa_skin_backend_supported(ossa_skin_backend backend) {
    switch (backend) {
    case OSSA_SKIN_BACKEND_AUTO:
    case OSSA_SKIN_BACKEND_SCALAR:
        return 1;
#if defined(__x86_64__) || defined(__i386__)
    case OSSA_SKIN_BACKEND_SSE2:
        return __builtin_cpu_supports("sse2");
    case OSSA_SKIN_BACKEND_AVX2:
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    case OSSA_SKIN_BACKEND_AVX512:
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
               __builtin_cpu_supports("avx512vl");
#endif
    default:
        return 0;
    }
}

ossa_skin_backend ossa_skin_backend_best(void) {
    for (int b = OSSA_SKIN_BACKEND_COUNT - 1; b > OSSA_SKIN_BACKEND_SCALAR; b--)
        if (ossa_skin_backend_supported((ossa_skin_backend)b)) return (ossa_skin_backend)b;
    return OSSA_SKIN_BACKEND_SCALAR;
}

const char *ossa_skin_backend_name(ossa_skin_backend backend) {
    static const char *const names[] = {"auto", "scalar", "sse2", "avx2", "avx512"};
    return (unsigned)backend < OSSA_SKIN_BACKEND_COUNT ? names[backend] : "unknown";
}

static skin_range_fn range_function(ossa_skin_backend backend) {
    if (backend == OSSA_SKIN_BACKEND_AUTO || !ossa_skin_backend_supported(backend))
        backend = ossa_skin_backend_best();
    switch (backend) {
#if defined(__x86_64__) || defined(__i386__)
    case OSSA_SKIN_BACKEND_SSE2:
        return skin_range_sse2;
    case OSSA_SKIN_BACKEND_AVX2:
        return skin_range_avx2;
    case OSSA_SKIN_BACKEND_AVX512:
        return skin_range_avx512;
#endif
    default:
        return skin_range_scalar;
    }
}

/* 0 when an output stream is usable: NULL, or 4-byte aligned with a stride of 0 or a multiple
 * of 4 no smaller than the element. */
static int bad_output(const float *p, size_t stride, size_t packed) {
    return p && (((uintptr_t)p % sizeof(float)) != 0 || (stride && stride < packed) ||
                 stride % sizeof(float) != 0);
}

static ossa_result refuse(ossa_error *error, const char *message) {
    return ossa_error_set(error, OSSA_ERROR_ARGUMENT, NULL, NULL, "ossa_skin_mesh_run: %s",
                          message);
}

/* Everything ossa_skin_mesh_run checks before it writes anything. */
static ossa_result check_run(const ossa_skin_mesh *mesh, const ossa_skin_frame *frame,
                             const ossa_skin_output *output, size_t capacity, size_t begin,
                             size_t end, ossa_error *error) {
    if (!mesh || !frame || !output) return refuse(error, "mesh, frame and output are required");
    if (frame->mode != OSSA_SKIN_LBS && frame->mode != OSSA_SKIN_DQS)
        return refuse(error, "unknown skinning mode");
    if (frame->order != OSSA_SKIN_ORDER_PREPARED && frame->order != OSSA_SKIN_ORDER_ORIGINAL)
        return refuse(error, "unknown output order");
    if ((unsigned)frame->backend >= OSSA_SKIN_BACKEND_COUNT)
        return refuse(error, "unknown backend");
    if ((unsigned)frame->stores > OSSA_SKIN_STORES_STREAM)
        return refuse(error, "unknown store kind");
    if (begin > end) return refuse(error, "begin is after end");
    if (mesh->joint_count) {
        if (frame->mode == OSSA_SKIN_DQS && !frame->dual_quats)
            return refuse(error, "DQS needs frame->dual_quats (see ossa_skin_dual_quats)");
        if (frame->mode == OSSA_SKIN_LBS && !frame->palette)
            return refuse(error, "a skinned mesh needs frame->palette");
        if (frame->joint_count < mesh->joint_count)
            return ossa_error_set(error, OSSA_ERROR_ARGUMENT, NULL, NULL,
                                  "ossa_skin_mesh_run: the palette holds %u joints, the mesh "
                                  "uses %u",
                                  frame->joint_count, mesh->joint_count);
    }
    if (!frame->morph_weights && frame->morph_weight_count)
        return refuse(error, "morph_weight_count is not 0 but morph_weights is NULL");
    if (!output->positions) return refuse(error, "output positions are required");
    if (output->normals && !mesh->has_normals)
        return refuse(error, "output normals asked for, but the mesh has no normals");
    if (output->tangents && !mesh->has_tangents)
        return refuse(error, "output tangents asked for, but the mesh has no tangents");
    if (bad_output(output->positions, output->positions_stride, 12) ||
        bad_output(output->normals, output->normals_stride, 12) ||
        bad_output(output->tangents, output->tangents_stride, 16))
        return refuse(error, "an output stream is not 4-byte aligned or its stride is smaller "
                             "than its element or not a multiple of 4");
    size_t needed = frame->order == OSSA_SKIN_ORDER_ORIGINAL
                        ? mesh->vertex_count
                        : (end < mesh->slot_count ? end : mesh->slot_count);
    if (begin >= end || begin >= mesh->slot_count) needed = 0; /* nothing will be written */
    if (capacity < needed)
        return ossa_error_set(error, OSSA_ERROR_ARGUMENT, NULL, NULL,
                              "ossa_skin_mesh_run: the output holds %zu elements, this range "
                              "needs %zu",
                              capacity, needed);
    return OSSA_OK;
}

/* skin_ctx::unit_normals of a call whose morph weights are set. */
static int normals_stay_unit(const ossa_skin_mesh *mesh, const skin_ctx *ctx) {
    if (!mesh->unit_normals) return 0;
    uint32_t targets = mesh->morph && mesh->morph_normals ? ctx->morph_weight_count : 0;
    if (targets > mesh->target_count) targets = mesh->target_count;
    for (uint32_t t = 0; t < targets; t++)
        if (ctx->morph_weights[t] != 0.0f) return 0;
    return 1;
}

ossa_result ossa_skin_mesh_run(const ossa_skin_mesh *mesh, const ossa_skin_frame *frame,
                               const ossa_skin_output *output, size_t output_capacity, size_t begin,
                               size_t end, ossa_error *error) {
    ossa_result r = check_run(mesh, frame, output, output_capacity, begin, end, error);
    if (r != OSSA_OK) return r;
    skin_ctx ctx;
    ctx.mesh = mesh;
    ctx.dqs = frame->mode == OSSA_SKIN_DQS;
    ctx.table = NULL;
    if (mesh->joint_count) ctx.table = ctx.dqs ? frame->dual_quats : frame->palette;
    memcpy(ctx.transform, !mesh->joint_count && frame->transform ? frame->transform : identity,
           sizeof ctx.transform);
    ctx.morph_weights = frame->morph_weights;
    ctx.morph_weight_count = frame->morph_weights ? frame->morph_weight_count : 0;
    ctx.unit_normals = normals_stay_unit(mesh, &ctx);
    size_t out_bytes = 12 * (size_t)(output->positions != NULL) +
                       12 * (size_t)(output->normals && mesh->has_normals);
    ctx.nontemporal = frame->stores == OSSA_SKIN_STORES_STREAM ||
                      (frame->stores == OSSA_SKIN_STORES_AUTO &&
                       mesh->slot_count * out_bytes >= SKIN_NONTEMPORAL_BYTES);
    range_function(frame->backend)(&ctx, output, frame->order, begin, end);
    return OSSA_OK;
}

static float *element(float *base, size_t stride, size_t packed, size_t i) {
    return (float *)((unsigned char *)base + i * (stride ? stride : packed));
}

void skin_store_block_generic(const skin_ctx *ctx, const ossa_skin_output *out,
                              ossa_skin_order order, size_t block, const float *res, unsigned lo,
                              unsigned hi) {
    const ossa_skin_mesh *mesh = ctx->mesh;
    const skin_block *b = &mesh->blocks[block];
    for (unsigned l = lo; l < hi; l++) {
        size_t slot = block * SKIN_BLOCK + l;
        size_t i = slot;
        if (order == OSSA_SKIN_ORDER_ORIGINAL) {
            if (!(b->valid & (1u << l))) continue;
            i = mesh->order[slot];
        }
        if (out->positions) {
            float *p = element(out->positions, out->positions_stride, 12, i);
            for (int c = 0; c < 3; c++)
                p[c] = res[c * SKIN_BLOCK + l];
        }
        if (out->normals && mesh->has_normals) {
            float *p = element(out->normals, out->normals_stride, 12, i);
            for (int c = 0; c < 3; c++)
                p[c] = res[(3 + c) * SKIN_BLOCK + l];
        }
        if (out->tangents && mesh->has_tangents) {
            float *p = element(out->tangents, out->tangents_stride, 16, i);
            for (int c = 0; c < 4; c++)
                p[c] = res[(6 + c) * SKIN_BLOCK + l];
        }
    }
}

double ossa_skin_mesh_bytes_per_vertex(const ossa_skin_mesh *mesh, const ossa_skin_output *out) {
    if (!mesh->slot_count) return 0.0;
    /* Read: the block's float rows, its joint bytes; written: the requested outputs. */
    double read = 0.0;
    for (size_t bi = 0; bi < mesh->block_count; bi++) {
        const skin_block *b = &mesh->blocks[bi];
        read += (double)b->count * SKIN_BLOCK * (b->narrow ? 1.0 : 2.0);
    }
    read += (double)mesh->data_floats * sizeof(float);
    double per_slot = read / (double)mesh->slot_count;
    if (out->positions) per_slot += 12.0;
    if (out->normals && mesh->has_normals) per_slot += 12.0;
    if (out->tangents && mesh->has_tangents) per_slot += 16.0;
    return per_slot;
}
