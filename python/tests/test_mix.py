"""Model.mix: a mix file's JSON as a dict, played in one call into C.

A one-layer mix of weight 1 is plain sampling (as tests/mix/test_mix_rules.c asserts it:
translations, scales and morph weights exactly, rotations to float rounding); every mix of
docs/mixes/ on Fox equals `ossa sample --mix FILE --json` bit for bit (poses, palettes, skinned
vertices); a dict is read as strictly as a file (the same refusals with the same JSON paths, the
same warnings as the ossa command prints for that dict written to a file)."""

import json
import os
import threading
import warnings

import numpy as np
import pytest

import ossa
from conftest import ROOT, cli_sample, run_cli, shared_path
from test_golden import assert_pose_is_the_sample, bits

# The mixes of docs/mixes written for Fox (the others name another model's nodes).
MIX_FILES = [os.path.join(ROOT, "docs", "mixes", name)
             for name in ("fox_masked_additive.json", "walk_run.json")]
# Clocks around every weight point of docs/mixes (1.0 and 1.5), before 0 and past a cycle.
CLOCKS = [-0.3, 0.0, 0.37, 0.999, 1.0, 1.2, 1.25, 1.5, 2.2, 3.7, 11.0]


def mix_file(path):
    with open(path) as f:
        return json.load(f)


# -- one layer is plain sampling ----------------------------------------------------------------

ONE_LAYER_MODELS = ["models/Fox/Fox.glb", "models/CesiumMan/glTF-Binary/CesiumMan.glb",
                    "models/BlenderAllAnimations/03_all_animations.gltf",
                    "models/BlenderAnimatedCube/03_animated_cube.gltf",
                    "models/AnimatedMorphCube/AnimatedMorphCube.gltf"]


@pytest.mark.parametrize("relative", ONE_LAYER_MODELS)
def test_one_layer_of_weight_1_is_sample(relative):
    model = ossa.load(shared_path(*relative.split("/")))
    assert model.animations
    for animation in model.animations:
        # The C suite's clocks, in float as it computes them: start + duration * f / 7.
        f = np.arange(7, dtype=np.float32)
        times = np.float32(animation.start) + np.float32(animation.duration) * f / np.float32(7)
        times = times.astype(np.float64)
        want = model.sample(animation.index, times)
        got = model.mix({"layers": [{"animation": animation.index}]}, times)
        label = f"{relative} animation {animation.index}"
        assert got.world.shape == want.world.shape and got.world.dtype == np.float32
        # == as in C: a -0 key may come out as 0.
        assert np.array_equal(got.translations, want.translations), label
        assert np.array_equal(got.scales, want.scales), label
        assert np.array_equal(got.morph_weights, want.morph_weights), label
        assert np.abs(got.rotations - want.rotations).max() <= 3e-7, label  # renormalised
        # World matrices and palettes follow the rotations, to float rounding of the model's
        # size (its largest world translation, Fox is ~100 units).
        size = max(1.0, float(np.abs(want.world[..., 3]).max()))
        assert np.abs(got.world - want.world).max() <= 1e-5 * size, label
        for skin in model.skins:
            d = np.abs(got.joint_matrices(skin) - want.joint_matrices(skin)).max()
            assert d <= 1e-5 * size, label


def test_one_layer_by_name_and_index_agree(fox):
    by_name = fox.mix({"layers": [{"animation": "Run"}]}, CLOCKS)
    by_index = fox.mix({"layers": [{"animation": fox.animation("Run").index}]}, CLOCKS)
    assert np.array_equal(bits(by_name.world), bits(by_index.world))


# -- the ossa command, bit for bit --------------------------------------------------------------

def test_the_mix_files_are_found():
    names = [os.path.basename(p) for p in MIX_FILES]
    assert "walk_run.json" in names and "fox_masked_additive.json" in names, MIX_FILES


@pytest.mark.parametrize("path", MIX_FILES, ids=os.path.basename)
def test_mix_equals_the_ossa_command(fox, path):
    fox_path = shared_path("models", "Fox", "Fox.glb")
    c = cli_sample(fox_path, None, CLOCKS, mix=path)
    pose = fox.mix(mix_file(path), CLOCKS)  # every clock in one call
    assert c["mix"] == path and len(c["samples"]) == len(CLOCKS)
    for i, sample in enumerate(c["samples"]):
        assert sample["time"] == CLOCKS[i]
        assert_pose_is_the_sample(pose, i, sample, f"{os.path.basename(path)} t={sample['time']}")
    # The mixed pose skins as the command skins it: every vertex of every primitive.
    assert c["samples"][0]["primitives"]
    for entry in c["samples"][0]["primitives"]:
        primitive = fox.primitive(entry["node"], entry["primitive"])
        skinned = fox.skin(primitive, pose)
        for i, sample in enumerate(c["samples"]):
            want = next(p for p in sample["primitives"]
                        if (p["node"], p["primitive"]) == (entry["node"], entry["primitive"]))
            assert want["vertices"] == list(range(primitive.vertex_count))
            assert np.array_equal(bits(skinned.positions[i]), bits(want["positions"]))
            if primitive.has_normals:
                assert np.array_equal(bits(skinned.normals[i]), bits(want["normals"]))
            else:
                assert skinned.normals is None and want["normals"] == []


