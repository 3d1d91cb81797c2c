"""ossa.Model: a loaded model (the C library's ossa_model) and what it describes."""

import ctypes
import numbers
import os
import threading
import weakref
from contextlib import contextmanager
from dataclasses import dataclass
from typing import NamedTuple, Optional, Tuple

import numpy as np

from . import _lib
from ._error import Error
from ._mix import Mix
from ._pose import Pose

lib = _lib.lib


@dataclass(frozen=True)
class Node:
    """A glTF node. `parent` is -1 for roots; `mesh` and `skin` are -1 when absent."""
    index: int
    name: Optional[str]
    parent: int
    children: Tuple[int, ...]
    mesh: int
    skin: int


@dataclass(frozen=True, eq=False)
class Skin:
    """A glTF skin: its joints as glTF node indices, in the skin's joint order, and their
    inverse bind matrices, (joints, 3, 4) float32 (3x4 rows, identity when the file has none)."""
    index: int
    name: Optional[str]
    joints: np.ndarray
    inverse_bind_matrices: np.ndarray


@dataclass(frozen=True)
class Animation:
    """A glTF animation: its keys span [start, end] seconds. bytes: what sampling it reads;
    compact_error: for a model loaded with compact=True, the largest distance (model units) any
    node or skinned vertex is moved from where the plain clip puts it, else 0."""
    index: int
    name: Optional[str]
    start: float
    end: float
    duration: float
    bytes: int = 0
    compact_error: float = 0.0


@dataclass(frozen=True)
class Primitive:
    """A primitive as drawn by one node (a mesh drawn by two nodes gives two entries).

    `index` is what Model.skin takes; `node`, `mesh`, `primitive` are glTF indices; `skin` is
    the glTF skin (-1: unskinned, the node's world matrix moves it)."""
    index: int
    node: int
    mesh: int
    primitive: int
    skin: int
    vertex_count: int
    index_count: int
    mode: int
    target_count: int
    has_normals: bool
    material: int


class Skinned(NamedTuple):
    """Skinned vertices in world space, original vertex order: positions and normals are
    (vertices, 3) float32 for a pose of one time, (times, vertices, 3) otherwise; normals is
    None when the primitive has none (or when they were not asked for)."""
    positions: np.ndarray
    normals: Optional[np.ndarray]


_FLOAT32_MAX = float(np.finfo(np.float32).max)


def _index(value, what):
    """`value` as an index (a Python or NumPy integer, not a bool); TypeError otherwise, so
    that 1.7 or True never stands for an index."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{what} must be an integer index, not {type(value).__name__}")
    return int(value)


def _choice(value, choices, what):
    """`value` when it is one of the strings `choices` (a dict's keys); ValueError otherwise."""
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"{what} must be one of {', '.join(map(repr, choices))}, not {value!r}")
    return value


def _text(value):
    return value.decode("utf-8", "replace") if value is not None else None


def _array(pointer, count, dtype):
    """A copy of `count` elements at a C pointer (the model may be freed before the array)."""
    if count == 0 or not pointer:
        return np.zeros(0, dtype)
    return np.ctypeslib.as_array(pointer, shape=(count,)).astype(dtype, copy=True)


def _fspath(path):
    path = os.fspath(path)
    return path.encode() if isinstance(path, str) else path


def load(path, compact=False, compact_error=0.0):
    """Loads a .gltf or .glb file as a Model. Raises ossa.Error naming the file and the JSON
    path of what is wrong when the file is refused.

    compact=True builds the animations in compact form (reduced 16-bit keys, several times
    smaller, sampled directly; see the README's Compact clips) within compact_error, the
    largest distance in model units any node or skinned vertex may move (0: 1e-4 of the model
    size); each Animation's compact_error says what was measured."""
    if not isinstance(compact_error, numbers.Real) or isinstance(compact_error, bool):
        raise TypeError(f"compact_error must be a number, not a {type(compact_error).__name__}")
    if compact_error and not compact:
        raise Error("compact_error is given without compact=True (plain clips are exact)")
    if not 0.0 <= compact_error <= _FLOAT32_MAX:
        raise Error(f"compact_error must be a distance >= 0 that a 32-bit float holds (at most "
                    f"{_FLOAT32_MAX:.4g}), not {compact_error!r}")
    path = _fspath(path)
    document, error = ctypes.c_void_p(), _lib.ErrorStruct()
    if lib.ossa_document_load_file(path, None, ctypes.byref(document), ctypes.byref(error)):
        raise Error._from_c(error, os.path.basename(path).decode("utf-8", "replace"))
    return Model._from_document(document, compact, compact_error)


