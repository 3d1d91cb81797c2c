/* Compiles, links and caches the program variants of the skinning shader. */
#include <stdio.h>
#include <string.h>

#include "gpu_internal.h"
#include "shader_source.h"

/* Compiles header + parts (NULL-terminated list of at most 3). */
static GLuint compile(GLenum stage, const char *header, const char *const *parts, char *log,
                      size_t log_size) {
    GLuint shader = glCreateShader(stage);
    const char *sources[4] = {header};
    GLsizei count = 1;
    while (count < 4 && parts[count - 1])
        sources[count] = parts[count - 1], count++;
    glShaderSource(shader, count, sources, NULL);
    glCompileShader(shader);
    GLint ok = 0;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        glGetShaderInfoLog(shader, (GLsizei)log_size, NULL, log);
        glDeleteShader(shader);
        return 0;
    }
    return shader;
}

/* Links a vertex (+ optional fragment) program; varyings are captured when given. */
static GLuint link(const char *header, const char *const *vertex, const char *fragment,
                   const char *const *varyings, int varying_count, ossa_error *error) {
    char log[512] = "";
    GLuint vs = compile(GL_VERTEX_SHADER, header, vertex, log, sizeof log);
    GLuint fs = 0;
    const char *const fragment_parts[2] = {fragment, NULL};
    if (vs && fragment) fs = compile(GL_FRAGMENT_SHADER, header, fragment_parts, log, sizeof log);
    if (!vs || (fragment && !fs)) {
        if (vs) glDeleteShader(vs);
        gpu_fail(error, OSSA_ERROR_UNSUPPORTED, "shader does not compile: %s", log);
        return 0;
    }
    GLuint program = glCreateProgram();
    glAttachShader(program, vs);
    if (fs) glAttachShader(program, fs);
    if (varying_count)
        glTransformFeedbackVaryings(program, varying_count, varyings, GL_INTERLEAVED_ATTRIBS);
    glLinkProgram(program);
    glDeleteShader(vs);
    if (fs) glDeleteShader(fs);
    GLint ok = 0;
    glGetProgramiv(program, GL_LINK_STATUS, &ok);
    if (!ok) {
        glGetProgramInfoLog(program, sizeof log, NULL, log);
        glDeleteProgram(program);
        gpu_fail(error, OSSA_ERROR_UNSUPPORTED, "shader does not link: %s", log);
        return 0;
    }
    return program;
}

static int same_key(gpu_program_key a, gpu_program_key b) {
    return a.ssbo == b.ssbo && a.dual_quaternion == b.dual_quaternion &&
           a.unskinned == b.unskinned && a.morph == b.morph && a.feedback == b.feedback;
}

static void find_uniforms(gpu_program *p) {
    GLuint id = p->id;
    p->palette_base = glGetUniformLocation(id, "u_palette_base");
    p->joint_count = glGetUniformLocation(id, "u_joint_count");
    p->weights_base = glGetUniformLocation(id, "u_weights_base");
    p->target_count = glGetUniformLocation(id, "u_target_count");
    p->vertex_count = glGetUniformLocation(id, "u_vertex_count");
    p->influence_texels = glGetUniformLocation(id, "u_influence_texels");
    p->view_proj = glGetUniformLocation(id, "u_view_proj");
    p->base_color = glGetUniformLocation(id, "u_base_color");
    p->has_texture = glGetUniformLocation(id, "u_has_texture");
    p->light_dir = glGetUniformLocation(id, "u_light_dir");
    p->uv_row0 = glGetUniformLocation(id, "u_uv_row0");
    p->uv_row1 = glGetUniformLocation(id, "u_uv_row1");
    p->emissive = glGetUniformLocation(id, "u_emissive");
    p->unlit = glGetUniformLocation(id, "u_unlit");
    p->alpha_mode = glGetUniformLocation(id, "u_alpha_mode");
    p->alpha_cutoff = glGetUniformLocation(id, "u_alpha_cutoff");
    p->has_emissive_texture = glGetUniformLocation(id, "u_has_emissive_texture");
    p->emissive_row0 = glGetUniformLocation(id, "u_emissive_row0");
    p->emissive_row1 = glGetUniformLocation(id, "u_emissive_row1");
    p->material_base = glGetUniformLocation(id, "u_material_base");
    p->material_copies = glGetUniformLocation(id, "u_material_copies");
    glUseProgram(id);
    glUniform1i(glGetUniformLocation(id, "u_palette"), GPU_UNIT_PALETTE);
    glUniform1i(glGetUniformLocation(id, "u_targets"), GPU_UNIT_TARGETS);
    glUniform1i(glGetUniformLocation(id, "u_weights"), GPU_UNIT_WEIGHTS);
    glUniform1i(glGetUniformLocation(id, "u_influences"), GPU_UNIT_INFLUENCES);
    glUniform1i(glGetUniformLocation(id, "u_base_color_texture"), GPU_UNIT_BASE_COLOR);
    glUniform1i(glGetUniformLocation(id, "u_emissive_texture"), GPU_UNIT_EMISSIVE);
    glUniform1i(glGetUniformLocation(id, "u_materials"), GPU_UNIT_MATERIALS);
}

const gpu_program *gpu_program_get(ossa_gpu_context *context, gpu_program_key key,
                                   ossa_error *error) {
    for (int i = 0; i < context->program_count; i++)
        if (same_key(context->keys[i], key)) return &context->programs[i];
    if (context->program_count == GPU_PROGRAM_CACHE) {
        gpu_fail(error, OSSA_ERROR_LIMIT, "too many shader variants");
        return NULL;
    }
    if (key.ssbo && !context->info.has_ssbo) {
        gpu_fail(error, OSSA_ERROR_UNSUPPORTED, "shader storage buffers need OpenGL 4.3");
        return NULL;
    }
    char header[256];
    snprintf(header, sizeof header, "#version %s\n%s%s%s%s%s", key.ssbo ? "430 core" : "330 core",
             key.ssbo ? "#define PALETTE_SSBO\n" : "",
             key.dual_quaternion ? "#define DUAL_QUATERNION\n" : "",
             key.unskinned ? "#define UNSKINNED\n" : "", key.morph ? "#define MORPH\n" : "",
             key.feedback ? "#define FEEDBACK\n" : "");
    static const char *const varyings[] = {"v_position", "v_normal"};
    static const char *const vertex[] = {gpu_skin_vertex_declarations, gpu_skin_vertex_blend,
                                         gpu_skin_vertex_main, NULL};
    GLuint id = link(header, vertex, key.feedback ? NULL : gpu_shade_fragment_source, varyings,
                     key.feedback ? 2 : 0, error);
    if (!id) return NULL;
    gpu_program *program = &context->programs[context->program_count];
    memset(program, 0, sizeof *program);
    program->id = id;
    find_uniforms(program);
    context->keys[context->program_count++] = key;
    return program;
}

GLuint gpu_link_grid_program(ossa_error *error) {
    static const char *const vertex[] = {gpu_grid_vertex_source, NULL};
    return link("#version 330 core\n", vertex, gpu_grid_fragment_source, NULL, 0, error);
}

void gpu_programs_release(ossa_gpu_context *context) {
    for (int i = 0; i < context->program_count; i++)
        glDeleteProgram(context->programs[i].id);
    context->program_count = 0;
}
