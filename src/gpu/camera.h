/* The camera's matrices. */
#ifndef OSSA_GPU_CAMERA_H
#define OSSA_GPU_CAMERA_H

#include "ossa/gl.h"

/* projection * view, column-major, for a viewport of the given width / height. */
void gpu_camera_view_proj(const ossa_gpu_camera *camera, float aspect, float out[16]);

#endif
