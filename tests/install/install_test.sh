#!/bin/sh
# Installs ossa into a temporary prefix (then moves it, to prove the package is relocatable),
# checks that libossa.so and libossa-gl.so export their public API and nothing else, and builds
# examples/play.c, docs/quickstart.c and (with the GL layer) examples/crowd_gl.c against it
# three ways: CMake find_package(ossa) with ossa::ossa / ossa::gl, pkg-config with the shared
# libraries (found at run time through the rpath line README gives), pkg-config ossa-static /
# ossa-gl-static, each command as README writes it.
# Each program runs on the demo model written by the installed `ossa demo`.
# usage: install_test.sh BUILD_DIR SOURCE_DIR C_COMPILER [SANITIZE]
set -eu
build=$1
src=$2
cc=$3
sanitize=${4:-}
flags=""
if [ -n "$sanitize" ]; then flags="-fsanitize=$sanitize -fno-omit-frame-pointer"; fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
    echo "install_test: FAILED: $*" >&2
    exit 1
}
expect() { # expect FILE TEXT
    grep -q -- "$2" "$1" || { cat "$1" >&2; fail "'$2' missing from $1"; }
}

cmake --install "$build" --prefix "$tmp/stage" >"$tmp/install.log" || fail "cmake --install"
mv "$tmp/stage" "$tmp/prefix"
prefix=$tmp/prefix
pc=$(find "$prefix" -name ossa.pc)
[ -n "$pc" ] || fail "no ossa.pc installed"
libdir=$(dirname "$(dirname "$pc")")
for f in include/ossa/document.h include/ossa/demo.h include/ossa/skin.h bin/ossa; do
    [ -f "$prefix/$f" ] || fail "$f not installed"
done
for f in libossa.a libossa.so cmake/ossa/ossaConfig.cmake cmake/ossa/ossaTargets.cmake; do
    [ -e "$libdir/$f" ] || fail "$f not installed in $libdir"
done
# The OpenGL layer is installed with its header, or neither is.
gl=0
[ -e "$libdir/libossa-gl.so" ] && gl=1
if [ $gl = 1 ]; then
    for f in include/ossa/gl.h; do [ -f "$prefix/$f" ] || fail "$f not installed"; done
    for f in libossa-gl.a pkgconfig/ossa-gl.pc; do
        [ -e "$libdir/$f" ] || fail "$f not installed in $libdir"
    done
else
    [ ! -e "$prefix/include/ossa/gl.h" ] || fail "gl.h installed without its library"
fi

