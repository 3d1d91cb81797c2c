"""Memory and threads: loading and freeing a model 200 times, or playing 2000 mixes, does not
grow the process; a long call into C lets other Python threads run (and the check sees it when
the GIL is kept); threads share a model; many times are one call into C."""

import ctypes
import gc
import json
import os
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import ossa
from ossa import _lib
from conftest import ROOT, shared_path


def use(model):
    pose = model.sample(0, np.linspace(0.0, 1.0, 8))
    model.skin(0, pose, "dqs")
    return pose


def test_load_and_free_200_times_keeps_memory():
    path = shared_path("models", "Fox", "Fox.glb")
    for _ in range(20):  # warm up the allocators
        with ossa.load(path) as model:
            use(model)
    gc.collect()
    before = heap_in_use()
    for i in range(200):
        if i % 2:
            with ossa.load(path) as model:  # freed by close()
                use(model)
        else:
            use(ossa.load(path))  # freed by the garbage collector
    gc.collect()
    grown = heap_in_use() - before
    assert grown < 2 << 20, f"200 loads grew the heap by {grown / 1e6:.1f} MB"

    # The measure would see a leak: 50 models kept alive grow the heap by far more.
    before = heap_in_use()
    kept = [ossa.load(path) for _ in range(50)]
    kept_bytes = heap_in_use() - before
    assert kept_bytes > 4 << 20, f"50 live models took only {kept_bytes / 1e6:.1f} MB"
    del kept


class MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
        "fordblks", "keepcost")]


def heap_in_use():
    """Bytes malloc has handed out and not had back (glibc's mallinfo2): unlike the resident
    size, it grows by a leak even where freed memory of earlier tests is there to reuse."""
    mallinfo2 = ctypes.CDLL(None).mallinfo2
    mallinfo2.restype = MallInfo2
    info = mallinfo2()
    return info.uordblks + info.hblkhd


def test_2000_mixes_keep_memory(fox):
    path = os.path.join(ROOT, "docs", "mixes", "fox_masked_additive.json")
    with open(path) as f:
        mix = json.load(f)
    for _ in range(50):  # warm up the allocators
        fox.mix(mix, [0.1, 0.5])
    gc.collect()
    before = heap_in_use()
    for _ in range(2000):  # each call prepares, samples on a character of its own, frees
        fox.mix(mix, [0.1, 0.5])
    gc.collect()
    grown = heap_in_use() - before
    assert grown < 256 << 10, f"2000 mixes left {grown / 1e3:.0f} kB allocated"

    # The measure would see a leak: 2000 prepared mixes never freed.
    text = json.dumps(mix).encode()
    leaked = []
    before = heap_in_use()
    for _ in range(2000):
        file, prepared, error = ctypes.c_void_p(), ctypes.c_void_p(), _lib.ErrorStruct()
        assert _lib.lib.ossapy_mix_prepare(fox._handle, text, len(text), ctypes.byref(file),
                                           ctypes.byref(prepared), ctypes.byref(error)) == 0
        _lib.lib.ossa_mix_file_free(file)
        leaked.append(prepared.value)
    leaked_bytes = heap_in_use() - before
    for prepared in leaked:
        _lib.lib.ossa_mix_free(prepared)
    assert leaked_bytes > 1 << 20, f"2000 live mixes took only {leaked_bytes / 1e3:.0f} kB"


def test_a_pose_keeps_its_model_alive():
    pose = ossa.demo().rest_pose()
    gc.collect()
    positions, _ = pose.skin(0)  # the model is only referenced by the pose
    assert positions.shape == (pose.model.primitives[0].vertex_count, 3)


# A call that stays in C until another Python thread acts: loading from a FIFO blocks in the C
# library's fopen until a writer opens the FIFO. If the call kept the GIL, the main thread could
# not run to open it and the process would hang (so the check runs in a child process with a
# time limit). Printed last: the refusal of the FIFO (not a regular file).
BLOCKED_LOAD = """
import ctypes, os, sys, threading, time
sys.path.insert(0, sys.argv[1])
import ossa
from ossa import _lib
if sys.argv[2] == "held":  # the same library through ctypes.PyDLL, which keeps the GIL
    held = ctypes.PyDLL(_lib.lib._name)
    for name, (restype, argtypes) in _lib._PROTOTYPES.items():
        getattr(held, name).restype, getattr(held, name).argtypes = restype, argtypes
    ossa._model.lib = held
fifo = sys.argv[3]
calling, result = threading.Event(), []
def load():
    calling.set()
    try:
        ossa.load(fifo)
    except ossa.Error as e:
        result.append(str(e))
thread = threading.Thread(target=load)
thread.start()
calling.wait()
time.sleep(0.2)  # the other thread is in C, in fopen
os.close(os.open(fifo, os.O_WRONLY))  # needs the GIL to get here
thread.join()
print(result[0])
"""


