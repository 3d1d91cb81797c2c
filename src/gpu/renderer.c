/* Shaded instanced meshes and a ground grid, offscreen or in the window. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "camera.h"
#include "gpu_internal.h"

static const uint8_t background[3] = {46, 52, 64};

enum { GRID_LINES = 41 }; /* per direction */

struct ossa_gpu_renderer {
    ossa_gpu_context *context;
    int width, height; /* of the offscreen framebuffer; 0 for the default framebuffer */
    GLuint framebuffer, color, depth;
    GLuint grid_program, grid_vao, grid_buffer;
    GLint grid_view_proj, grid_color;
    float view_proj[16];
    float light_dir[3];
};

void ossa_gpu_renderer_background(uint8_t rgb[3]) {
    memcpy(rgb, background, 3);
}

static int make_framebuffer(ossa_gpu_renderer *r) {
    glGenFramebuffers(1, &r->framebuffer);
    glBindFramebuffer(GL_FRAMEBUFFER, r->framebuffer);
    glGenRenderbuffers(1, &r->color);
    glBindRenderbuffer(GL_RENDERBUFFER, r->color);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, r->width, r->height);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, r->color);
    glGenRenderbuffers(1, &r->depth);
    glBindRenderbuffer(GL_RENDERBUFFER, r->depth);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, r->width, r->height);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, r->depth);
    int complete = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    return complete;
}

ossa_result ossa_gpu_renderer_create(ossa_gpu_context *context, int width, int height,
                                     ossa_gpu_renderer **out, ossa_error *error) {
    *out = NULL;
    if (width < 0 || height < 0 || width > 16384 || height > 16384)
        return gpu_fail(error, OSSA_ERROR_ARGUMENT, "bad frame size %dx%d", width, height);
    ossa_gpu_renderer *r = calloc(1, sizeof *r);
    if (!r) return gpu_fail(error, OSSA_ERROR_OUT_OF_MEMORY, "out of memory");
    r->context = context;
    r->width = width;
    r->height = height;
    if (width > 0 && height > 0 && !make_framebuffer(r)) {
        ossa_gpu_renderer_destroy(r);
        return gpu_fail(error, OSSA_ERROR_UNSUPPORTED, "offscreen framebuffer incomplete");
    }
    r->grid_program = gpu_link_grid_program(error);
    if (!r->grid_program) {
        ossa_gpu_renderer_destroy(r);
        return error ? error->code : OSSA_ERROR_UNSUPPORTED;
    }
    r->grid_view_proj = glGetUniformLocation(r->grid_program, "u_view_proj");
    r->grid_color = glGetUniformLocation(r->grid_program, "u_color");
    glGenVertexArrays(1, &r->grid_vao);
    glGenBuffers(1, &r->grid_buffer);
    glBindVertexArray(r->grid_vao);
    glBindBuffer(GL_ARRAY_BUFFER, r->grid_buffer);
    glBufferData(GL_ARRAY_BUFFER, sizeof(float) * 3 * 4 * GRID_LINES, NULL, GL_DYNAMIC_DRAW);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 0, NULL);
    glBindVertexArray(0);
    *out = r;
    return OSSA_OK;
}

void ossa_gpu_renderer_destroy(ossa_gpu_renderer *r) {
    if (!r) return;
    if (r->framebuffer) glDeleteFramebuffers(1, &r->framebuffer);
    GLuint renderbuffers[2] = {r->color, r->depth};
    glDeleteRenderbuffers(2, renderbuffers);
    if (r->grid_program) glDeleteProgram(r->grid_program);
    if (r->grid_vao) glDeleteVertexArrays(1, &r->grid_vao);
    if (r->grid_buffer) glDeleteBuffers(1, &r->grid_buffer);
    free(r);
}

