"""The Pythonic API: what a model describes (checked against the glTF JSON itself), shapes and
dtypes, batched == one at a time bit for bit, out= in place, wraps, DQS, the demo model."""

import json
import struct

import numpy as np
import pytest

import ossa
from conftest import shared_path


def glb_json(path):
    """The JSON chunk of a .glb, read here without the library."""
    with open(path, "rb") as f:
        data = f.read()
    length, kind = struct.unpack_from("<II", data, 12)
    assert kind == 0x4E4F534A  # "JSON"
    return json.loads(data[20:20 + length])


@pytest.fixture(scope="module")
def fox_json():
    return glb_json(shared_path("models", "Fox", "Fox.glb"))


def test_nodes_in_gltf_order(fox, fox_json):
    nodes = fox_json["nodes"]
    assert [n.name for n in fox.nodes] == [n.get("name") for n in nodes]
    parents = np.full(len(nodes), -1)
    for i, n in enumerate(nodes):
        for c in n.get("children", []):
            parents[c] = i
    assert fox.parents.tolist() == parents.tolist()
    assert [n.parent for n in fox.nodes] == parents.tolist()
    assert [list(n.children) for n in fox.nodes] == [n.get("children", []) for n in nodes]
    assert [n.mesh for n in fox.nodes] == [n.get("mesh", -1) for n in nodes]
    assert [n.skin for n in fox.nodes] == [n.get("skin", -1) for n in nodes]
    assert fox.find_node("b_Head_05") == [n.get("name") for n in nodes].index("b_Head_05")
    with pytest.raises(ossa.Error):
        fox.find_node("no such node")


def test_skins_and_animations(fox, fox_json):
    assert len(fox.skins) == len(fox_json["skins"])
    for skin, want in zip(fox.skins, fox_json["skins"]):
        assert skin.joints.tolist() == want["joints"]
        assert skin.inverse_bind_matrices.shape == (len(want["joints"]), 3, 4)
    names = [a["name"] for a in fox_json["animations"]]
    assert [a.name for a in fox.animations] == names
    for animation, want in zip(fox.animations, fox_json["animations"]):
        inputs = [fox_json["accessors"][s["input"]] for s in want["samplers"]]
        assert animation.start == pytest.approx(min(a["min"][0] for a in inputs))
        assert animation.end == pytest.approx(max(a["max"][0] for a in inputs))
        assert animation.duration == pytest.approx(animation.end - animation.start)
    assert fox.animation("Walk").index == names.index("Walk")


def test_joint_matrices_are_world_times_inverse_bind(fox):
    pose = fox.sample("Run", [0.1, 0.4])
    skin = fox.skins[0]
    world = np.zeros((2, len(skin.joints), 4, 4))
    world[:, :, :3] = pose.world[:, skin.joints]
    world[:, :, 3, 3] = 1
    ibm = np.zeros((len(skin.joints), 4, 4))
    ibm[:, :3] = skin.inverse_bind_matrices
    ibm[:, 3, 3] = 1
    want = (world @ ibm)[:, :, :3]
    got = pose.joint_matrices(skin)
    assert got.shape == (2, len(skin.joints), 3, 4) and got.dtype == np.float32
    assert np.allclose(got, want, atol=1e-3)  # Fox is ~100 units tall: float rounding


def test_world_is_parent_world_times_local(fox):
    pose = fox.sample(1, 0.3)
    t, q, s = pose.translations[0], pose.rotations[0], pose.scales[0]
    assert np.allclose(np.linalg.norm(q, axis=1), 1, atol=1e-6)
    x, y, z, w = q.T.astype(np.float64)
    rotation = np.stack([
        np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)], -1),
        np.stack([2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)], -1),
        np.stack([2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)], -1)], 1)
    local = np.tile(np.eye(4), (len(fox.nodes), 1, 1))
    local[:, :3, :3] = rotation * s[:, None, :]
    local[:, :3, 3] = t
    world = np.tile(np.eye(4), (len(fox.nodes), 1, 1))
    world[:, :3] = pose.world[0]
    for node in fox.nodes:
        parent = world[node.parent] if node.parent >= 0 else np.eye(4)
        assert np.allclose(world[node.index], parent @ local[node.index], atol=1e-3), node