def test_root_motion_and_ik_as_the_ossa_command():
    # docs/mixes/walk_slope_look.json on CesiumMan: the root kept in place with its travel in
    # Pose.root_motion, the feet on a slope and the head aimed, as `ossa sample --mix` has them.
    path = os.path.join(ROOT, "docs", "mixes", "walk_slope_look.json")
    model_path = shared_path("models", "CesiumMan", "glTF-Binary", "CesiumMan.glb")
    model = ossa.load(model_path)
    c = cli_sample(model_path, None, CLOCKS, mix=path)
    mix = model.prepare_mix(mix_file(path))
    pose = mix.sample(CLOCKS)
    assert mix.root_motion and pose.root_motion.shape == (len(CLOCKS), 7)
    for i, sample in enumerate(c["samples"]):
        assert_pose_is_the_sample(pose, i, sample, f"t={sample['time']}")
        motion = sample["root_motion"]
        assert pose.root_motion[i].tolist() == motion["translation"] + motion["rotation"]
    assert pose[2:4].root_motion.tolist() == pose.root_motion[2:4].tolist()
    # ... and the root motion and the IK entries change the pose (the comparison above would
    # pass if neither were applied by either side).
    plain = model.mix({"layers": mix_file(path)["layers"]}, CLOCKS)
    assert plain.root_motion is None
    root = model.find_node("Skeleton_torso_joint_1")
    assert not np.allclose(plain.world[:, root], pose.world[:, root], atol=1e-3)
    for name in ("leg_joint_L_3", "Skeleton_neck_joint_2"):
        node = model.find_node(name)
        assert not np.allclose(plain.world[:, node, :, :3], pose.world[:, node, :, :3],
                               atol=1e-3), name


def test_the_mixes_differ_from_their_first_layer(fox):
    # The comparison above would pass for a mix that played its first layer only.
    for path in MIX_FILES:
        mix = mix_file(path)
        first = fox.mix({"layers": mix["layers"][:1]}, CLOCKS)
        assert not np.array_equal(fox.mix(mix, CLOCKS).world, first.world), path


# -- what a dict may hold ----------------------------------------------------------------------

def test_numpy_values_and_tuples_are_json(fox):
    plain = {"threshold": 0.1, "layers": [
        {"animation": "Walk", "weight": [[0, 1], [1.0, 1], [1.5, 0]], "sync": "legs"},
        {"animation": "Run", "weight": [[1.0, 0], [1.5, 1]], "sync": "legs"},
        {"animation": "Survey", "mask": {"default": 0, "indices": {"4": 1}}, "speed": 0.5}]}
    numpy = {"threshold": np.float32(0.1), "layers": (
        {"animation": "Walk", "weight": np.array([[0, 1], [1.0, 1], [1.5, 0]]), "sync": "legs"},
        {"animation": np.int64(fox.animation("Run").index),
         "weight": [(np.float64(1.0), np.int32(0)), (1.5, 1)], "sync": "legs"},
        {"animation": "Survey", "mask": {"default": 0, "indices": {np.int64(4): 1}},
         "speed": np.float64(0.5)})}
    a, b = fox.mix(plain, CLOCKS), fox.mix(numpy, CLOCKS)
    assert not np.array_equal(a.world, fox.mix({"layers": plain["layers"][:2]}, CLOCKS).world)
    # The C library keeps the threshold as a float: float32(0.1) and 0.1 are the same 0.1f.
    assert np.array_equal(bits(a.world), bits(b.world))
    assert np.array_equal(bits(a.morph_weights), bits(b.morph_weights))


# -- refusals: ossa.Error with the JSON path, as the ossa command refuses the same file ----------

