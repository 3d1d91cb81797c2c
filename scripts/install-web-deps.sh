#!/bin/sh
# Installs what the WebAssembly build (`make web`) needs, apart from the default build's packages
# (scripts/install-deps.sh): Debian's emscripten, and the sources of the two libraries the CPU
# library links, as Debian builds them: cJSON and meshoptimizer (libcjson-dev and
# libmeshoptimizer-dev ship only native libraries; the wasm build compiles their sources).
# --with-browser also installs Debian's chromium, which the page suite of `make test-web` drives
# headless.
#
#   sh scripts/install-web-deps.sh [--with-browser] [SOURCES_DIR]
#
# SOURCES_DIR (default build-web/deps) receives cjson/ (cJSON.c, cjson/cJSON.h) and
# meshoptimizer/ (its decoders and meshoptimizer.h) from Debian's `cjson` and `meshoptimizer`
# source packages, with Debian's patches applied, fetched by `apt-get source` through a private
# copy of this machine's apt sources turned into deb-src lines (the system's apt configuration
# is left as it is). Idempotent: nothing is done when everything is there.
set -eu
PACKAGES="emscripten dpkg-dev"
if [ "${1:-}" = "--with-browser" ]; then
    PACKAGES="$PACKAGES chromium"
    shift
fi
DEPS=${1:-build-web/deps}

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi

missing=""
for p in $PACKAGES; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done
if [ -n "$missing" ]; then
    echo "install-web-deps: installing:$missing" >&2
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

if [ -f "$DEPS/cjson/cJSON.c" ] && [ -f "$DEPS/meshoptimizer/vertexcodec.cpp" ]; then
    exit 0
fi
echo "install-web-deps: fetching Debian's cjson and meshoptimizer source packages into $DEPS" >&2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lists/partial" "$work/cache/archives/partial" "$work/parts" "$work/src"
# deb-src twins of the machine's own sources (one-line and deb822 formats).
if [ -f /etc/apt/sources.list ]; then
    sed -n 's/^[[:space:]]*deb[[:space:]]/deb-src /p' /etc/apt/sources.list >"$work/sources.list"
else
    : >"$work/sources.list"
fi
for f in /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    case "$f" in
    *.list) sed -n 's/^[[:space:]]*deb[[:space:]]/deb-src /p' "$f" >>"$work/sources.list" ;;
    *.sources) sed 's/^Types:.*/Types: deb-src/' "$f" >"$work/parts/$(basename "$f")" ;;
    esac
done
apt_private="-o Dir::Etc::sourcelist=$work/sources.list -o Dir::Etc::sourceparts=$work/parts
-o Dir::State::Lists=$work/lists -o Dir::Cache=$work/cache -o APT::Sandbox::User=root"
# Sources other than Debian's (if any) may have no source indices: their failures are ignored
# as long as Debian's packages can be found.
apt-get $apt_private update -qq >/dev/null 2>&1 || true

# Unpacks source package $1 (with Debian's patches) and prints its tree.
fetch_source() {
    (cd "$work/src" && apt-get $apt_private source -qq "$1" >/dev/null 2>&1) || {
        echo "install-web-deps: 'apt-get source $1' failed: no deb-src index of Debian is reachable" >&2
        exit 1
    }
    find "$work/src" -mindepth 1 -maxdepth 1 -type d -name "$1-*" | head -n 1
}

tree=$(fetch_source cjson)
mkdir -p "$DEPS/cjson/cjson"
cp "$tree/cJSON.c" "$tree/LICENSE" "$DEPS/cjson/"
cp "$tree/cJSON.h" "$DEPS/cjson/cjson/cJSON.h"

tree=$(fetch_source meshoptimizer)
mkdir -p "$DEPS/meshoptimizer"
cp "$tree/src/meshoptimizer.h" "$tree/src/vertexcodec.cpp" "$tree/src/indexcodec.cpp" \
    "$tree/src/vertexfilter.cpp" "$tree/LICENSE.md" "$DEPS/meshoptimizer/"

for dsc in "$work"/src/*.dsc; do basename "$dsc" .dsc; done >"$DEPS/VERSIONS"
echo "install-web-deps: $(tr '\n' ' ' <"$DEPS/VERSIONS")" >&2
