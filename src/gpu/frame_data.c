/* The per-frame palettes and morph weights of every character, streamed into two buffers. */
#include <stdlib.h>

#include "gpu_internal.h"
#include "influence_upload.h"

static void make_buffer_texture(GLuint *buffer, GLuint *texture, GLenum format) {
    static const float zero[4] = {0, 0, 0, 0};
    glGenBuffers(1, buffer);
    glBindBuffer(GL_TEXTURE_BUFFER, *buffer);
    glBufferData(GL_TEXTURE_BUFFER, sizeof zero, zero, GL_STREAM_DRAW);
    glGenTextures(1, texture);
    glBindTexture(GL_TEXTURE_BUFFER, *texture);
    glTexBuffer(GL_TEXTURE_BUFFER, format, *buffer);
    glBindTexture(GL_TEXTURE_BUFFER, 0);
    glBindBuffer(GL_TEXTURE_BUFFER, 0);
}

void gpu_frame_data_init(ossa_gpu_frame_data *frame, ossa_gpu_context *context) {
    frame->context = context;
    make_buffer_texture(&frame->palette_buffer, &frame->palette_texture, GL_RGBA32F);
    make_buffer_texture(&frame->weights_buffer, &frame->weights_texture, GL_R32F);
    make_buffer_texture(&frame->material_buffer, &frame->material_texture, GL_RGBA32F);
}

void gpu_frame_data_release(ossa_gpu_frame_data *frame) {
    GLuint buffers[3] = {frame->palette_buffer, frame->weights_buffer, frame->material_buffer};
    GLuint textures[3] = {frame->palette_texture, frame->weights_texture, frame->material_texture};
    glDeleteBuffers(3, buffers);
    glDeleteTextures(3, textures);
}

ossa_result ossa_gpu_frame_data_create(ossa_gpu_context *context, ossa_gpu_frame_data **out,
                                       ossa_error *error) {
    *out = calloc(1, sizeof **out);
    if (!*out) return gpu_fail(error, OSSA_ERROR_OUT_OF_MEMORY, "out of memory");
    gpu_frame_data_init(*out, context);
    return OSSA_OK;
}

void ossa_gpu_frame_data_destroy(ossa_gpu_frame_data *frame) {
    if (!frame) return;
    gpu_frame_data_release(frame);
    free(frame);
}

/* Orphans the old storage (draws in flight keep it) and writes the new contents. */
static void stream(GLuint buffer, const float *data, size_t floats) {
    if (!floats) return;
    glBindBuffer(GL_TEXTURE_BUFFER, buffer);
    glBufferData(GL_TEXTURE_BUFFER, (GLsizeiptr)(floats * sizeof(float)), NULL, GL_STREAM_DRAW);
    glBufferSubData(GL_TEXTURE_BUFFER, 0, (GLsizeiptr)(floats * sizeof(float)), data);
    glBindBuffer(GL_TEXTURE_BUFFER, 0);
}

void ossa_gpu_frame_data_upload(ossa_gpu_frame_data *frame, const float *palette,
                                uint32_t joint_count, const float *weights, uint32_t weight_count) {
    stream(frame->palette_buffer, palette, (size_t)joint_count * 12);
    stream(frame->weights_buffer, weights, weights ? weight_count : 0);
}

gpu_program_key gpu_key_for(const gpu_primitive *primitive, const ossa_gpu_skinning *skinning,
                            uint32_t target_count, int feedback) {
    gpu_program_key key = {0};
    key.ssbo = skinning->path == OSSA_GPU_PALETTE_SSBO;
    key.unskinned = skinning->unskinned || primitive->influences.set_count == 0;
    /* unskinned vertices take their node's matrix exactly, as on the CPU */
    key.dual_quaternion = skinning->method == OSSA_GPU_DUAL_QUATERNION && !key.unskinned;
    key.morph = !skinning->skip_morph && target_count > 0 && primitive->targets_texture != 0;
    key.feedback = feedback != 0;
    return key;
}

void gpu_bind_skinning(const ossa_gpu_context *context, const gpu_program *program,
                       const gpu_primitive *primitive, const ossa_gpu_frame_data *frame,
                       const ossa_gpu_skinning *skinning, uint32_t target_count) {
    glUseProgram(program->id);
    glUniform1i(program->palette_base, (GLint)skinning->palette_base);
    glUniform1i(program->joint_count, (GLint)(skinning->joint_count ? skinning->joint_count : 1));
    glUniform1i(program->weights_base, (GLint)skinning->weights_base);
    glUniform1i(program->target_count, (GLint)target_count);
    glUniform1i(program->vertex_count, (GLint)primitive->vertex_count);
    if (skinning->path == OSSA_GPU_PALETTE_SSBO)
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, frame->palette_buffer);
    glActiveTexture(GL_TEXTURE0 + GPU_UNIT_PALETTE);
    glBindTexture(GL_TEXTURE_BUFFER, frame->palette_texture);
    glActiveTexture(GL_TEXTURE0 + GPU_UNIT_WEIGHTS);
    glBindTexture(GL_TEXTURE_BUFFER, frame->weights_texture);
    glActiveTexture(GL_TEXTURE0 + GPU_UNIT_TARGETS);
    glBindTexture(GL_TEXTURE_BUFFER,
                  primitive->targets_texture ? primitive->targets_texture : context->empty_texture);
    gpu_influences_bind(context, program, &primitive->influences);
}
