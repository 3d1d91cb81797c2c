#!/bin/sh
# Installs the Debian packages ossa builds, tests and renders with.
# Idempotent: does nothing when every package is already installed.
set -eu
PACKAGES="build-essential cmake pkg-config clang clang-format libclang-rt-14-dev valgrind
libcjson-dev libjsmn-dev libmeshoptimizer-dev libepoxy-dev libegl-dev libegl-mesa0 libgl1-mesa-dri libgl-dev
libglfw3-dev libpng-dev libgif-dev libstb-dev xvfb xauth locales
python3-numpy python3-pytest python3-setuptools"

missing=""
for p in $PACKAGES; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done
if [ -z "$missing" ]; then
    exit 0
fi
echo "install-deps: installing:$missing" >&2
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
