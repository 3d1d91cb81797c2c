"""Builds the Python package's C library: the CPU library of src/ (no OpenGL) and the package's
helpers (python/csrc/), as one shared object inside the package (ossa/_ossa*.so), loaded with
ctypes. Metadata is in pyproject.toml.

From the build tree, without installing:  python3 setup.py build_ext --inplace
(then PYTHONPATH=python; `make test-python` does both and runs the tests)."""

import glob
import re

from setuptools import Extension, setup


def cpu_library_sources():
    """The sources of the CPU library as CMakeLists.txt globs them (OSSA_SOURCES: every layer
    but the OpenGL one), so that a layer added there is built here too."""
    with open("CMakeLists.txt") as f:
        found = re.search(r"file\(GLOB OSSA_SOURCES CONFIGURE_DEPENDS([^)]*)\)", f.read())
    if not found:
        raise SystemExit("setup.py: CMakeLists.txt no longer globs OSSA_SOURCES")
    return sorted(f for pattern in found.group(1).split() for f in glob.glob(pattern))


SOURCES = cpu_library_sources() + sorted(glob.glob("python/csrc/*.c"))
HEADERS = sorted(glob.glob("include/ossa/*.h") + glob.glob("src/**/*.h", recursive=True))

library = Extension(
    "ossa._ossa",
    sources=SOURCES,
    depends=HEADERS,  # a changed header rebuilds the library
    include_dirs=["include", "src"],
    libraries=["cjson", "meshoptimizer", "m"],  # meshoptimizer: EXT_meshopt_compression
    # C11 as CMake compiles it: ISO mode also means no contraction into fused multiply-adds,
    # so every float is the same as in the CMake build of the library.
    extra_compile_args=["-std=c11", "-Wall", "-Wextra", "-Wpedantic", "-pthread"],
    # Every symbol resolved when linking: a source missing here fails the build, not the import.
    extra_link_args=["-pthread", "-Wl,--no-undefined"],
)

setup(
    package_dir={"": "python"},
    packages=["ossa"],
    ext_modules=[library],
    # Out of CMake's build/ folder; two compiler processes (the machines have two cores).
    options={"build": {"build_base": "build-python"}, "build_ext": {"parallel": 2}},
)
