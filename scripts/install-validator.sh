#!/bin/sh
# Installs the Khronos glTF validator (npm package gltf-validator, the version pinned in
# tools/validator/package-lock.json) into tools/validator/node_modules.
# Idempotent: does nothing when that version is already installed. Needs node and npm.
set -eu
dir="$(cd "$(dirname "$0")/../tools/validator" && pwd)"
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    echo "install-validator: node and npm are needed (Debian: apt-get install nodejs npm)" >&2
    exit 1
fi

installed() {
    node -e '
        const dir = process.argv[1];
        const want = require(dir + "/package.json").dependencies["gltf-validator"];
        const have = require(dir + "/node_modules/gltf-validator/package.json").version;
        process.exit(want === have ? 0 : 1);' "$dir" 2>/dev/null
}

install() {
    if installed; then return 0; fi
    echo "install-validator: installing gltf-validator into $dir/node_modules" >&2
    npm ci --prefix "$dir" --no-audit --no-fund --loglevel=error >&2
}

# Test runs (normal and sanitizer builds) may start this at the same time.
if command -v flock >/dev/null 2>&1; then
    exec 9>"$dir/.install.lock"
    flock 9
fi
install
