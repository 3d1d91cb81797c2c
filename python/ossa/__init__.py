"""ossa: skeletal animation of glTF 2.0 models, exact sampling and skinning as NumPy arrays.

    import ossa
    model = ossa.load("Fox.glb")                       # or ossa.demo()
    pose = model.sample("Walk", [0.0, 0.25, 0.5])      # one call into C for every time
    pose.world                                         # (3, nodes, 3, 4) float32, glTF order
    pose.joint_matrices(0)                             # (3, joints, 3, 4): world(joint) * IBM
    positions, normals = model.skin(0, pose)           # (3, vertices, 3) float32, world space
    mixed = model.mix({"layers": [{"animation": "Walk"}, {"animation": "Run", "weight": 0.5}]},
                      [0.0, 0.25, 0.5])                # a mix file's JSON as a dict: a Pose too

The package wraps the C library of this repository (include/ossa/model.h) and adds no math:
its results are the C library's, float for float. Errors are ossa.Error, which names the file
and the JSON path. Long calls release the GIL."""

from ._error import Error
from ._mix import Mix, MixWarning
from ._model import (Animation, Model, Node, Primitive, Skin, Skinned, demo, load)
from ._pose import Pose

__all__ = ["Animation", "Error", "Mix", "MixWarning", "Model", "Node", "Pose", "Primitive",
           "Skin", "Skinned", "demo", "load"]
__version__ = "0.1.0"

for _public in (Animation, Error, Mix, MixWarning, Model, Node, Pose, Primitive, Skin, Skinned):
    _public.__module__ = __name__  # tracebacks and reprs say ossa.Error, not ossa._error.Error
del _public
