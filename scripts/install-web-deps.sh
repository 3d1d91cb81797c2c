#!/bin/sh
# Installs what the WebAssembly build (`make web`) needs, apart from the default build's packages
# (scripts/install-deps.sh): Debian's emscripten and the source of Debian's cJSON (libcjson-dev
# ships only a native library; the wasm build compiles cJSON.c). --with-browser also installs
# Debian's chromium, which the page suite of `make test-web` drives headless.
#
#   sh scripts/install-web-deps.sh [--with-browser] [CJSON_DIR]
#
# CJSON_DIR (default build-web/cjson) receives cJSON.c and cJSON.h of Debian's `cjson` source
# package, with Debian's patches applied, fetched by `apt-get source` through a private copy of
# this machine's apt sources turned into deb-src lines (the system's apt configuration is left
# as it is). Idempotent: nothing is done when everything is there.
set -eu
PACKAGES="emscripten dpkg-dev"
if [ "${1:-}" = "--with-browser" ]; then
    PACKAGES="$PACKAGES chromium"
    shift
fi
CJSON_DIR=${1:-build-web/cjson}

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

if [ -f "$CJSON_DIR/cJSON.c" ] && [ -f "$CJSON_DIR/cjson/cJSON.h" ]; then
    exit 0
fi
echo "install-web-deps: fetching Debian's cjson source package into $CJSON_DIR" >&2
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
# as long as Debian's cjson can be found.
apt-get $apt_private update -qq >/dev/null 2>&1 || true
(cd "$work/src" && apt-get $apt_private source -qq cjson >/dev/null 2>&1) || {
    echo "install-web-deps: 'apt-get source cjson' failed: no deb-src index of Debian is reachable" >&2
    exit 1
}
tree=$(find "$work/src" -mindepth 1 -maxdepth 1 -type d -name 'cjson-*' | head -n 1)
if [ -z "$tree" ] || [ ! -f "$tree/cJSON.c" ]; then
    echo "install-web-deps: the cjson source package has no cJSON.c" >&2
    exit 1
fi
mkdir -p "$CJSON_DIR/cjson"
cp "$tree/cJSON.c" "$CJSON_DIR/cJSON.c"
cp "$tree/cJSON.h" "$CJSON_DIR/cjson/cJSON.h"
cp "$tree/LICENSE" "$CJSON_DIR/LICENSE"
basename "$(find "$work/src" -maxdepth 1 -name '*.dsc' | head -n 1)" .dsc >"$CJSON_DIR/VERSION"
echo "install-web-deps: cJSON $(cat "$CJSON_DIR/VERSION")" >&2
