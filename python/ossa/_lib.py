"""The C library (ossa/_ossa*.so, built by setup.py from src/ and python/csrc/) through ctypes.

Mirrors of the public structs the package reads, and the prototypes of the functions it calls.
ctypes releases the GIL for the duration of every foreign call, so long calls let other Python
threads run."""

import ctypes
import importlib.machinery
import os
from ctypes import (POINTER, Structure, c_char, c_char_p, c_float, c_int, c_int32,
                    c_size_t, c_uint8, c_uint32, c_void_p)

FILE_MAX, PATH_MAX, MESSAGE_MAX = 256, 256, 512

# ossa_result (result.h)
OK = 0
ERROR_INVALID = 4
ERROR_ARGUMENT = 8

# ossa_wrap (sample.h), ossa_skin_mode (skin.h), ossa_demo_model (demo.h)
WRAPS = {"clamp": 0, "loop": 1, "ping_pong": 2}
SKIN_MODES = {"lbs": 0, "dqs": 1}
DEMO_MODELS = {"both": 0, "windmill": 1, "tentacle": 2}


class ErrorStruct(Structure):
    _fields_ = [("code", c_int), ("file", c_char * FILE_MAX), ("path", c_char * PATH_MAX),
                ("message", c_char * MESSAGE_MAX)]


class WarningStruct(Structure):
    _fields_ = [("path", c_char * PATH_MAX), ("message", c_char * MESSAGE_MAX)]


class Allocator(Structure):
    _fields_ = [("alloc", c_void_p), ("free", c_void_p), ("user", c_void_p)]


class ModelDesc(Structure):
    _fields_ = [("allocator", Allocator), ("dual_quaternions", c_int),
                ("skip_cpu_skinning", c_int), ("compact_clips", c_int),
                ("compact_error", c_float)]


class DemoDesc(Structure):
    _fields_ = [("model", c_int), ("allocator", Allocator)]


class Trs(Structure):
    _fields_ = [("translation", c_float * 3), ("rotation", c_float * 4), ("scale", c_float * 3)]


TRS_FLOATS = ctypes.sizeof(Trs) // 4  # 10: translation xyz, rotation xyzw, scale xyz


class RigSkin(Structure):
    _fields_ = [("joint_count", c_uint32), ("joints", POINTER(c_int32)),
                ("inverse_bind", POINTER(c_float)), ("mesh_node_count", c_uint32),
                ("mesh_nodes", POINTER(c_int32))]


class Rig(Structure):
    _fields_ = [("node_count", c_uint32), ("parent", POINTER(c_int32)),
                ("gltf_from_rig", POINTER(c_int32)), ("rig_from_gltf", POINTER(c_int32)),
                ("names", POINTER(c_char_p)), ("rest", POINTER(Trs)), ("fixed", POINTER(c_uint8)),
                ("fixed_local", POINTER(c_float)), ("mesh", POINTER(c_int32)),
                ("skin", POINTER(c_int32)), ("weight_total", c_uint32),
                ("weight_offset", POINTER(c_uint32)), ("weight_count", POINTER(c_uint32)),
                ("rest_weights", POINTER(c_float)), ("skin_count", c_uint32),
                ("skins", POINTER(RigSkin)), ("max_joint_count", c_uint32)]


class ModelPrimitive(Structure):
    _fields_ = [("node", c_int32), ("mesh", c_uint32), ("primitive", c_uint32),
                ("skin", c_int32), ("joint_count", c_uint32), ("vertex_count", c_uint32),
                ("index_count", c_uint32), ("mode", c_uint32), ("target_count", c_uint32),
                ("weight_offset", c_uint32), ("set_count", c_uint32), ("has_normals", c_int),
                ("has_tangents", c_int), ("has_texcoords", c_int), ("material", c_int32),
                ("instance_count", c_uint32)]


class ModelStreams(Structure):
    _fields_ = [("positions", POINTER(c_float)), ("normals", POINTER(c_float)),
                ("tangents", POINTER(c_float)), ("texcoords", POINTER(c_float)),
                ("material_texcoords", POINTER(c_float)), ("joints", c_void_p), ("weights", POINTER(c_float)),
                ("target_positions", POINTER(c_float)), ("target_normals", POINTER(c_float)),
                ("target_tangents", POINTER(c_float)), ("indices", POINTER(c_uint32))]


def _library_path():
    here = os.path.dirname(os.path.abspath(__file__))
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = os.path.join(here, "_ossa" + suffix)
        if os.path.exists(path):
            return path
    raise ImportError(
        f"ossa: the C library _ossa*.so is not in {here}: install the package "
        "(python3 -m pip install --no-build-isolation .) or build it in place "
        "(python3 setup.py build_ext --inplace) from the repository root")