def demo(model="both"):
    """ossa's built-in demo model (a windmill and a tentacle, animations idle, gust and tick),
    generated in memory: `model` is "both", "windmill" or "tentacle"."""
    if not isinstance(model, str) or model not in _lib.DEMO_MODELS:
        raise Error(f"no demo model {model!r} (choose from {', '.join(_lib.DEMO_MODELS)})")
    desc = _lib.DemoDesc(_lib.DEMO_MODELS[model])
    document, error = ctypes.c_void_p(), _lib.ErrorStruct()
    if lib.ossa_demo_load(ctypes.byref(desc), ctypes.byref(document), ctypes.byref(error)):
        raise Error._from_c(error)
    return Model._from_document(document)


class Model:
    """A model: rig, animations and primitives, built once from a file (see ossa.load).

    Read-only: any number of threads may sample and skin it at once. Every result is in glTF
    node order. Its C memory is freed when the model (and every Pose made from it) is garbage,
    or at once with close() or a `with` block.

    Attributes: file, nodes (list of Node), parents (int32 array, -1 for roots), skins (list of
    Skin), animations (list of Animation), primitives (list of Primitive), warnings (list of
    (JSON path, message) of harmless problems found while loading), morph_weight_slices (glTF
    node -> slice of Pose.morph_weights' last axis, for nodes whose mesh has morph targets)."""

    def __init__(self):
        raise TypeError("use ossa.load(path) or ossa.demo()")

    @classmethod
    def _from_document(cls, document, compact=False, compact_error=0.0):
        """Builds the model of a loaded document, reads what only the document knows, frees
        the document."""
        self = cls.__new__(cls)
        try:
            desc = _lib.ModelDesc(dual_quaternions=1,  # DQS skinning is on offer
                                  compact_clips=int(bool(compact)), compact_error=compact_error)
            handle, error = ctypes.c_void_p(), _lib.ErrorStruct()
            if lib.ossa_model_create(document, ctypes.byref(desc), ctypes.byref(handle),
                                     ctypes.byref(error)):
                raise Error._from_c(error)
            self._handle = handle.value
            self._finalizer = weakref.finalize(self, lib.ossa_model_free, self._handle)
            self._calls = threading.Condition()  # guards _running and _closing
            self._running = 0  # calls into C under way
            self._closing = False
            self.warnings = []
            for i in range(lib.ossapy_warning_count(document)):
                w = lib.ossapy_warning(document, i).contents
                self.warnings.append((_text(w.path), _text(w.message)))
            self._describe(document)
        finally:
            lib.ossa_document_free(document)
        return self

    def _describe(self, document):
        rig = lib.ossa_model_rig(self._handle).contents
        self.file = _text(lib.ossa_model_file(self._handle))
        n = rig.node_count
        rig_from_gltf = _array(rig.rig_from_gltf, n, np.intp)
        gltf_from_rig = _array(rig.gltf_from_rig, n, np.intp)
        rig_parent = _array(rig.parent, n, np.intp)
        parent_rig = rig_parent[rig_from_gltf]
        self.parents = np.where(parent_rig < 0, -1, gltf_from_rig[parent_rig]).astype(np.int32)
        self._rig_from_gltf = rig_from_gltf
        mesh = _array(rig.mesh, n, np.int32)[rig_from_gltf]
        skin = _array(rig.skin, n, np.int32)[rig_from_gltf]
        children = [[] for _ in range(n)]
        for g, p in enumerate(self.parents.tolist()):
            if p >= 0:
                children[p].append(g)
        self.nodes = [Node(g, _text(rig.names[rig_from_gltf[g]]), int(self.parents[g]),
                           tuple(children[g]), int(mesh[g]), int(skin[g])) for g in range(n)]

        self.skins = []
        offset = 0
        self._palette_offsets = []
        for s in range(rig.skin_count):
            rs = rig.skins[s]
            joints = gltf_from_rig[_array(rs.joints, rs.joint_count, np.intp)].astype(np.int32)
            ibm = _array(rs.inverse_bind, 12 * rs.joint_count, np.float32).reshape(-1, 3, 4)
            self.skins.append(Skin(s, _text(lib.ossapy_skin_name(document, s)), joints, ibm))
            self._palette_offsets.append((offset, offset + rs.joint_count))
            offset += rs.joint_count
        self._palette_joints = offset

        self._node_count = n
        self._weight_total = rig.weight_total
        weight_offset = _array(rig.weight_offset, n, np.intp)[rig_from_gltf]
        weight_count = _array(rig.weight_count, n, np.intp)[rig_from_gltf]
        # Pose.morph_weights lists each node's weights in glTF node order: index into the rig's
        # layout, and where each node's run starts.
        self._weight_index = np.concatenate(
            [np.arange(o, o + c) for o, c in zip(weight_offset, weight_count)] +
            [np.zeros(0, np.intp)]).astype(np.intp)
        starts = np.concatenate([[0], np.cumsum(weight_count)])
        self.morph_weight_slices = {g: slice(int(starts[g]), int(starts[g + 1]))
                                    for g in range(n) if weight_count[g]}

        self._clips = [lib.ossa_model_clip(self._handle, k)
                       for k in range(lib.ossa_model_clip_count(self._handle))]
        self.animations = [Animation(k, _text(lib.ossa_clip_name(c)), lib.ossa_clip_start(c),
                                     lib.ossa_clip_end(c), lib.ossa_clip_duration(c),
                                     lib.ossa_clip_runtime_bytes(c),
                                     lib.ossa_clip_compact_error(c))
                           for k, c in enumerate(self._clips)]

        self.primitives = []
        for i in range(lib.ossa_model_primitive_count(self._handle)):
            p = lib.ossa_model_primitive_info(self._handle, i).contents
            self.primitives.append(Primitive(
                i, int(gltf_from_rig[p.node]), p.mesh, p.primitive, p.skin, p.vertex_count,
                p.index_count, p.mode, p.target_count, bool(p.has_normals), p.material))

    # -- lifetime ---------------------------------------------------------------------------

    def close(self):
        """Frees the C model now: calls made from now on raise ossa.Error, calls other threads
        have under way are waited for. Poses made from it can no longer be skinned."""
        with self._calls:
            self._closing = True  # calls from now on are refused; those under way finish
            while self._running:
                self._calls.wait()
            self._finalizer()

    @property
    def closed(self):
        return not self._finalizer.alive

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    @contextmanager
    def _using(self):
        """The C model's handle for one call into C (which releases the GIL): close() waits
        until every such call has returned."""
        with self._calls:
            if self._closing or not self._finalizer.alive:
                raise Error("the model is closed", self.file)
            self._running += 1
        try:
            yield self._handle
        finally:
            with self._calls:
                self._running -= 1
                if not self._running:
                    self._calls.notify_all()

    def __repr__(self):
        return (f"<ossa.Model {self.file!r}: {len(self.nodes)} nodes, {len(self.skins)} skins, "
                f"{len(self.animations)} animations, {len(self.primitives)} primitives>")

    # -- lookups ----------------------------------------------------------------------------

    def find_node(self, name):
        """glTF index of the node with this name; ossa.Error when none or several have it."""
        found = [n.index for n in self.nodes if n.name == name]
        if len(found) != 1:
            raise Error(f"{'no' if not found else len(found)} nodes named {name!r}", self.file,
                        "nodes")
        return found[0]

    def animation(self, animation):
        """An Animation by glTF index, by name (the first with it), or as given (one of this
        model's)."""
        if isinstance(animation, str):
            for a in self.animations:
                if a.name == animation:
                    return a
            raise Error(f"no animation named {animation!r}", self.file, "animations")
        return self._item(self.animations, Animation, animation, "animation")

    def primitive(self, node, primitive=0):
        """The Primitive that node `node` (glTF index, name or Node) draws as its mesh's
        primitive `primitive` (an index into the mesh's primitives)."""
        node = self.find_node(node) if isinstance(node, str) else self._node(node).index
        primitive = _index(primitive, "primitive")
        for p in self.primitives:
            if p.node == node and p.primitive == primitive:
                return p
        raise Error(f"node {node} draws no primitive {primitive}", self.file, f"nodes[{node}]")

    def primitive_indices(self, primitive):
        """The primitive's vertex indices (uint32), None when it is not indexed."""
        p = self._primitive(primitive)
        with self._using() as handle:
            streams = lib.ossa_model_primitive_streams(handle, p.index)
            if not p.index_count:
                return None
            return _array(streams.indices, p.index_count, np.uint32)

    def _primitive(self, primitive):
        return self._item(self.primitives, Primitive, primitive, "primitive")

    def _skin(self, skin):
        return self._item(self.skins, Skin, skin, "skin")

    def _node(self, node):
        return self._item(self.nodes, Node, node, "node")

    def _item(self, items, kind, item, what):
        """One of `items` by index or as given: TypeError for what is neither, ossa.Error for
        an index out of range or an item of another model (even of the same file: its index
        would mean another one)."""
        if isinstance(item, kind):
            if item.index < len(items) and items[item.index] is item:
                return item
            raise Error(f"the {what} is not from this model (use this model's {what}s)",
                        self.file)
        index = _index(item, f"{what} (an index or {kind.__name__})")
        if not 0 <= index < len(items):
            raise Error(f"there is no {what} {index} (the model has {len(items)})", self.file)
        return items[index]

    # -- sampling ---------------------------------------------------------------------------

    def _outputs(self, times):
        """The clocks of `times` (float64) and empty arrays for what the C helpers write: world,
        palettes, local transforms and morph weights of every time."""
        given = np.atleast_1d(np.asarray(times))
        if given.dtype.kind not in "iuf":
            raise TypeError(f"times must be numbers (seconds), not {given.dtype} values")
        clocks = np.ascontiguousarray(given, dtype=np.float64)
        if clocks.ndim != 1:
            raise ValueError("times must be a number or a sequence of numbers")
        bad = np.flatnonzero(~np.isfinite(clocks))
        if len(bad):
            raise Error(f"a time must be finite, not {clocks[bad[0]]}", path=f"times[{bad[0]}]")
        count = len(clocks)
        return clocks, (np.empty((count, self._node_count, 3, 4), np.float32),
                        np.empty((count, self._palette_joints, 3, 4), np.float32),
                        np.empty((count, max(self._node_count, 1), _lib.TRS_FLOATS), np.float32),
                        np.empty((count, max(self._weight_total, 1)), np.float32))

    def _pose(self, clocks, times, outputs, root_motion=None):
        world, palettes, local, weights = outputs
        return Pose._make(self, clocks, np.ndim(times) == 0, world, palettes, local,
                          weights[:, :self._weight_total], root_motion)

    def _run_sample(self, clip, times, wrap):
        _choice(wrap, _lib.WRAPS, "wrap")
        clocks, outputs = self._outputs(times)
        error = _lib.ErrorStruct()
        with self._using() as handle:
            if lib.ossapy_sample(handle, clip, clocks.ctypes.data, len(clocks),
                                 _lib.WRAPS[wrap], *(a.ctypes.data for a in outputs),
                                 ctypes.byref(error)):
                raise Error._from_c(error, self.file)
        return self._pose(clocks, times, outputs)

    def sample(self, animation, times, wrap="clamp"):
        """Plays an animation (glTF index, name or Animation) at `times` (seconds: a number or
        a sequence), all in one call into C, and returns a Pose.

        wrap: "clamp" (times outside [start, end] hold the first / last keys, as the golden
        files and `ossa sample` do), "loop" or "ping_pong"."""
        animation = self.animation(animation)
        return self._run_sample(self._clips[animation.index], times, wrap)

    def rest_pose(self):
        """The rest pose (the nodes' own transforms and default morph weights) as a Pose of
        one time."""
        return self._run_sample(None, 0.0, "clamp")

    # -- mixing ---------------------------------------------------------------------------

    def prepare_mix(self, mix):
        """Reads a mix for this model and prepares it once, as an ossa.Mix to play at any
        times (Model.mix). `mix` is a mix file's JSON as a dict (see the README's Mixing
        section and include/ossa/mix.h), e.g. {"layers": [{"animation": "Walk"}, {"animation":
        "Run", "weight": [[1.0, 0], [1.5, 1]]}]}; NumPy numbers and arrays and tuples are
        taken as JSON numbers and arrays, integer keys (a mask's "indices") as their digits.

        A dict is read by the C library's mix file reader, as strictly as a file: a bad value
        raises ossa.Error with its JSON path (e.g. ``layers[1].mask.nodes.Spine``); unknown
        keys and ignored values are warnings, issued as ossa.MixWarning and kept in
        Mix.warnings."""
        return Mix._prepare(self, mix, stacklevel=2)

    def mix(self, mix, times):
        """Plays a mix at `times` (seconds of the mix clock: a number or a sequence), all in one
        call into C, and returns a Pose, as Model.sample does. `mix` is a dict (read as
        Model.prepare_mix reads it, every call) or an ossa.Mix prepared for this model.

        A mix is stateless: each time is sampled on its own, in any order, with the rules of
        include/ossa/mix.h (per layer: weight curve, clock mapping with its own wrap, mask,
        normal or additive mode, sync groups), then its "root_motion" (that node kept in place,
        its travel since clock 0 in Pose.root_motion) and its "ik" entries, in order: the
        poses `ossa sample --mix` writes. Each time's root motion is composed from clock 0 in
        1/60 s steps (ossa_mix_root_motion), so its cost grows with the clock: on Fox, for a
        time a day from 0, 0.02 s with one layer moving the root and 3 s with two (AMD Zen
        5); clocks past 1e8 steps (19 days) are refused. To follow a character for hours,
        step the C library's mix player instead."""
        if not isinstance(mix, Mix):
            mix = Mix._prepare(self, mix, stacklevel=2)
        elif mix.model is not self:
            raise Error("the mix was prepared for another model", self.file)
        clocks, outputs = self._outputs(times)
        motion = np.zeros((len(clocks), 7)) if mix.root_motion else None
        error = _lib.ErrorStruct()
        with self._using() as handle:
            if lib.ossapy_mix_sample(handle, mix._file, mix._handle, clocks.ctypes.data,
                                     len(clocks), *(a.ctypes.data for a in outputs),
                                     motion.ctypes.data if motion is not None else None,
                                     ctypes.byref(error)):
                raise Error._from_c(error)  # about the times, not the model's file
        return self._pose(clocks, times, outputs, motion)

    # -- skinning ---------------------------------------------------------------------------

    def skin(self, primitive, pose, method="lbs", out=None):
        """Morphs and skins a primitive (index or Primitive) for every time of a pose, in one
        call into C. Returns Skinned(positions, normals), world-space vertices in the file's
        vertex order: (vertices, 3) float32 each for a pose of one time (sampled at a single
        number, or pose[i]), (times, vertices, 3) otherwise.

        method: "lbs" (linear blend) or "dqs" (dual quaternion).
        out: (positions, normals) float32 C-contiguous arrays of those shapes to fill in place;
        normals may be None to skip them."""
        p = self._primitive(primitive)
        if not isinstance(pose, Pose) or pose.model is not self:
            raise Error("the pose was not made by this model", self.file)
        _choice(method, _lib.SKIN_MODES, "method")
        # A slice with a step (pose[::2]) has strided rows: C reads them packed.
        local = np.ascontiguousarray(pose._local)
        weights = np.ascontiguousarray(pose._weights)
        count = len(local)
        shape = (p.vertex_count, 3) if pose.scalar else (count, p.vertex_count, 3)
        if out is None:
            positions = np.empty(shape, np.float32)
            normals = np.empty(shape, np.float32) if p.has_normals else None
        else:
            positions, normals = out
            _check_out("positions", positions, shape)
            if normals is not None:
                _check_out("normals", normals, shape)
                if not p.has_normals:
                    raise Error(f"primitive {p.index} has no normals", self.file,
                                f"meshes[{p.mesh}].primitives[{p.primitive}]")
        error = _lib.ErrorStruct()
        with self._using() as handle:
            if lib.ossapy_skin(handle, p.index, _lib.SKIN_MODES[method],
                               local.ctypes.data, weights.ctypes.data, count,
                               positions.ctypes.data,
                               normals.ctypes.data if normals is not None else None,
                               ctypes.byref(error)):
                raise Error._from_c(error, self.file)
        return Skinned(positions, normals)


def _check_out(name, array, shape):
    if not isinstance(array, np.ndarray) or array.dtype != np.float32 or \
            array.shape != shape or not array.flags.c_contiguous or not array.flags.writeable:
        raise ValueError(f"out {name} must be a writeable C-contiguous float32 array of shape "
                         f"{shape}")