def run_blocked_load(mode, fifo, timeout):
    os.mkfifo(fifo)
    root = os.path.dirname(os.path.dirname(os.path.abspath(ossa.__file__)))
    return subprocess.run([sys.executable, "-c", BLOCKED_LOAD, root, mode, str(fifo)],
                          capture_output=True, text=True, timeout=timeout)


def test_long_call_releases_the_gil(tmp_path):
    done = run_blocked_load("released", tmp_path / "model.glb", timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("model.glb: ")  # the load ended with the FIFO refused
    # The check can fail: with the GIL kept during the call, the same script hangs.
    with pytest.raises(subprocess.TimeoutExpired):
        run_blocked_load("held", tmp_path / "held.glb", timeout=3)


def test_every_library_call_releases_the_gil():
    # ctypes keeps the GIL only for functions of a PyDLL (FUNCFLAG_PYTHONAPI).
    assert type(ossa._model.lib) is ctypes.CDLL
    for name in _lib._PROTOTYPES:
        assert not getattr(_lib.lib, name)._flags_ & ctypes._FUNCFLAG_PYTHONAPI, name


def test_threads_share_a_model(fox):
    times = np.linspace(-0.5, 4.0, 300)
    want = fox.sample(1, times)
    want_skin = fox.skin(0, want)
    results = [None] * 4

    def work(i):
        pose = fox.sample(1, times)
        results[i] = (pose, fox.skin(0, pose))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for pose, skinned in results:
        assert np.array_equal(pose.world, want.world)
        assert np.array_equal(skinned.positions, want_skin.positions)


def test_close_waits_for_calls_under_way(monkeypatch):
    # A call releases the GIL: close() from another thread must not free the C model under it.
    path = shared_path("models", "Fox", "Fox.glb")
    model, reference = ossa.load(path), ossa.load(path)
    times = np.linspace(0.0, 3.0, 1000)
    pose = model.sample(1, times)
    entered = threading.Event()
    real = ossa._model.lib

    class Spy:
        def __getattr__(self, name):
            return getattr(real, name)

        def ossapy_skin(self, *args):
            entered.set()  # the next line runs without the GIL for a while
            return real.ossapy_skin(*args)

    monkeypatch.setattr(ossa._model, "lib", Spy())
    result = {}
    worker = threading.Thread(target=lambda: result.update(skinned=model.skin(0, pose)))
    worker.start()
    assert entered.wait(30)
    model.close()  # waits for the skinning to return
    assert model.closed
    worker.join()
    want = reference.skin(0, reference.sample(1, times))
    assert np.array_equal(result["skinned"].positions, want.positions)
    with pytest.raises(ossa.Error, match="closed"):
        model.skin(0, pose)


def test_close_refuses_new_calls_while_it_waits():
    # Threads calling in a loop must not keep close() waiting: once it is called, new calls
    # raise "closed", and it waits only for the calls already under way.
    model = ossa.load(shared_path("models", "Fox", "Fox.glb"))
    times = np.linspace(0.0, 1.0, 400)
    deadline, refused, calls = time.monotonic() + 10, [], [0]

    def loop():  # without the check, close() would wait for the deadline
        while time.monotonic() < deadline:
            try:
                model.sample(1, times)
                calls[0] += 1
            except ossa.Error as e:
                refused.append(str(e))
                return

    threads = [threading.Thread(target=loop) for _ in range(4)]
    for t in threads:
        t.start()
    while calls[0] < 8:
        time.sleep(0.001)
    started = time.monotonic()
    model.close()
    waited = time.monotonic() - started
    for t in threads:
        t.join()
    assert len(refused) == 4 and all("closed" in e for e in refused), refused
    assert waited < 5, f"close() waited {waited:.1f} s"


@pytest.mark.parametrize("method", ["lbs", "dqs"])
def test_skin_many_times_is_one_call(fox, method, monkeypatch):
    calls = []
    real = ossa._model.lib

    class Counting:
        def __getattr__(self, name):
            function = getattr(real, name)
            if name.startswith("ossapy_"):
                return lambda *args: calls.append(name) or function(*args)
            return function

    monkeypatch.setattr(ossa._model, "lib", Counting())
    pose = fox.sample(0, np.linspace(0.0, 2.0, 50))
    fox.skin(0, pose, method)
    assert calls == ["ossapy_sample", "ossapy_skin"]