BAD_MIXES = [
    ({}, "", 'a mix file needs "layers"'),
    ({"layers": "Walk"}, "layers", "must be an array of layers"),
    ({"threshold": -0.5, "layers": []}, "threshold", "must be >= 0"),
    ({"layers": [{"weight": 1}]}, "layers[0]", 'a layer needs an "animation" (index or name)'),
    ({"layers": [{"animation": "Sprint"}]}, "layers[0].animation",
     'the model has no animation named "Sprint"'),
    ({"layers": [{"animation": 1}, {"animation": 9}]}, "layers[1].animation",
     "there is no animation 9 (the model has 3)"),
    ({"layers": [{"animation": "Walk", "weight": [[0, 1], [0, 0]]}]}, "layers[0].weight[1][0]",
     "times must increase strictly (0 after 0)"),
    ({"layers": [{"animation": "Walk", "weight": -1}]}, "layers[0].weight", "must be >= 0"),
    ({"layers": [{"animation": "Walk", "weight": 1e7}]}, "layers[0].weight", "must be at most 1e6"),
    ({"layers": [{"animation": "Walk", "weight": True}]}, "layers[0].weight",
     "must be a number or a non-empty array of [time, weight]"),
    ({"layers": [{"animation": "Walk", "wrap": "bounce"}]}, "layers[0].wrap",
     '"bounce" is not one of "loop", "clamp", "ping-pong"'),
    ({"layers": [{"animation": "Walk", "mask": {"nodes": {"Spine": 1}}}]},
     "layers[0].mask.nodes.Spine", 'the model has no node named "Spine"'),
    ({"layers": [{"animation": "Walk", "mask": {"indices": {99: 1}}}]},
     "layers[0].mask.indices.99", "there is no node 99 (the model has 26)"),
    ({"layers": [{"animation": "Walk", "mask": {"indices": {"4": 1}, "nodes": {}}},
                 {"animation": "Run", "mode": "additive", "reference": "later"}]},
     "layers[1].reference", '"later" is not one of "start", "rest"'),
    ({"layers": [{"animation": "Walk", "sync": ""}]}, "layers[0].sync",
     "a sync group needs a name"),
]


@pytest.mark.parametrize("mix,path,message", BAD_MIXES, ids=lambda v: None)
def test_bad_dict_raises_with_the_path_as_the_command(fox, tmp_path, mix, path, message):
    with pytest.raises(ossa.Error) as caught:
        fox.mix(mix, 0.5)
    e = caught.value
    assert (e.path, e.message) == (path, message)
    assert e.file == ""  # the mix is a value, not a file
    assert e.kind == "invalid glTF"  # OSSA_ERROR_INVALID, the code of a bad value
    assert str(e) == (f"{path}: {message}" if path else message)
    with pytest.raises(ossa.Error) as again:
        fox.prepare_mix(mix)
    assert str(again.value) == str(e)
    # The same dict as a file: the command refuses it with the same path and words.
    file = tmp_path / "bad.json"
    file.write_text(json.dumps(mix))
    code, _, err = run_cli("sample", shared_path("models", "Fox", "Fox.glb"), "--mix",
                           str(file), "--time", "0.5")
    assert code == 1
    assert err.splitlines()[-1] == f"error: {file}: {e}"  # the path as given


# What JSON text cannot carry is refused before the C reader, with the same kind of path.
PYTHON_ONLY = [
    ({"layers": [{"animation": "Walk", "speed": float("inf")}]}, "layers[0].speed",
     "must be a finite number"),
    ({"layers": [{"animation": "Walk", "weight": [[0, 1], [1, np.nan]]}]},
     "layers[0].weight[1][1]", "must be a finite number"),
    ({"layers": [{"animation": "Walk", "offset": {1, 2}}]}, "layers[0].offset",
     "a set is not a JSON value"),
    ({"layers": [{"animation": "Walk", "mask": {"indices": {4: 1, "4": 0}}}]},
     "layers[0].mask.indices", "the key '4' is given twice"),
    ({"layers": [{"animation": "Walk", "mask": {"nodes": {("b", 1): 1}}}]},
     "layers[0].mask.nodes", "the key ('b', 1) is not a string"),
]


@pytest.mark.parametrize("mix,path,message", PYTHON_ONLY, ids=lambda v: None)
def test_values_json_cannot_hold_raise_with_the_path(fox, mix, path, message):
    with pytest.raises(ossa.Error) as caught:
        fox.mix(mix, 0.5)
    assert (caught.value.path, caught.value.message) == (path, message)


def test_wrong_arguments(fox):
    with pytest.raises(TypeError, match="a mix is a dict"):
        fox.mix('{"layers": []}', 0.5)
    with pytest.raises(ossa.Error, match=r"times\[1\]: a time must be finite, not nan"):
        fox.mix({"layers": [{"animation": "Walk"}]}, [0.0, np.nan])
    with pytest.raises(ValueError):
        fox.mix({"layers": [{"animation": "Walk"}]}, [[0.0, 1.0]])
    other = ossa.load(shared_path("models", "Fox", "Fox.glb"))
    with pytest.raises(ossa.Error, match="prepared for another model"):
        fox.mix(other.prepare_mix({"layers": [{"animation": "Walk"}]}), 0.5)
    mix = other.prepare_mix({"layers": [{"animation": "Walk"}]})
    other.close()
    with pytest.raises(ossa.Error, match="closed"):
        mix.sample(0.5)
    with pytest.raises(ossa.Error, match="closed"):
        other.prepare_mix({"layers": [{"animation": "Walk"}]})


