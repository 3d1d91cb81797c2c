#!/bin/sh
# Writes every variant of the demo model with `ossa demo` and validates them with the Khronos
# glTF validator: no errors, no warnings. A truncated file must fail, so the check can fail.
# usage: validate_demo.sh OSSA_CLI SOURCE_DIR. Exit 77 (skipped) when node or npm are absent.
set -eu
cli=$1
root=$2
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    echo "demo_validator: SKIPPED: node and npm are not installed (apt-get install nodejs npm)"
    exit 77
fi
sh "$root/scripts/install-validator.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for model in both windmill tentacle; do
    "$cli" demo --model "$model" -o "$tmp/demo-$model.glb" >/dev/null
done
node "$root/tools/validator/validate.js" "$tmp/demo-both.glb" "$tmp/demo-windmill.glb" \
    "$tmp/demo-tentacle.glb"

head -c 5000 "$tmp/demo-both.glb" >"$tmp/truncated.glb"
if node "$root/tools/validator/validate.js" "$tmp/truncated.glb" >"$tmp/truncated.log" 2>&1; then
    echo "demo_validator: the validator accepted a truncated file" >&2
    exit 1
fi
echo "demo_validator: 3 files valid, truncated file rejected"
