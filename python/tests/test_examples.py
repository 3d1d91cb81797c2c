"""The README's Python quick start and python/examples/trajectory.py run as written."""

import importlib.util
import os
import re
import subprocess
import sys

import ossa
from conftest import ROOT

PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(ossa.__file__)))
EXAMPLE = os.path.join(ROOT, "python", "examples", "trajectory.py")


def run_python(args, cwd):
    env = dict(os.environ, PYTHONPATH=PACKAGE)
    done = subprocess.run([sys.executable, *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_readme_quick_start(tmp_path):
    with open(os.path.join(ROOT, "README.md")) as f:
        blocks = re.findall(r"^```python\n(.*?)^```$", f.read(), re.S | re.M)
    assert len(blocks) == 1, "the README has one Python block, the quick start"
    out = run_python(["-c", blocks[0]], tmp_path).splitlines()
    assert out[1] == "(60, 14, 3, 4)"
    assert out[-4] == "(60, 10, 3, 4)"
    assert out[-3] == "(60, 674, 3) (674, 3)"
    assert out[-2] == "True"
    assert out[-1] == "missing.glb: the file cannot be opened (missing or not readable)"


def test_trajectory_example_prints_without_matplotlib(tmp_path):
    hide = ("import runpy, sys; sys.modules['matplotlib'] = None; "
            f"sys.argv = [{EXAMPLE!r}]; runpy.run_path({EXAMPLE!r}, run_name='__main__')")
    out = run_python(["-c", hide], tmp_path)
    assert "tentacle_9 during 'idle': pose.world (120, 14, 3, 4)" in out
    assert "matplotlib is not installed" in out
    assert len(re.findall(r"^ +\d+\.\d{3} +-?\d", out, re.M)) == 12  # every 10th of 120 times


def test_trajectory_example_with_matplotlib_when_installed(tmp_path):
    out = run_python([EXAMPLE], tmp_path)
    if importlib.util.find_spec("matplotlib") is None:
        assert "matplotlib is not installed" in out
        return
    assert "wrote out/trajectory.png" in out
    with open(tmp_path / "out" / "trajectory.png", "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"