# -- warnings: the C reader's, as the command prints them ---------------------------------------

def test_warnings_are_python_warnings_and_an_attribute(fox, tmp_path):
    mix = {"layers": [{"animation": "Walk", "bogus": 1, "reference": "rest"},
                      {"animation": "Run", "sync": "legs"},
                      {"animation": "Walk", "sync": "legs", "speed": 2}], "extra": {}}
    want = [("extra", "unknown property, ignored"),
            ("layers[0].bogus", "unknown property, ignored"),
            ("layers[0].reference", "ignored: only additive layers have a reference"),
            ("layers[2].speed",
             'ignored: layers[1] (the first of sync group "legs") sets the group\'s clock')]
    with pytest.warns(ossa.MixWarning) as caught:
        prepared = fox.prepare_mix(mix)
    assert prepared.warnings == want
    assert [str(w.message) for w in caught] == [f"{p}: {m}" for p, m in want]
    assert all(w.filename == __file__ for w in caught)  # the caller's line
    with pytest.warns(ossa.MixWarning):
        pose = fox.mix(mix, CLOCKS)
    assert np.array_equal(pose.world, prepared.sample(CLOCKS).world)

    file = tmp_path / "warned.json"
    file.write_text(json.dumps(mix))
    code, _, err = run_cli("sample", shared_path("models", "Fox", "Fox.glb"), "--mix",
                           str(file), "--time", "0.5")
    assert code == 0, err
    assert [line for line in err.splitlines() if line.startswith("warning: ")] == \
        [f"warning: {file}: {p}: {m}" for p, m in want]  # the file as given


def test_no_layers_warn_and_give_the_rest_pose(fox):
    with pytest.warns(ossa.MixWarning, match="layers: no layers: the mix is the rest pose"):
        pose = fox.mix({"layers": []}, 0.5)
    assert np.allclose(pose.world, fox.rest_pose().world, atol=1e-5)  # float rounding


def test_deep_values_are_refused_with_their_path(fox):
    deep = [0.0]
    for _ in range(200):
        deep = [deep]
    with pytest.raises(ossa.Error, match="nested more than 64 levels deep") as caught:
        fox.mix({"layers": [{"animation": 0, "weight": deep}]}, 0.5)
    assert caught.value.path.startswith("layers[0].weight[0][0]")


def test_a_clean_mix_warns_nothing(fox):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        mix = fox.prepare_mix(mix_file(MIX_FILES[0]))
    assert mix.warnings == []


# -- a prepared mix: stateless, shared, one call ------------------------------------------------

def test_prepared_mix_is_stateless(fox):
    path = os.path.join(ROOT, "docs", "mixes", "walk_run.json")
    mix = fox.prepare_mix(mix_file(path))
    assert mix.layer_count == 2 and mix.model is fox
    assert mix.description == mix_file(path)
    batched = fox.mix(mix, CLOCKS)
    backwards = mix.sample(CLOCKS[::-1])
    for i, t in enumerate(CLOCKS):
        one = fox.mix(mix, t)
        assert one.scalar and one.world.shape == (1, len(fox.nodes), 3, 4)
        assert np.array_equal(bits(one.world[0]), bits(batched.world[i]))
        assert np.array_equal(bits(backwards.world[len(CLOCKS) - 1 - i]),
                              bits(batched.world[i]))
    # A pose of one time skins to (vertices, 3), as a sampled one does.
    positions, _ = fox.skin(0, fox.mix(mix, 1.2))
    assert positions.shape == (fox.primitives[0].vertex_count, 3)


def test_threads_share_a_prepared_mix(fox):
    mix = fox.prepare_mix(mix_file(MIX_FILES[0]))
    times = np.linspace(-1.0, 5.0, 400)
    want = mix.sample(times)
    results = [None] * 4

    def work(i):
        results[i] = mix.sample(times)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for pose in results:
        assert np.array_equal(pose.world, want.world)


def test_many_times_are_one_call(fox, monkeypatch):
    calls = []
    real = ossa._model.lib

    class Counting:
        def __getattr__(self, name):
            function = getattr(real, name)
            if name.startswith("ossapy_"):
                return lambda *args: calls.append(name) or function(*args)
            return function

    monkeypatch.setattr(ossa._model, "lib", Counting())
    monkeypatch.setattr(ossa._mix, "lib", Counting())
    mix = mix_file(MIX_FILES[0])
    fox.mix(mix, np.linspace(0.0, 2.0, 50))
    assert calls == ["ossapy_mix_prepare", "ossapy_mix_sample"]
    prepared = fox.prepare_mix(mix)
    calls.clear()
    prepared.sample(np.linspace(0.0, 2.0, 50))
    assert calls == ["ossapy_mix_sample"]
