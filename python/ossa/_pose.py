"""ossa.Pose: a model's pose at one or more times, as NumPy arrays in glTF node order."""

import numbers

import numpy as np


class Pose:
    """What Model.sample, Model.mix and Model.rest_pose return, for T times (len(pose) == T).

    world: (T, nodes, 3, 4) float32, every node's world matrix (3x4 rows: x' = m[0,0] x +
    m[0,1] y + m[0,2] z + m[0,3]), glTF node order. times: (T,) float64 clocks as given.
    scalar: True when sampled at a single number (then Model.skin returns (vertices, 3)).
    root_motion: for a mix with "root_motion", (T, 7) float64, the travel of its node from
    clock 0 to each time (translation xyz, rotation quaternion xyzw; the node itself is kept in
    place), else None.
    pose[i] is the pose at times[i] alone (scalar), pose[i:j] or pose[::k] at those times
    (its arrays are views). A pose is what its model made: its attributes are read-only."""

    def __init__(self):
        raise TypeError("poses come from Model.sample, Model.mix and Model.rest_pose")

    @classmethod
    def _make(cls, model, times, scalar, world, palettes, local, weights, root_motion=None):
        self = cls.__new__(cls)
        self._model = model
        self._times = times
        self._scalar = scalar
        self._root_motion = root_motion
        self._world = world
        self._palettes = palettes  # (T, joints of every skin, 3, 4), skin after skin
        self._local = local  # (T, nodes, 10) rig order: translation, rotation xyzw, scale
        self._weights = weights  # (T, weight_total) the rig's layout
        self._morph_weights = None
        return self

    model = property(lambda self: self._model, doc="The Model that made the pose.")
    times = property(lambda self: self._times, doc="(T,) float64: the clocks, as given.")
    scalar = property(lambda self: self._scalar, doc="True for a pose of a single number.")
    world = property(lambda self: self._world, doc="(T, nodes, 3, 4) float32 world matrices.")
    root_motion = property(lambda self: self._root_motion,
                           doc="(T, 7) float64 root travel of a mix with root motion, or None.")

    def __len__(self):
        return len(self.times)

    def __getitem__(self, i):
        count = len(self.times)
        if isinstance(i, slice):
            at, scalar = i, False
        elif isinstance(i, (bool, np.bool_)) or not isinstance(i, numbers.Integral):
            raise TypeError(f"a pose is indexed by an integer or a slice, not {type(i).__name__}")
        elif -count <= i < count:  # negatives count back
            i = int(i) % count
            at, scalar = slice(i, i + 1), True
        else:
            raise IndexError(f"pose index {i} is out of range (the pose has {count} times)")
        motion = self.root_motion[at] if self.root_motion is not None else None
        return Pose._make(self.model, self.times[at], scalar, self.world[at], self._palettes[at],
                          self._local[at], self._weights[at], motion)

    def __repr__(self):
        return f"<ossa.Pose of {self.model.file!r} at {len(self)} time(s)>"

    def joint_matrices(self, skin):
        """World-space joint matrices of a skin (glTF index or Skin), world(joint) * IBM, as
        the golden files and the C library's palettes define them: a (T, joints, 3, 4) float32
        view, the skin's joint order."""
        begin, end = self.model._palette_offsets[self.model._skin(skin).index]
        return self._palettes[:, begin:end]

    @property
    def morph_weights(self):
        """(T, weights) float32: the morph weights of every node whose mesh has morph targets,
        node after node in glTF order (Model.morph_weight_slices[node] says where a node's
        are; see also node_weights)."""
        if self._morph_weights is None:
            self._morph_weights = self._weights[:, self.model._weight_index]
        return self._morph_weights

    def node_weights(self, node):
        """(T, targets) float32: the morph weights of one node (glTF index; (T, 0) for a node
        whose mesh has no morph targets)."""
        node = self.model._node(node).index
        return self.morph_weights[:, self.model.morph_weight_slices.get(node, slice(0, 0))]

    def _local_gltf(self, begin, end):
        return self._local[:, self.model._rig_from_gltf, begin:end]

    @property
    def translations(self):
        """(T, nodes, 3) float32 local translations, glTF node order (a copy: writing to it
        changes nothing)."""
        return self._local_gltf(0, 3)

    @property
    def rotations(self):
        """(T, nodes, 4) float32 local rotations, quaternions x, y, z, w, glTF node order (a
        copy)."""
        return self._local_gltf(3, 7)

    @property
    def scales(self):
        """(T, nodes, 3) float32 local scales, glTF node order (a copy)."""
        return self._local_gltf(7, 10)

    def skin(self, primitive, method="lbs", out=None):
        """Model.skin(primitive, self, method, out)."""
        return self.model.skin(primitive, self, method, out)

