/* GPU skinning read back through transform feedback (tests, bounds, vertex export). */
#include <stdlib.h>

#include "gpu_internal.h"

ossa_result gpu_feedback_primitive(ossa_gpu_context *context, const gpu_primitive *p,
                                   uint32_t target_count, const ossa_gpu_frame_data *frame,
                                   const ossa_gpu_skinning *skinning, float *positions,
                                   float *normals, ossa_error *error) {
    uint32_t instances = skinning->instance_count ? skinning->instance_count : 1;
    size_t vertices = (size_t)instances * p->vertex_count;
    if (vertices == 0) return OSSA_OK;
    const gpu_program *program =
        gpu_program_get(context, gpu_key_for(p, skinning, target_count, 1), error);
    if (!program) return error ? error->code : OSSA_ERROR_UNSUPPORTED;
    float *captured = malloc(vertices * 6 * sizeof(float));
    if (!captured) return gpu_fail(error, OSSA_ERROR_OUT_OF_MEMORY, "out of memory");

    GLint previous_framebuffer = 0;
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &previous_framebuffer);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, context->feedback_framebuffer);
    GLuint buffer;
    glGenBuffers(1, &buffer);
    glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, buffer);
    glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, (GLsizeiptr)(vertices * 6 * sizeof(float)), NULL,
                 GL_STREAM_READ);
    glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, buffer);
    gpu_bind_skinning(context, program, p, frame, skinning, target_count);
    glBindVertexArray(p->vao);
    glEnable(GL_RASTERIZER_DISCARD);
    glBeginTransformFeedback(GL_POINTS);
    glDrawArraysInstanced(GL_POINTS, 0, (GLsizei)p->vertex_count, (GLsizei)instances);
    glEndTransformFeedback();
    glDisable(GL_RASTERIZER_DISCARD);
    glBindVertexArray(0);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, (GLuint)previous_framebuffer);
    glGetBufferSubData(GL_TRANSFORM_FEEDBACK_BUFFER, 0, (GLsizeiptr)(vertices * 6 * sizeof(float)),
                       captured);
    glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, 0);
    glDeleteBuffers(1, &buffer);
    GLenum status = glGetError();

    for (size_t v = 0; v < vertices; v++)
        for (int k = 0; k < 3; k++) {
            if (positions) positions[3 * v + k] = captured[6 * v + k];
            if (normals) normals[3 * v + k] = captured[6 * v + 3 + k];
        }
    free(captured);
    if (status != GL_NO_ERROR)
        return gpu_fail(error, OSSA_ERROR_UNSUPPORTED, "OpenGL error 0x%04x in skinning",
                        (unsigned)status);
    return OSSA_OK;
}

ossa_result ossa_gpu_skin_feedback(ossa_gpu_context *context, const ossa_gpu_mesh *mesh,
                                   uint32_t primitive, const ossa_gpu_frame_data *frame,
                                   const ossa_gpu_skinning *skinning, float *positions,
                                   float *normals, ossa_error *error) {
    if (primitive >= mesh->primitive_count)
        return gpu_fail(error, OSSA_ERROR_ARGUMENT, "no primitive %u", primitive);
    return gpu_feedback_primitive(context, &mesh->primitives[primitive], mesh->target_count, frame,
                                  skinning, positions, normals, error);
}
