/* Camera placement and its view-projection matrix (column-major, for glUniformMatrix4fv). */
#include <math.h>

#include "camera.h"

void ossa_gpu_camera_frame_bounds(ossa_gpu_camera *camera, const float lo[3], const float hi[3],
                                  float yaw, float pitch, float zoom) {
    float center[3], radius = 0;
    for (int i = 0; i < 3; i++) {
        center[i] = 0.5f * (lo[i] + hi[i]);
        radius += 0.25f * (hi[i] - lo[i]) * (hi[i] - lo[i]);
    }
    radius = sqrtf(radius);
    if (!(radius > 1e-6f)) radius = 1;
    camera->fov_y = 0.6f;
    /* the bounding sphere fits the vertical field of view; zoom > 1 moves away */
    float distance = zoom * radius / sinf(0.5f * camera->fov_y);
    float dir[3] = {cosf(pitch) * sinf(yaw), sinf(pitch), cosf(pitch) * cosf(yaw)};
    for (int i = 0; i < 3; i++) {
        camera->target[i] = center[i];
        camera->eye[i] = center[i] + distance * dir[i];
        camera->up[i] = i == 1;
    }
    camera->z_near =
        distance - 1.5f * radius > distance * 0.01f ? distance - 1.5f * radius : distance * 0.01f;
    camera->z_far = distance + 4 * radius;
}

static void normalize3(float v[3]) {
    float len = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (len > 0)
        for (int i = 0; i < 3; i++)
            v[i] /= len;
}

static void cross3(const float a[3], const float b[3], float out[3]) {
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

void gpu_camera_view_proj(const ossa_gpu_camera *camera, float aspect, float out[16]) {
    float f[3] = {camera->target[0] - camera->eye[0], camera->target[1] - camera->eye[1],
                  camera->target[2] - camera->eye[2]};
    normalize3(f);
    float s[3], u[3];
    cross3(f, camera->up, s);
    normalize3(s);
    cross3(s, f, u);
    /* view rows: s, u, -f; translation -R * eye */
    float view[16] = {0};
    for (int i = 0; i < 3; i++) {
        view[4 * i + 0] = s[i];
        view[4 * i + 1] = u[i];
        view[4 * i + 2] = -f[i];
    }
    view[12] = -(s[0] * camera->eye[0] + s[1] * camera->eye[1] + s[2] * camera->eye[2]);
    view[13] = -(u[0] * camera->eye[0] + u[1] * camera->eye[1] + u[2] * camera->eye[2]);
    view[14] = f[0] * camera->eye[0] + f[1] * camera->eye[1] + f[2] * camera->eye[2];
    view[15] = 1;
    float t = 1.0f / tanf(0.5f * camera->fov_y), n = camera->z_near, fa = camera->z_far;
    float proj[16] = {0};
    proj[0] = t / aspect;
    proj[5] = t;
    proj[10] = (fa + n) / (n - fa);
    proj[11] = -1;
    proj[14] = 2 * fa * n / (n - fa);
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++) {
            float sum = 0;
            for (int k = 0; k < 4; k++)
                sum += proj[4 * k + r] * view[4 * c + k];
            out[4 * c + r] = sum;
        }
}