# Each shared library exports exactly the functions its installed headers declare (gl.h for
# libossa-gl, the others for libossa): none of the internal ones (also named ossa_), none missing.
check_exports() { # check_exports LIBRARY HEADER...
    lib=$1
    shift
    declared=$(grep -hoE '^[A-Za-z_][A-Za-z0-9_ ]*[ *]ossa_[a-z0-9_]+\(' "$@" |
        sed -E 's/.*[ *](ossa_[a-z0-9_]+)\($/\1/' | sort -u)
    exported=$(nm -D --defined-only "$libdir/$lib" | awk '$2 == "T" { print $3 }' | sort -u)
    [ -n "$declared" ] || fail "no function declarations found in $*"
    if [ "$declared" != "$exported" ]; then
        echo "$declared" >"$tmp/declared"
        echo "$exported" >"$tmp/exported"
        diff "$tmp/declared" "$tmp/exported" >&2 || true
        fail "$lib exports other functions than its headers declare (< declared, > exported)"
    fi
}
core_headers=$(ls "$prefix"/include/ossa/*.h | grep -v '/gl\.h$')
# shellcheck disable=SC2086
check_exports libossa.so $core_headers
if [ $gl = 1 ]; then check_exports libossa-gl.so "$prefix/include/ossa/gl.h"; fi

# The installed command writes the model the programs play.
"$prefix/bin/ossa" demo -o "$tmp/demo.glb" >/dev/null || fail "installed ossa demo"

# 1. CMake: find_package(ossa) -> ossa::ossa (static).
cmake -S "$src/examples" -B "$tmp/cmake" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_C_COMPILER="$cc" -DCMAKE_C_FLAGS="$flags" >"$tmp/cmake.log" 2>&1 ||
    { cat "$tmp/cmake.log" >&2; fail "configuring examples with find_package(ossa)"; }
cmake --build "$tmp/cmake" >"$tmp/build.log" 2>&1 ||
    { cat "$tmp/build.log" >&2; fail "building examples with CMake"; }
"$tmp/cmake/play" >"$tmp/play-cmake.out" || fail "play (CMake build) on the built-in demo"
expect "$tmp/play-cmake.out" "ossa-demo.glb: 14 nodes, 4 primitives, 2 skins, 3 animations"
expect "$tmp/play-cmake.out" "mesh 1/0: 674 vertices"
"$tmp/cmake/play" "$tmp/demo.glb" 1 >"$tmp/play-file.out" || fail "play demo.glb 1"
expect "$tmp/play-file.out" "demo.glb: 14 nodes"
expect "$tmp/play-file.out" "animation 1 'gust'"

# The README's commands, checked to be there as written.
readme_has() {
    grep -qF -- "$1" "$src/README.md" || fail "README.md no longer says: $1"
}
readme_has 'cc app.c $(pkg-config --cflags --libs ossa) -Wl,-rpath,$(pkg-config --variable=libdir ossa)'
readme_has 'cc app.c $(pkg-config --cflags --libs ossa-static)'
readme_has 'cc crowd.c $(pkg-config --cflags --libs ossa-gl) -Wl,-rpath,$(pkg-config --variable=libdir ossa-gl)'
readme_has 'cc crowd.c $(pkg-config --cflags --libs ossa-gl-static)'

# 2. pkg-config, shared library: the rpath line finds libossa.so in the moved prefix.
export PKG_CONFIG_PATH="$libdir/pkgconfig"
pkg-config --exists ossa || fail "pkg-config does not find ossa"
# shellcheck disable=SC2046,SC2086
"$cc" $flags -std=c11 -Wall -Wextra -Wpedantic -Werror "$src/examples/play.c" \
    $(pkg-config --cflags --libs ossa) -Wl,-rpath,$(pkg-config --variable=libdir ossa) \
    -o "$tmp/play-shared" ||
    fail "building play with pkg-config (shared)"
readelf -d "$tmp/play-shared" | grep -q "NEEDED.*libossa.so.0" || fail "play-shared does not use libossa.so.0"
env -u LD_LIBRARY_PATH "$tmp/play-shared" "$tmp/demo.glb" 2 >"$tmp/play-shared.out" ||
    fail "play (shared)"
expect "$tmp/play-shared.out" "animation 2 'tick'"

# 3. pkg-config ossa-static: libossa.a plus its dependencies (cJSON, libm, pthread).
# shellcheck disable=SC2046,SC2086
"$cc" $flags -std=c11 -Wall -Wextra -Wpedantic -Werror "$src/examples/play.c" \
    $(pkg-config --cflags --libs ossa-static) -o "$tmp/play-static" ||
    fail "building play with pkg-config ossa-static"
if readelf -d "$tmp/play-static" | grep -q "NEEDED.*libossa"; then fail "play-static uses libossa.so"; fi
"$tmp/play-static" "$tmp/demo.glb" >"$tmp/play-static.out" || fail "play (static)"
cmp -s "$tmp/play-static.out" "$tmp/play-shared.out" && fail "animations 0 and 2 printed the same"
expect "$tmp/play-static.out" "animation 0 'idle'"

# 4. The README's quick start (its first C block, which must be docs/quickstart.c) compiles and
# runs.
sed -n '/^```c$/,/^```$/p' "$src/README.md" | sed '1d;$d' | awk '/^```/{exit} {print}' \
    >"$tmp/readme-quickstart.c"
cmp -s "$tmp/readme-quickstart.c" "$src/docs/quickstart.c" ||
    fail "the quick start in README.md differs from docs/quickstart.c"
# shellcheck disable=SC2046,SC2086
"$cc" $flags -std=c11 -Wall -Wextra -Wpedantic -Werror "$src/docs/quickstart.c" \
    $(pkg-config --cflags --libs ossa) -Wl,-rpath,$(pkg-config --variable=libdir ossa) \
    -o "$tmp/quickstart" ||
    fail "building docs/quickstart.c"
"$tmp/quickstart" "$tmp/demo.glb" >"$tmp/quickstart.out" || fail "quickstart"
expect "$tmp/quickstart.out" "windmill_hub *-2.200 *4.200 *0.620"
if "$tmp/quickstart" "$tmp/missing.glb" >/dev/null 2>&1; then fail "quickstart accepted a missing file"; fi

# 5. The headless GL crowd (examples/crowd_gl.c) against the installed ossa-gl: CMake (ossa::gl),
# pkg-config shared and pkg-config --static. The three draw the same frame.
if [ $gl = 1 ]; then
    export LSAN_OPTIONS="suppressions=$src/tests/gpu/lsan.supp:print_suppressions=0"
    covered() { # the crowd's foreground pixels, as crowd_gl printed them
        sed -n 's/^frame [0-9x]*: \([0-9]*\) foreground pixels.*/\1/p' "$1"
    }
    [ -x "$tmp/cmake/crowd_gl" ] || fail "find_package(ossa COMPONENTS gl) did not build crowd_gl"
    "$tmp/cmake/crowd_gl" "$tmp/demo.glb" 16 >"$tmp/crowd-cmake.out" || fail "crowd_gl (CMake)"
    expect "$tmp/crowd-cmake.out" "demo.glb: 16 characters, 4 primitives"
    [ "$(covered "$tmp/crowd-cmake.out")" -gt 1000 ] ||
        { cat "$tmp/crowd-cmake.out" >&2; fail "crowd_gl drew almost nothing"; }
    # another animation puts the characters elsewhere: another frame
    "$tmp/cmake/crowd_gl" "$tmp/demo.glb" 16 1 >"$tmp/crowd-gust.out" || fail "crowd_gl gust"
    expect "$tmp/crowd-gust.out" "animation 1 'gust'"
    [ "$(covered "$tmp/crowd-gust.out")" != "$(covered "$tmp/crowd-cmake.out")" ] ||
        fail "animations 0 and 1 of the crowd cover the same pixels"

    pkg-config --exists ossa-gl || fail "pkg-config does not find ossa-gl"
    # shellcheck disable=SC2046,SC2086
    "$cc" $flags -std=c11 -Wall -Wextra -Wpedantic -Werror "$src/examples/crowd_gl.c" \
        $(pkg-config --cflags --libs ossa-gl) -Wl,-rpath,$(pkg-config --variable=libdir ossa-gl) \
        -o "$tmp/crowd-shared" ||
        fail "building crowd_gl with pkg-config (shared)"
    readelf -d "$tmp/crowd-shared" | grep -q "NEEDED.*libossa-gl.so.0" ||
        fail "crowd-shared does not use libossa-gl.so.0"
    env -u LD_LIBRARY_PATH "$tmp/crowd-shared" "$tmp/demo.glb" 16 >"$tmp/crowd-shared.out" ||
        fail "crowd_gl (shared)"
    cmp -s "$tmp/crowd-shared.out" "$tmp/crowd-cmake.out" ||
        { diff "$tmp/crowd-shared.out" "$tmp/crowd-cmake.out" >&2; fail "crowd_gl shared vs CMake"; }

    # shellcheck disable=SC2046,SC2086
    "$cc" $flags -std=c11 -Wall -Wextra -Wpedantic -Werror "$src/examples/crowd_gl.c" \
        $(pkg-config --cflags --libs ossa-gl-static) -o "$tmp/crowd-static" ||
        fail "building crowd_gl with pkg-config ossa-gl-static"
    if readelf -d "$tmp/crowd-static" | grep -q "NEEDED.*libossa"; then
        fail "crowd-static uses a shared libossa"
    fi
    "$tmp/crowd-static" "$tmp/demo.glb" 16 >"$tmp/crowd-static.out" || fail "crowd_gl (static)"
    cmp -s "$tmp/crowd-static.out" "$tmp/crowd-cmake.out" ||
        { diff "$tmp/crowd-static.out" "$tmp/crowd-cmake.out" >&2; fail "crowd_gl static vs CMake"; }
fi

echo "install_test: installed, found by CMake and pkg-config (shared with rpath, static), examples ran (GL crowd: $gl)"