def test_shapes_and_scalar_poses(fox):
    nodes, vertices = len(fox.nodes), fox.primitives[0].vertex_count
    pose = fox.sample(0, 0.5)
    assert pose.scalar and len(pose) == 1 and pose.times.tolist() == [0.5]
    assert pose.world.shape == (1, nodes, 3, 4)
    positions, normals = fox.skin(0, pose)
    assert positions.shape == (vertices, 3) and positions.dtype == np.float32
    assert normals is None  # Fox has no normals
    many = fox.sample(0, [0.0, 0.5, 1.0])
    assert not many.scalar and fox.skin(0, many).positions.shape == (3, vertices, 3)
    one = many[1]
    assert one.scalar and np.array_equal(one.world, pose.world)
    assert np.array_equal(fox.skin(0, one).positions, positions)
    assert np.array_equal(many[-1].world, many.world[2:])
    with pytest.raises(IndexError):
        many[3]
    rest = fox.rest_pose()
    assert rest.scalar and rest.world.shape == (1, nodes, 3, 4)


def test_batched_equals_one_at_a_time(cesium_man):
    # One C call with a cursor over scattered times == a fresh call for each time.
    times = np.array([0.9, 0.1, 0.1, 1.7, -1.0, 0.55, 2.5, 0.3])
    batch = cesium_man.sample(0, times)
    skinned = cesium_man.skin(0, batch)
    for i, t in enumerate(times):
        alone = cesium_man.sample(0, float(t))
        assert np.array_equal(batch.world[i], alone.world[0])
        assert np.array_equal(batch.joint_matrices(0)[i], alone.joint_matrices(0)[0])
        s = cesium_man.skin(0, alone)
        assert np.array_equal(skinned.positions[i], s.positions)
        assert np.array_equal(skinned.normals[i], s.normals)


def test_out_fills_in_place(cesium_man):
    pose = cesium_man.sample(0, [0.2, 0.7])
    want = cesium_man.skin(0, pose, "dqs")
    positions = np.full_like(want.positions, np.nan)
    normals = np.full_like(want.normals, np.nan)
    got = cesium_man.skin(0, pose, "dqs", out=(positions, normals))
    assert got.positions is positions and got.normals is normals
    assert np.array_equal(positions, want.positions) and np.array_equal(normals, want.normals)
    only = np.full_like(want.positions, np.nan)
    got = pose.skin(0, "dqs", out=(only, None))  # normals skipped
    assert got.normals is None and np.array_equal(only, want.positions)
    with pytest.raises(ValueError):
        cesium_man.skin(0, pose, out=(positions[:1], None))
    with pytest.raises(ValueError):
        cesium_man.skin(0, pose, out=(positions.astype(np.float64), None))


def test_wrap_modes(fox):
    walk = fox.animation("Walk")
    d = walk.duration
    clamp = fox.sample(walk, [walk.start + 0.3, walk.end])
    loop = fox.sample(walk, [walk.start + 0.3 + 2 * d, walk.end + 5 * d + 0.3], wrap="loop")
    assert np.allclose(loop.world[0], clamp.world[0], atol=1e-3)
    assert np.allclose(loop.world[1], clamp.world[0], atol=1e-3)
    held = fox.sample(walk, [walk.end + 1.0])
    assert np.array_equal(held.world[0], clamp.world[1])  # clamp holds the last keys
    pong = fox.sample(walk, walk.end + 0.3, wrap="ping_pong")
    back = fox.sample(walk, walk.end - 0.3)
    assert np.allclose(pong.world, back.world, atol=1e-3)


