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