/* Lines of the ground plane y = ground_y around the camera target, every `step`. */
static void draw_grid(ossa_gpu_renderer *r, const ossa_gpu_camera *camera, float ground_y,
                      float step) {
    float lines[GRID_LINES * 4][3];
    float half = step * (GRID_LINES - 1) / 2;
    float cx = step * floorf(camera->target[0] / step),
          cz = step * floorf(camera->target[2] / step);
    for (int i = 0; i < GRID_LINES; i++) {
        float offset = -half + step * (float)i;
        float *a = lines[4 * i], *b = lines[4 * i + 1], *c = lines[4 * i + 2],
              *d = lines[4 * i + 3];
        a[0] = cx + offset, a[1] = ground_y, a[2] = cz - half;
        b[0] = cx + offset, b[1] = ground_y, b[2] = cz + half;
        c[0] = cx - half, c[1] = ground_y, c[2] = cz + offset;
        d[0] = cx + half, d[1] = ground_y, d[2] = cz + offset;
    }
    glUseProgram(r->grid_program);
    glUniformMatrix4fv(r->grid_view_proj, 1, GL_FALSE, r->view_proj);
    glUniform4f(r->grid_color, 0.42f, 0.46f, 0.52f, 1.0f);
    glBindBuffer(GL_ARRAY_BUFFER, r->grid_buffer);
    glBufferSubData(GL_ARRAY_BUFFER, 0, sizeof lines, lines);
    glBindVertexArray(r->grid_vao);
    glDrawArrays(GL_LINES, 0, GRID_LINES * 4);
    glBindVertexArray(0);
}

void ossa_gpu_renderer_begin(ossa_gpu_renderer *r, const ossa_gpu_camera *camera, int width,
                             int height, int grid, float ground_y, float grid_step) {
    if (r->framebuffer) width = r->width, height = r->height;
    glBindFramebuffer(GL_FRAMEBUFFER, r->framebuffer);
    glViewport(0, 0, width, height);
    glClearColor(background[0] / 255.0f, background[1] / 255.0f, background[2] / 255.0f, 1);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glEnable(GL_DEPTH_TEST);
    gpu_camera_view_proj(camera, height > 0 ? (float)width / (float)height : 1, r->view_proj);
    /* key light from above, over the camera's right shoulder */
    float to_eye[3] = {camera->eye[0] - camera->target[0], camera->eye[1] - camera->target[1],
                       camera->eye[2] - camera->target[2]};
    float len = sqrtf(to_eye[0] * to_eye[0] + to_eye[2] * to_eye[2]);
    if (!(len > 0)) len = 1;
    float light[3] = {to_eye[0] / len + 0.5f * to_eye[2] / len, 1.2f,
                      to_eye[2] / len - 0.5f * to_eye[0] / len};
    float l = sqrtf(light[0] * light[0] + light[1] * light[1] + light[2] * light[2]);
    for (int i = 0; i < 3; i++)
        r->light_dir[i] = light[i] / l;
    if (grid && grid_step > 0) draw_grid(r, camera, ground_y, grid_step);
}

