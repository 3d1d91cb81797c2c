"""Shared by the Python suites: the package from this tree, the shared corpus, the ossa command.

The package is imported from python/ (build its library in place first:
`python3 setup.py build_ext --inplace` at the repository root, which `make test-python` does).
The shared corpus is $OSSA_SHARED, else ../shared beside the repository, as for the C suites.
The C results come from the `ossa` command: $OSSA_CLI, else build/ossa."""

import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))

import ossa  # noqa: E402  (after the path is set)

SHARED = os.environ.get("OSSA_SHARED") or os.path.join(os.path.dirname(ROOT), "shared")


def shared_path(*parts):
    path = os.path.join(SHARED, *parts)
    if not os.path.exists(path):
        pytest.fail(f"{path} is missing: the shared corpus is $OSSA_SHARED or ../shared")
    return path


def cli_path():
    """The ossa command; missing, the tests that compare with it fail (not skip)."""
    path = os.environ.get("OSSA_CLI") or os.path.join(ROOT, "build", "ossa")
    if not os.access(path, os.X_OK):
        pytest.fail(f"the ossa command is not at {path}: build it (make build) or set OSSA_CLI")
    return path


def run_cli(*args):
    """Runs the ossa command; returns (exit code, stdout, stderr)."""
    done = subprocess.run([cli_path(), *args], capture_output=True, text=True, timeout=120)
    return done.returncode, done.stdout, done.stderr


def cli_sample(model_path, animation, times, mix=None):
    """`ossa sample MODEL --anim K --time T ... --json` (every vertex) as a dict; with `mix`
    (a mix file's path), `--mix FILE` instead of `--anim K`."""
    args = ["sample", model_path, "--json"]
    args += ["--mix", mix] if mix is not None else ["--anim", str(animation)]
    for t in times:
        args += ["--time", repr(float(t))]
    code, out, err = run_cli(*args)
    assert code == 0, f"ossa sample failed: {err}"
    # %.9g prints negative zero as "-0", which JSON reads as the integer 0: keep its sign.
    return json.loads(out, parse_int=lambda text: -0.0 if text == "-0" else int(text))


@pytest.fixture(scope="session")
def fox():
    return ossa.load(shared_path("models", "Fox", "Fox.glb"))


@pytest.fixture(scope="session")
def cesium_man():
    return ossa.load(shared_path("models", "CesiumMan", "glTF-Binary", "CesiumMan.glb"))