lib = ctypes.CDLL(_library_path())

# Every mirrored struct has the size the C library was built with (ossapy_struct_size's order).
lib.ossapy_struct_size.restype = ctypes.c_size_t
lib.ossapy_struct_size.argtypes = [c_uint32]
for _index, _mirror in enumerate((ErrorStruct, WarningStruct, Allocator, ModelDesc, DemoDesc, Trs,
                                  RigSkin, Rig, ModelPrimitive, ModelStreams)):
    if ctypes.sizeof(_mirror) != lib.ossapy_struct_size(_index):
        raise ImportError(f"ossa: {_mirror.__name__} has {ctypes.sizeof(_mirror)} bytes in Python "
                          f"and {lib.ossapy_struct_size(_index)} in C: update python/ossa/_lib.py")

_PROTOTYPES = {
    # result.h, document.h
    "ossa_result_name": (c_char_p, [c_int]),
    "ossa_document_load_file": (c_int, [c_char_p, c_void_p, POINTER(c_void_p),
                                        POINTER(ErrorStruct)]),
    "ossa_document_free": (None, [c_void_p]),
    "ossa_demo_load": (c_int, [POINTER(DemoDesc), POINTER(c_void_p), POINTER(ErrorStruct)]),
    # model.h
    "ossa_model_create": (c_int, [c_void_p, POINTER(ModelDesc), POINTER(c_void_p),
                                  POINTER(ErrorStruct)]),
    "ossa_model_free": (None, [c_void_p]),
    "ossa_model_file": (c_char_p, [c_void_p]),
    "ossa_model_rig": (POINTER(Rig), [c_void_p]),
    "ossa_model_clip_count": (c_uint32, [c_void_p]),
    "ossa_model_clip": (c_void_p, [c_void_p, c_uint32]),
    "ossa_model_primitive_count": (c_uint32, [c_void_p]),
    "ossa_model_primitive_info": (POINTER(ModelPrimitive), [c_void_p, c_uint32]),
    "ossa_model_primitive_streams": (ModelStreams, [c_void_p, c_uint32]),
    # clip.h
    "ossa_clip_name": (c_char_p, [c_void_p]),
    "ossa_clip_start": (c_float, [c_void_p]),
    "ossa_clip_end": (c_float, [c_void_p]),
    "ossa_clip_duration": (c_float, [c_void_p]),
    "ossa_clip_runtime_bytes": (c_size_t, [c_void_p]),
    "ossa_clip_compact_error": (c_float, [c_void_p]),
    # mix.h
    "ossa_mix_free": (None, [c_void_p]),
    "ossa_mix_layer_count": (c_uint32, [c_void_p]),
    "ossa_mix_file_warning_count": (c_uint32, [c_void_p]),
    "ossa_mix_file_warning": (POINTER(WarningStruct), [c_void_p, c_uint32]),
    "ossa_mix_file_free": (None, [c_void_p]),
    # motion.h
    "ossa_mix_file_root_motion": (c_void_p, [c_void_p]),
    # python/csrc/ossa_python.c
    "ossapy_warning_count": (c_uint32, [c_void_p]),
    "ossapy_warning": (POINTER(WarningStruct), [c_void_p, c_uint32]),
    "ossapy_skin_name": (c_char_p, [c_void_p, c_uint32]),
    "ossapy_mesh_name": (c_char_p, [c_void_p, c_uint32]),
    "ossapy_sample": (c_int, [c_void_p, c_void_p, c_void_p, c_size_t, c_int, c_void_p,
                              c_void_p, c_void_p, c_void_p, POINTER(ErrorStruct)]),
    "ossapy_mix_prepare": (c_int, [c_void_p, c_char_p, c_size_t, POINTER(c_void_p),
                                   POINTER(c_void_p), POINTER(ErrorStruct)]),
    "ossapy_mix_sample": (c_int, [c_void_p, c_void_p, c_void_p, c_void_p, c_size_t, c_void_p,
                                  c_void_p, c_void_p, c_void_p, c_void_p, POINTER(ErrorStruct)]),
    "ossapy_skin": (c_int, [c_void_p, c_uint32, c_int, c_void_p, c_void_p, c_size_t, c_void_p,
                            c_void_p, POINTER(ErrorStruct)]),
}

for _name, (_restype, _argtypes) in _PROTOTYPES.items():
    _function = getattr(lib, _name)
    _function.restype = _restype
    _function.argtypes = _argtypes