void gpu_renderer_draw_primitive(ossa_gpu_renderer *r, const gpu_primitive *p,
                                 uint32_t target_count, const ossa_gpu_frame_data *frame,
                                 const ossa_gpu_skinning *skinning,
                                 const gpu_instance_materials *materials) {
    if (!p->index_count) return;
    const gpu_program *program =
        gpu_program_get(r->context, gpu_key_for(p, skinning, target_count, 0), NULL);
    if (!program) return; /* variants compile on every 3.3 driver; SSBO was checked */
    GLsizei instances = (GLsizei)(skinning->instance_count ? skinning->instance_count : 1);
    gpu_bind_skinning(r->context, program, p, frame, skinning, target_count);
    glUniformMatrix4fv(program->view_proj, 1, GL_FALSE, r->view_proj);
    const gpu_material *m = &p->material;
    glUniform4fv(program->base_color, 1, m->base_color);
    glUniform3fv(program->light_dir, 1, r->light_dir);
    glUniform1i(program->has_texture, p->texture != 0);
    glUniform3fv(program->uv_row0, 1, m->uv_transform);
    glUniform3fv(program->uv_row1, 1, m->uv_transform + 3);
    glUniform3fv(program->emissive, 1, m->emissive);
    glUniform1i(program->unlit, m->unlit);
    glUniform1i(program->alpha_mode, m->alpha_mode);
    glUniform1f(program->alpha_cutoff, m->alpha_cutoff);
    glUniform1i(program->has_emissive_texture, p->emissive_texture != 0);
    glUniform3fv(program->emissive_row0, 1, m->emissive_uv_transform);
    glUniform3fv(program->emissive_row1, 1, m->emissive_uv_transform + 3);
    glUniform1i(program->material_base, materials ? materials->base : -1);
    glUniform1i(program->material_copies, materials ? (GLint)materials->copies : 1);
    glActiveTexture(GL_TEXTURE0 + GPU_UNIT_MATERIALS);
    glBindTexture(GL_TEXTURE_BUFFER, frame->material_texture);
    glActiveTexture(GL_TEXTURE0 + GPU_UNIT_EMISSIVE);
    glBindTexture(GL_TEXTURE_2D, p->emissive_texture);
    glActiveTexture(GL_TEXTURE0 + GPU_UNIT_BASE_COLOR);
    glBindTexture(GL_TEXTURE_2D, p->texture);
    /* glTF: single-sided materials cull back faces (counter-clockwise is front) */
    if (m->double_sided)
        glDisable(GL_CULL_FACE);
    else
        glEnable(GL_CULL_FACE);
    /* BLEND: over what is behind, without hiding what is drawn later behind it */
    if (m->alpha_mode == OSSA_ALPHA_BLEND) {
        glEnable(GL_BLEND);
        glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
        glDepthMask(GL_FALSE);
    }
    glBindVertexArray(p->vao);
    glDrawElementsInstanced(GL_TRIANGLES, (GLsizei)p->index_count, GL_UNSIGNED_INT, NULL,
                            instances);
    glBindVertexArray(0);
    glDisable(GL_CULL_FACE);
    glDisable(GL_BLEND);
    glDepthMask(GL_TRUE);
}

void gpu_material_set(gpu_material *out, const ossa_model_material *material) {
    static const float identity[6] = {1, 0, 0, 0, 1, 0};
    memset(out, 0, sizeof *out);
    for (int k = 0; k < 4; k++)
        out->base_color[k] = material ? material->base_color[k] : 1.0f;
    memcpy(out->uv_transform, material ? material->uv_transform : identity, sizeof identity);
    memcpy(out->emissive_uv_transform, material ? material->emissive_uv_transform : identity,
           sizeof identity);
    out->alpha_cutoff = material ? material->alpha_cutoff : 0.5f;
    if (!material) return;
    memcpy(out->emissive, material->emissive, sizeof out->emissive);
    out->alpha_mode = (int)material->alpha_mode;
    out->unlit = material->unlit;
    out->double_sided = material->double_sided;
}

void ossa_gpu_renderer_draw(ossa_gpu_renderer *r, const ossa_gpu_mesh *mesh,
                            const ossa_gpu_frame_data *frame, const ossa_gpu_skinning *skinning) {
    for (uint32_t i = 0; i < mesh->primitive_count; i++)
        gpu_renderer_draw_primitive(r, &mesh->primitives[i], mesh->target_count, frame, skinning,
                                    NULL);
}

/* Reads the bound read framebuffer bottom-up and flips it to top-down rows. */
static void read_rgb(int width, int height, uint8_t *rgb) {
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, rgb);
    size_t row = (size_t)width * 3;
    for (int y = 0; y < height / 2; y++) {
        uint8_t *a = rgb + row * (size_t)y, *b = rgb + row * (size_t)(height - 1 - y);
        for (size_t i = 0; i < row; i++) {
            uint8_t t = a[i];
            a[i] = b[i];
            b[i] = t;
        }
    }
}

void ossa_gpu_renderer_read_rgb(ossa_gpu_renderer *r, uint8_t *rgb) {
    glBindFramebuffer(GL_FRAMEBUFFER, r->framebuffer);
    read_rgb(r->width, r->height, rgb);
}

void ossa_gpu_renderer_read_pixel(ossa_gpu_renderer *r, uint8_t rgb[3]) {
    glBindFramebuffer(GL_FRAMEBUFFER, r->framebuffer);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(r->width / 2, r->height / 2, 1, 1, GL_RGB, GL_UNSIGNED_BYTE, rgb);
}

void ossa_gpu_read_default_framebuffer(int width, int height, uint8_t *rgb) {
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glReadBuffer(GL_BACK);
    read_rgb(width, height, rgb);
}
