"""Refusals: ossa.Error carries the file, the JSON path and the message the C library gives;
every case of ../shared/invalid behaves in Python as in `ossa info` (refused with the same
words, or loaded with the same warnings)."""

import glob
import os

import numpy as np
import pytest

import ossa
from conftest import SHARED, run_cli, shared_path


def test_bad_file_raises_with_path():
    path = shared_path("invalid", "validator", "animation_data", "invalid_input_values.gltf")
    with pytest.raises(ossa.Error) as caught:
        ossa.load(path)
    e = caught.value
    assert e.file == "invalid_input_values.gltf"
    assert e.path == "animations[0].samplers[0].input"
    assert e.message == "key time t[0] = -1 is negative"
    assert e.kind == "invalid glTF"
    assert str(e) == f"{e.file}: {e.path}: {e.message}"


def test_missing_file_raises_with_file():
    with pytest.raises(ossa.Error) as caught:
        ossa.load(os.path.join(SHARED, "no-such-model.glb"))
    assert caught.value.file == "no-such-model.glb"
    assert caught.value.kind == "file error"
    assert caught.value.message


def invalid_cases():
    found = sorted(glob.glob(os.path.join(SHARED, "invalid", "**", "*.gl*"), recursive=True))
    return [pytest.param(p, id=os.path.relpath(p, SHARED)) for p in found
            if p.endswith((".gltf", ".glb"))]


CASES = invalid_cases()


def test_every_invalid_case_is_found():
    assert len(CASES) >= 130, f"found {len(CASES)} cases under {SHARED}/invalid"


@pytest.mark.parametrize("path", CASES)
def test_invalid_case_as_the_cli(path):
    code, _, err = run_cli("info", path)
    # the CLI names the file as it was given, the library by its base name
    lines = [line.replace(f": {path}: ", f": {os.path.basename(path)}: ", 1)
             for line in err.splitlines()]
    if code == 1:
        errors = [line[len("error: "):] for line in lines if line.startswith("error: ")]
        assert len(errors) == 1, err
        with pytest.raises(ossa.Error) as caught:
            ossa.load(path)
        assert str(caught.value) == errors[0]
        assert caught.value.file == os.path.basename(path)
    else:
        assert code == 0, err
        model = ossa.load(path)
        warnings = [line for line in lines if line.startswith("warning: ")]
        ours = ["warning: " + ": ".join(part for part in (model.file, p, m) if part)
                for p, m in model.warnings]
        assert ours == warnings
        model.rest_pose()  # a loaded model can be used


def test_argument_errors(fox):
    with pytest.raises(ossa.Error) as caught:
        fox.sample("NoSuchAnimation", 0.0)
    assert caught.value.file == "Fox.glb" and caught.value.path == "animations"
    with pytest.raises(ossa.Error, match="there is no animation 7"):
        fox.sample(7, 0.0)
    with pytest.raises(ossa.Error, match="no primitive"):
        fox.skin(99, fox.rest_pose())
    with pytest.raises(ossa.Error, match="not made by this model"):
        fox.skin(0, ossa.demo().rest_pose())
    with pytest.raises(ValueError):
        fox.sample(0, [[0.0, 1.0]])
    with pytest.raises(ValueError):
        fox.sample(0, 0.0, wrap="bounce")
    with pytest.raises(ValueError):
        fox.skin(0, fox.rest_pose(), method="quaternions")
    with pytest.raises(ValueError, match="out positions"):
        fox.skin(0, fox.rest_pose(), out=(np.empty((3, 3), np.float32), None))


def test_objects_of_another_model_are_refused(fox):
    # Same file, another load: its Animation, Primitive, Skin and Node must not stand for
    # this model's by index.
    other = ossa.load(shared_path("models", "Fox", "Fox.glb"))
    pose = fox.rest_pose()
    with pytest.raises(ossa.Error, match="the animation is not from this model"):
        fox.sample(other.animations[1], 0.0)
    with pytest.raises(ossa.Error, match="the primitive is not from this model"):
        fox.skin(other.primitives[0], pose)
    with pytest.raises(ossa.Error, match="the skin is not from this model"):
        pose.joint_matrices(other.skins[0])
    with pytest.raises(ossa.Error, match="the node is not from this model"):
        pose.node_weights(other.nodes[0])
    # this model's own objects are taken
    assert fox.sample(fox.animations[1], 0.5).world.shape[0] == 1
    assert pose.joint_matrices(fox.skins[0]).shape == (1, len(fox.skins[0].joints), 3, 4)


