"""Every shared golden file through Python: within the golden's tolerances (as the C
conformance suites judge them), and equal bit for bit to the C library's results as
`ossa sample --json` prints them (every float, every vertex of every primitive)."""

import glob
import json
import os

import numpy as np
import pytest

import ossa
from conftest import SHARED, cli_sample, shared_path


def golden_cases():
    """(golden file, model) for every golden file and each model variant it lists."""
    cases = []
    for path in sorted(glob.glob(os.path.join(SHARED, "golden", "**", "anim*.json"),
                                 recursive=True)):
        with open(path) as f:
            golden = json.load(f)
        name = os.path.relpath(path, os.path.join(SHARED, "golden"))
        for model in [golden["model"]] + golden.get("model_variants", []):
            cases.append(pytest.param(path, model, id=f"{name}:{os.path.basename(model)}"))
    return cases


CASES = golden_cases()


def test_every_golden_file_is_found():
    # As the C suite: the corpus has 33 golden files (one lists a variant); fewer means a
    # broken path, not a pass.
    assert len(CASES) >= 34, f"found {len(CASES)} golden cases under {SHARED}"


def as_3x4(column_major):
    """glTF 4x4 column-major matrices (..., 16) as the package's 3x4 rows (..., 3, 4)."""
    m = np.asarray(column_major, np.float64).reshape(-1, 4, 4)  # [matrix, column, row]
    return m.transpose(0, 2, 1)[:, :3, :]


def assert_pose_is_the_sample(pose, i, sample, label):
    """Time i of a Pose equals a sample of `ossa sample --json` bit for bit: world matrices,
    the joint matrices of every skin, the morph weights."""
    assert np.array_equal(bits(pose.world[i]), bits(as_3x4(sample["node_world"]))), label
    assert len(sample["joint_matrices"]) == len(pose.model.skins), label
    for entry in sample["joint_matrices"]:
        ours = pose.joint_matrices(entry["skin"])[i]
        assert np.array_equal(bits(ours), bits(as_3x4(entry["matrices"]))), label
    c_weights = [w for entry in sample["morph_weights"] for w in entry["weights"]]
    assert np.array_equal(bits(pose.morph_weights[i]), bits(c_weights)), label


def check_matrices(ours, golden, tol, tol_u, what):
    """Translation within tol; 3x3 part within tol_u times the golden's scale (its largest
    column length): golden/README.md's rule, as tests/anim/anim_fixture.c applies it."""
    golden = as_3x4(golden)
    assert ours.shape == golden.shape, what
    scale = np.sqrt((golden[:, :, :3] ** 2).sum(axis=1)).max(axis=1)
    linear_tol = tol_u * np.where(scale > 0, scale, 1.0)
    linear = np.abs(ours[:, :, :3] - golden[:, :, :3]).max(axis=(1, 2))
    translation = np.abs(ours[:, :, 3] - golden[:, :, 3]).max(axis=1)
    assert np.all(linear <= linear_tol), f"{what}: 3x3 part off by {linear.max():.3g}"
    assert np.all(translation <= tol), f"{what}: translation off by {translation.max():.3g}"


def bits(array):
    return np.ascontiguousarray(array, np.float32).view(np.uint32)


@pytest.mark.parametrize("golden_path,model_name", CASES)
def test_golden(golden_path, model_name):
    with open(golden_path) as f:
        golden = json.load(f)
    tol, tol_u = golden["tolerance"], golden["tolerance_unitless"]
    model = ossa.load(shared_path(model_name))
    times = [s["time"] for s in golden["samples"]]
    pose = model.sample(golden["animation"], times)  # every time in one call
    assert pose.world.shape == (len(times), len(model.nodes), 3, 4)
    assert pose.world.dtype == np.float32
    assert (model.animations[golden["animation"]].name or "") == \
        (golden.get("animation_name") or "")  # the goldens write "" for an unnamed one

    for i, sample in enumerate(golden["samples"]):
        label = f"{golden_path} t={sample['time']}"
        check_matrices(pose.world[i], sample["node_world"], tol, tol_u, f"{label} node_world")
        assert [m["node"] for m in sample["morph_weights"]] == \
            sorted(model.morph_weight_slices), label
        for entry in sample["morph_weights"]:
            ours = pose.node_weights(entry["node"])[i]
            assert np.all(np.abs(ours - entry["weights"]) <= tol_u), f"{label} morph weights"
        assert len(sample["joint_matrices"]) == len(model.skins)
        for entry in sample["joint_matrices"]:
            check_matrices(pose.joint_matrices(entry["skin"])[i], entry["matrices"], tol, tol_u,
                           f"{label} skin {entry['skin']}")

    # Primitives: each skinned for every time in one call.
    for entry in golden["samples"][0]["primitives"]:
        primitive = model.primitive(entry["node"], entry["primitive"])
        assert primitive.mesh == entry["mesh"]
        skinned = model.skin(primitive, pose)
        for i, sample in enumerate(golden["samples"]):
            want = next(p for p in sample["primitives"]
                        if (p["node"], p["primitive"]) == (entry["node"], entry["primitive"]))
            vertices = np.asarray(want["vertices"], np.intp)
            label = f"{golden_path} t={sample['time']} node {entry['node']}"
            d = np.abs(skinned.positions[i, vertices] - np.asarray(want["positions"]))
            assert np.all(d <= tol), f"{label}: positions off by {d.max():.3g} (tol {tol})"
            assert len(want["normals"]) == (len(vertices) if primitive.has_normals else 0)
            if primitive.has_normals:
                d = np.abs(skinned.normals[i, vertices] - np.asarray(want["normals"]))
                assert np.all(d <= tol_u), f"{label}: normals off by {d.max():.3g}"
            else:
                assert skinned.normals is None


@pytest.mark.parametrize("golden_path,model_name", CASES)
def test_golden_equals_c(golden_path, model_name):
    """Python == the C library (ossa sample --json), bit for bit, at the golden's times."""
    with open(golden_path) as f:
        golden = json.load(f)
    path = shared_path(model_name)
    times = [s["time"] for s in golden["samples"]]
    c = cli_sample(path, golden["animation"], times)
    model = ossa.load(path)
    pose = model.sample(golden["animation"], times)
    assert len(c["samples"]) == len(times)
    for i, sample in enumerate(c["samples"]):
        assert_pose_is_the_sample(pose, i, sample, f"{model_name} t={sample['time']}")

    for entry in c["samples"][0]["primitives"]:
        primitive = model.primitive(entry["node"], entry["primitive"])
        skinned = model.skin(primitive, pose)
        for i, sample in enumerate(c["samples"]):
            want = next(p for p in sample["primitives"]
                        if (p["node"], p["primitive"]) == (entry["node"], entry["primitive"]))
            assert want["vertices"] == list(range(primitive.vertex_count))  # every vertex
            label = f"{model_name} t={sample['time']} node {entry['node']}"
            assert np.array_equal(bits(skinned.positions[i]), bits(want["positions"])), label
            if primitive.has_normals:
                assert np.array_equal(bits(skinned.normals[i]), bits(want["normals"])), label