def test_dqs_equals_lbs_for_rigid_skins():
    # The windmill binds every vertex to one joint: both methods give the same vertices.
    windmill = ossa.demo("windmill")
    pose = windmill.sample("idle", np.linspace(0, 2, 9))
    moved = 0
    for primitive in windmill.primitives:
        lbs = windmill.skin(primitive, pose, "lbs")
        dqs = windmill.skin(primitive, pose, "dqs")
        assert np.allclose(lbs.positions, dqs.positions, atol=1e-4)
        assert np.allclose(lbs.normals, dqs.normals, atol=1e-5)
        moved += not np.array_equal(lbs.positions[0], lbs.positions[3])
    assert moved  # the blades turn


def test_dqs_differs_from_lbs_where_joints_blend(cesium_man):
    pose = cesium_man.sample(0, 1.0)
    lbs, dqs = cesium_man.skin(0, pose, "lbs"), cesium_man.skin(0, pose, "dqs")
    difference = np.abs(lbs.positions - dqs.positions).max()
    assert 1e-5 < difference < 0.1  # CesiumMan is ~1.5 units tall


def test_morph_weights_by_node():
    model = ossa.load(shared_path("models", "AnimatedMorphCube", "AnimatedMorphCube.gltf"))
    assert model.morph_weight_slices == {0: slice(0, 2)}
    pose = model.sample(0, [0.0, 1.0, 2.0])
    assert pose.morph_weights.shape == (3, 2) and pose.morph_weights.dtype == np.float32
    assert np.array_equal(pose.node_weights(0), pose.morph_weights)
    with pytest.raises(ossa.Error, match=r"there is no node 1 \(the model has 1\)"):
        pose.node_weights(1)
    fox = ossa.load(shared_path("models", "Fox", "Fox.glb"))
    fox_pose = fox.rest_pose()
    assert fox_pose.morph_weights.shape == (1, 0)
    assert fox_pose.node_weights(3).shape == (1, 0)  # a node without morph targets
    assert fox_pose.node_weights(fox.nodes[3]).shape == (1, 0)


def test_demo_model():
    demo = ossa.demo()
    assert [a.name for a in demo.animations] == ["idle", "gust", "tick"]
    assert all(a.duration == 2.0 for a in demo.animations)
    assert {n.name for n in demo.nodes} >= {"windmill_hub", "tentacle_0", "tentacle_9"}
    tentacle = ossa.demo("tentacle")
    assert len(tentacle.nodes) < len(demo.nodes)
    with pytest.raises(ossa.Error):
        ossa.demo("castle")
    indices = demo.primitive_indices(0)
    assert indices.dtype == np.uint32 and len(indices) == demo.primitives[0].index_count
    assert indices.max() < demo.primitives[0].vertex_count


def test_compact_animations(fox):
    """compact=True: every animation several times smaller, its declared error positive, and
    every node within about that error of the plain clip at 101 times (the error is measured
    at key times and between them, nodes and skinned vertices, so at other times a node may
    come a little closer to it or pass it slightly)."""
    compact = ossa.load(shared_path("models", "Fox", "Fox.glb"), compact=True)
    for plain, small in zip(fox.animations, compact.animations):
        assert plain.compact_error == 0.0 and small.compact_error > 0.0
        assert small.bytes * 3 < plain.bytes
        times = np.linspace(small.start, small.end, 101)
        moved = np.linalg.norm(fox.sample(plain.index, times).world[..., 3] -
                               compact.sample(small.index, times).world[..., 3], axis=-1)
        assert 0.0 < moved.max() <= 1.5 * small.compact_error, (small.name, moved.max())
    tighter = ossa.load(shared_path("models", "Fox", "Fox.glb"), compact=True,
                        compact_error=0.001)
    assert all(a.compact_error <= 0.001 for a in tighter.animations)
    with pytest.raises(ossa.Error, match="compact_error"):
        ossa.load(shared_path("models", "Fox", "Fox.glb"), compact=True, compact_error=-1.0)
