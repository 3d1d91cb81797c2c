/* The blending rules' loops over a rig's nodes, written once and included by mix_blend.c
 * (scalar node operations) and mix_blend_avx512.c (vector ones, the same bits). The includer
 * defines, before including:
 *   MIX_LOOP(name)      the name of each loop it gets (normal, finish, additive);
 *   MIX_LOOP_STORAGE    their storage class (static, or nothing for extern functions);
 *   add_weighted(acc, x, e)          acc += e x, the rotation on x's side of acc's hemisphere;
 *   divide_node(trs, inverse)        translation and scale times inverse, rotation normalised;
 *   add_rotation_difference(out, x, ref, e)  out's rotation times e of (ref^-1 x), normalised.
 * No include guard: each includer compiles its own copy. */

/* One node of an additive layer: x the layer's value, ref the reference's, e its weight. Where
 * the layer's value equals the reference's (nodes the clip does not move, scales of 1) the
 * difference is exactly zero: the division, square root and products are skipped (the formula
 * would only add rounding there). */
static inline void add_difference(ossa_trs *out, const ossa_trs *x, const ossa_trs *ref, float e) {
    for (int c = 0; c < 3; c++) {
        out->translation[c] += e * (x->translation[c] - ref->translation[c]);
        if (ref->scale[c] != 0 && x->scale[c] != ref->scale[c])
            out->scale[c] *= 1 + e * (x->scale[c] / ref->scale[c] - 1);
    }
    if (memcmp(x->rotation, ref->rotation, sizeof x->rotation))
        add_rotation_difference(out, x, ref, e);
}

MIX_LOOP_STORAGE void MIX_LOOP(normal)(const ossa_rig *rig, const ossa_pose *layer, double weight,
                                       const float *mask, float *sums, ossa_pose *out) {
    for (uint32_t j = 0; j < rig->node_count; j++) {
        float e = (float)(mask ? weight * mask[j] : weight);
        if (!(e > (float)OSSA_MIX_MIN_WEIGHT)) continue;
        add_weighted(&out->local[j], &layer->local[j], e);
        ossa_mix_add_weights(rig, j, out->weights, layer->weights, e);
        sums[j] += e;
    }
}

MIX_LOOP_STORAGE void MIX_LOOP(finish)(const ossa_rig *rig, float threshold, const float *sums,
                                       ossa_pose *out) {
    for (uint32_t j = 0; j < rig->node_count; j++) {
        float sum = sums[j];
        float r = sum < threshold ? threshold - sum : 0.0f;
        float total = sum + r;
        ossa_trs *trs = &out->local[j];
        uint32_t first = rig->weight_offset[j], count = rig->weight_count[j];
        if (!(total > (float)OSSA_MIX_MIN_WEIGHT)) { /* no layer, no threshold: the rest values */
            *trs = rig->rest[j];
            for (uint32_t k = first; k < first + count; k++)
                out->weights[k] = rig->rest_weights[k];
            continue;
        }
        if (r > 0) {
            add_weighted(trs, &rig->rest[j], r);
            ossa_mix_add_weights(rig, j, out->weights, rig->rest_weights, r);
        }
        /* One division per node, not ten: divisions dominated the cost of mixing. */
        float inverse = 1.0f / total;
        divide_node(trs, inverse);
        for (uint32_t k = first; k < first + count; k++)
            out->weights[k] *= inverse;
    }
}

MIX_LOOP_STORAGE void MIX_LOOP(additive)(const ossa_rig *rig, const ossa_pose *layer,
                                         const ossa_pose *reference, double weight,
                                         const float *mask, ossa_pose *out) {
    for (uint32_t j = 0; j < rig->node_count; j++) {
        float e = (float)(mask ? weight * mask[j] : weight);
        if (!(e > (float)OSSA_MIX_MIN_WEIGHT)) continue;
        add_difference(&out->local[j], &layer->local[j], &reference->local[j], e);
        uint32_t first = rig->weight_offset[j], count = rig->weight_count[j];
        for (uint32_t k = first; k < first + count; k++)
            out->weights[k] += e * (layer->weights[k] - reference->weights[k]);
    }
}