def test_indices_are_integers_in_range(fox):
    pose = fox.sample(0, [0.0, 0.5, 1.0])
    for bad in (1.7, True, np.float32(1.0), None):
        with pytest.raises(TypeError, match="integer index"):
            fox.sample(bad, 0.0)
        with pytest.raises(TypeError, match="integer index"):
            pose.joint_matrices(bad)
        with pytest.raises(TypeError, match="integer index"):
            fox.skin(bad, pose)
    assert fox.sample(np.int64(1), 0.5).world.shape == (1, len(fox.nodes), 3, 4)
    for call, what in ((lambda: pose.joint_matrices(-1), "there is no skin -1"),
                       (lambda: pose.joint_matrices(1), r"there is no skin 1 \(the model has 1\)"),
                       (lambda: pose.node_weights(999), "there is no node 999"),
                       (lambda: pose.node_weights(-1), "there is no node -1"),
                       (lambda: fox.sample(-1, 0.0), "there is no animation -1"),
                       (lambda: fox.skin(-1, pose), "there is no primitive -1")):
        with pytest.raises(ossa.Error, match=what):
            call()


@pytest.mark.parametrize("time", [np.nan, np.inf, -np.inf])
def test_times_must_be_finite(fox, time):
    for call in (lambda: fox.sample(0, [0.0, time]),
                 lambda: fox.mix({"layers": [{"animation": 0}]}, [0.0, time])):
        with pytest.raises(ossa.Error, match=r"times\[1\]: a time must be finite"):
            call()


def test_pose_slices(fox):
    times = [0.0, 0.25, 0.5, 0.75]
    pose = fox.sample(1, times)
    part = pose[1:3]
    assert len(part) == 2 and not part.scalar and part.times.tolist() == times[1:3]
    assert np.array_equal(part.world, pose.world[1:3])
    assert np.array_equal(fox.skin(0, part).positions, fox.skin(0, pose).positions[1:3])
    assert pose[::2].times.tolist() == [0.0, 0.5] and pose[-1].scalar
    with pytest.raises(IndexError):
        pose[4]


def test_pose_slices_with_steps_skin_their_own_times(fox):
    times = np.linspace(0.0, 3.0, 40)
    pose = fox.sample(1, times)
    every = fox.skin(0, pose)
    for step in (slice(None, None, 2), slice(None, None, -1), slice(5, 30, 7)):
        part = fox.skin(0, pose[step])
        assert np.array_equal(part.positions, every.positions[step]), step
    cesium = ossa.load(shared_path("models", "CesiumMan", "glTF-Binary", "CesiumMan.glb"))
    pose = cesium.sample(0, times)
    every = cesium.skin(0, pose)
    part = cesium.skin(0, pose[::-3])
    assert np.array_equal(part.positions, every.positions[::-3])
    assert np.array_equal(part.normals, every.normals[::-3])


def test_poses_are_made_by_models_only(fox):
    with pytest.raises(TypeError, match="poses come from Model.sample"):
        ossa.Pose()
    pose = fox.sample(0, [0.1])
    for name in ("times", "model", "scalar", "world", "root_motion"):
        with pytest.raises(AttributeError):
            setattr(pose, name, None)


def test_lookups_take_integers_and_this_models_objects(fox):
    pose = fox.sample(0, [0.0, 0.5])
    for bad in (True, 1.0):
        with pytest.raises(TypeError, match="integer index"):
            fox.primitive(bad)
        with pytest.raises(TypeError, match="integer index"):
            fox.primitive(fox.primitives[0].node, bad)
    with pytest.raises(TypeError, match="integer or a slice"):
        pose[True]
    with pytest.raises(IndexError, match=r"pose index 5 is out of range \(the pose has 2 "):
        pose[5]
    node = fox.nodes[fox.primitives[0].node]
    assert fox.primitive(node) is fox.primitives[0]
    assert fox.primitive(node.index) is fox.primitives[0]


@pytest.mark.parametrize("times", [None, "0.5", [0.1, None], [1j], [True, False]])
def test_times_must_be_numbers(fox, times):
    with pytest.raises(TypeError, match="times must be numbers"):
        fox.sample(0, times)


def test_choices_are_strings(fox):
    with pytest.raises(ValueError, match="wrap must be one of"):
        fox.sample(0, 0.0, wrap=[])
    with pytest.raises(ValueError, match="method must be one of"):
        fox.skin(0, fox.rest_pose(), method=[])
    with pytest.raises(ossa.Error, match="no demo model"):
        ossa.demo([])


def test_compact_error_is_a_float32_distance():
    fox = shared_path("models", "Fox", "Fox.glb")
    for bad in (1e40, -1.0, float("nan"), float("inf")):
        with pytest.raises(ossa.Error, match="compact_error must be a distance >= 0 that a "
                                             "32-bit float holds"):
            ossa.load(fox, compact=True, compact_error=bad)
    for bad in ("1", None, True):
        with pytest.raises(TypeError, match="compact_error must be a number"):
            ossa.load(fox, compact=True, compact_error=bad)
    assert ossa.load(fox, compact=True, compact_error=np.float64(0.5)).animations
    with pytest.raises(ossa.Error, match="without compact=True"):
        ossa.load(fox, compact_error=0.5)


def test_closed_model_refuses():
    model = ossa.demo()
    pose = model.rest_pose()
    model.close()
    assert model.closed
    with pytest.raises(ossa.Error, match="closed"):
        model.sample(0, 0.0)
    with pytest.raises(ossa.Error, match="closed"):
        pose.skin(0)
    model.close()  # twice is allowed
