#!/bin/sh
# Installs ossa into a temporary prefix (then moves it, to prove the package is relocatable),
# checks that libossa.so exports the public API and nothing else, and builds examples/play.c
# and docs/quickstart.c against it three ways: CMake
# find_package(ossa) with ossa::ossa, pkg-config with the shared library, pkg-config --static.
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
[ ! -e "$prefix/include/ossa/gl.h" ] || fail "gl.h installed without its library"

# The shared library exports exactly the functions the installed headers declare: none of the
# internal ones (also named ossa_), none missing.
declared=$(grep -hoE '^[A-Za-z_][A-Za-z0-9_ ]*[ *]ossa_[a-z0-9_]+\(' "$prefix"/include/ossa/*.h |
    sed -E 's/.*[ *](ossa_[a-z0-9_]+)\($/\1/' | sort -u)
exported=$(nm -D --defined-only "$libdir/libossa.so" | awk '$2 == "T" { print $3 }' | sort -u)
[ -n "$declared" ] || fail "no function declarations found in the installed headers"
if [ "$declared" != "$exported" ]; then
    echo "$declared" >"$tmp/declared"
    echo "$exported" >"$tmp/exported"
    diff "$tmp/declared" "$tmp/exported" >&2 || true
    fail "libossa.so exports other functions than the headers declare (< declared, > exported)"
fi

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

# 2. pkg-config, shared library.
export PKG_CONFIG_PATH="$libdir/pkgconfig"
pkg-config --exists ossa || fail "pkg-config does not find ossa"
# shellcheck disable=SC2046,SC2086
"$cc" $flags -std=c11 -Wall -Wextra -Wpedantic -Werror "$src/examples/play.c" \
    $(pkg-config --cflags --libs ossa) -Wl,-rpath,"$libdir" -o "$tmp/play-shared" ||
    fail "building play with pkg-config (shared)"
readelf -d "$tmp/play-shared" | grep -q "NEEDED.*libossa.so.0" || fail "play-shared does not use libossa.so.0"
"$tmp/play-shared" "$tmp/demo.glb" 2 >"$tmp/play-shared.out" || fail "play (shared)"
expect "$tmp/play-shared.out" "animation 2 'tick'"

# 3. pkg-config --static: libossa.a plus its private dependencies (cJSON, libm, pthread).
# shellcheck disable=SC2046,SC2086
"$cc" $flags -std=c11 -Wall -Wextra -Wpedantic -Werror "$src/examples/play.c" \
    $(pkg-config --cflags ossa) $(pkg-config --static --libs ossa | sed 's/-lossa/-l:libossa.a/') \
    -o "$tmp/play-static" || fail "building play with pkg-config --static"
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
    $(pkg-config --cflags --libs ossa) -Wl,-rpath,"$libdir" -o "$tmp/quickstart" ||
    fail "building docs/quickstart.c"
"$tmp/quickstart" "$tmp/demo.glb" >"$tmp/quickstart.out" || fail "quickstart"
expect "$tmp/quickstart.out" "windmill_hub *-2.200 *4.200 *0.620"
if "$tmp/quickstart" "$tmp/missing.glb" >/dev/null 2>&1; then fail "quickstart accepted a missing file"; fi

echo "install_test: installed, found by CMake and pkg-config (shared and static), examples ran"
