/* GLSL sources (without their #version line) of the programs of the OpenGL layer. */
#ifndef OSSA_GPU_SHADER_SOURCE_H
#define OSSA_GPU_SHADER_SOURCE_H

/* The skinning vertex shader in three parts (C strings are limited to 4095 characters). */
extern const char gpu_skin_vertex_declarations[];
extern const char gpu_skin_vertex_blend[];
extern const char gpu_skin_vertex_main[];
extern const char gpu_shade_fragment_source[];
extern const char gpu_grid_vertex_source[];
extern const char gpu_grid_fragment_source[];

#endif
