/**
 * @file ossa.h
 * @brief All of ossa's CPU-side API in one include: documents, models and characters, sampling,
 * mixing, poses and palettes, inverse kinematics, skinning, the thread pool and the built-in
 * demo model.
 *
 * The OpenGL layer (gl.h) is separate: it needs libepoxy and EGL or GLFW.
 */
#ifndef OSSA_OSSA_H
#define OSSA_OSSA_H

#include "result.h"
#include "document.h"
#include "rig.h"
#include "clip.h"
#include "sample.h"
#include "palette.h"
#include "model.h"
#include "mix.h"
#include "motion.h"
#include "ik.h"
#include "skin.h"
#include "thread_pool.h"
#include "demo.h"

#endif
