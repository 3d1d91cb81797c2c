/* Skinning one primitive of a character into caller buffers (model.h). */
#include "model/model_internal.h"
#include "ossa/palette.h"

static ossa_result argument_error(ossa_error *error, const char *message) {
    return ossa_model_fail(error, OSSA_ERROR_ARGUMENT, NULL, "", message);
}

ossa_result ossa_character_skin(const ossa_character *character, uint32_t primitive,
                                ossa_skin_mode mode, const ossa_skin_output *output,
                                size_t vertex_capacity, ossa_error *error) {
    if (!character || !output) return argument_error(error, "no character or no output");
    const ossa_model *model = ossa_character_model(character);
    if (primitive >= model->primitive_count)
        return argument_error(error, "no such primitive in the model");
    const model_primitive *p = &model->primitives[primitive];
    if (!p->skin_mesh) return argument_error(error, "the model was built without CPU skinning");
    if (vertex_capacity < p->info.vertex_count)
        return argument_error(error, "the outputs hold fewer vertices than the primitive");
    if (mode != OSSA_SKIN_LBS && mode != OSSA_SKIN_DQS)
        return argument_error(error, "unknown skinning mode");
    int skinned = p->info.skin >= 0;
    ossa_skin_frame frame = {0};
    frame.mode = mode;
    frame.order = OSSA_SKIN_ORDER_ORIGINAL;
    if (skinned) {
        uint32_t skin = (uint32_t)p->info.skin;
        frame.palette = ossa_character_palette(character, skin);
        frame.joint_count = p->info.joint_count;
        if (mode == OSSA_SKIN_DQS) {
            frame.dual_quats = ossa_character_dual_quats(character, skin);
            if (!frame.dual_quats)
                return argument_error(error, "dual quaternion skinning needs a model built "
                                             "with ossa_model_desc.dual_quaternions");
        }
    } else {
        frame.transform = ossa_character_world(character) + 12 * (size_t)p->info.node;
    }
    if (p->info.target_count) {
        frame.morph_weights = ossa_character_weights(character) + p->info.weight_offset;
        frame.morph_weight_count = model->rig->weight_count[p->info.node];
    }
    return ossa_skin_mesh_run(p->skin_mesh, &frame, output, vertex_capacity, 0,
                              ossa_skin_mesh_slot_count(p->skin_mesh), error);
}
