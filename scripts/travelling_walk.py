#!/usr/bin/env python3
"""Writes a copy of a glTF binary whose root node travels: the root's translation keys of
animation 0 get `speed * (t - t0)` added along a direction of the root's parent space.

The shared models walk in place (Fox, CesiumMan: their planted feet slide backward under a
body that stays put), so their root motion is only the body's sway. This puts the travel
their feet imply into the clip, so that root motion (include/ossa/motion.h) has somewhere to
go, e.g. for the README's GIF:

    scripts/travelling_walk.py CesiumMan.glb build/CesiumManWalking.glb \
        --node Skeleton_torso_joint_1 --direction 0 -1 0 --speed 1.0
"""
import argparse
import json
import struct


def read_glb(path):
    data = open(path, "rb").read()
    magic, version, length = struct.unpack_from("<4sII", data, 0)
    if magic != b"glTF" or version != 2:
        raise SystemExit(f"{path}: not a glTF 2.0 binary")
    chunks, offset = [], 12
    while offset < length:
        size, kind = struct.unpack_from("<I4s", data, offset)
        chunks.append((kind, bytearray(data[offset + 8:offset + 8 + size])))
        offset += 8 + size
    return json.loads(chunks[0][1].decode("utf-8")), chunks[1][1]


def write_glb(path, document, binary):
    text = json.dumps(document, separators=(",", ":")).encode("utf-8")
    text += b" " * (-len(text) % 4)
    binary = bytes(binary) + b"\0" * (-len(binary) % 4)
    total = 12 + 8 + len(text) + 8 + len(binary)
    with open(path, "wb") as f:
        f.write(struct.pack("<4sII", b"glTF", 2, total))
        f.write(struct.pack("<I4s", len(text), b"JSON") + text)
        f.write(struct.pack("<I4s", len(binary), b"BIN\0") + binary)


def floats(document, binary, accessor_index):
    """Offset, stride and count of a float accessor's elements in the binary chunk."""
    accessor = document["accessors"][accessor_index]
    view = document["bufferViews"][accessor["bufferView"]]
    if accessor["componentType"] != 5126 or "sparse" in accessor:
        raise SystemExit("the root's keys are not plain floats")
    width = {"SCALAR": 1, "VEC3": 3}[accessor["type"]]
    offset = view.get("byteOffset", 0) + accessor.get("byteOffset", 0)
    return offset, view.get("byteStride", 4 * width), accessor["count"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("input")
    parser.add_argument("output")
    parser.add_argument("--node", required=True, help="the root node's name")
    parser.add_argument("--direction", type=float, nargs=3, required=True)
    parser.add_argument("--speed", type=float, required=True, help="units per second")
    args = parser.parse_args()
    document, binary = read_glb(args.input)
    nodes = [i for i, n in enumerate(document["nodes"]) if n.get("name") == args.node]
    if len(nodes) != 1:
        raise SystemExit(f"no single node named {args.node}")
    animation = document["animations"][0]
    channels = [c for c in animation["channels"]
                if c["target"].get("node") == nodes[0] and c["target"]["path"] == "translation"]
    if len(channels) != 1:
        raise SystemExit(f"{args.node} has no translation channel in animation 0")
    sampler = animation["samplers"][channels[0]["sampler"]]
    if sampler.get("interpolation", "LINEAR") != "LINEAR":
        raise SystemExit("only LINEAR keys are moved")
    t_offset, t_stride, count = floats(document, binary, sampler["input"])
    v_offset, v_stride, _ = floats(document, binary, sampler["output"])
    times = [struct.unpack_from("<f", binary, t_offset + k * t_stride)[0] for k in range(count)]
    norm = sum(c * c for c in args.direction) ** 0.5
    step = [args.speed * c / norm for c in args.direction]
    for k, t in enumerate(times):
        at = v_offset + k * v_stride
        value = struct.unpack_from("<3f", binary, at)
        struct.pack_into("<3f", binary, at, *(v + s * (t - times[0]) for v, s in zip(value, step)))
    # the accessor's bounds follow the keys
    accessor = document["accessors"][sampler["output"]]
    keys = [struct.unpack_from("<3f", binary, v_offset + k * v_stride) for k in range(count)]
    accessor["min"] = [min(k[c] for k in keys) for c in range(3)]
    accessor["max"] = [max(k[c] for k in keys) for c in range(3)]
    write_glb(args.output, document, binary)


if __name__ == "__main__":
    main()
