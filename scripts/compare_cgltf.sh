#!/bin/sh
# Loading side by side with cgltf: builds ../shared/anchors/cgltf/bench_cgltf.c against a cgltf.h,
# then, round after round, times every shared model file with it and with `ossa bench --load-only`
# (each the best of 50 loads of parse + buffers + checks + every accessor unpacked to floats +
# free), one file after the other, and prints the processor (as ossa bench names it) and a table
# of both times and their ratio (median and range over the rounds).
#
#   usage: scripts/compare_cgltf.sh CGLTF_DIR [ROUNDS] [OSSA]
#
# CGLTF_DIR holds cgltf.h (github.com/jkuhlmann/cgltf); ROUNDS defaults to 3; OSSA to build/ossa.
# The machine is shared and noisy: only ratios taken in the same minutes mean anything.
set -e
usage() {
  echo "usage: scripts/compare_cgltf.sh CGLTF_DIR [ROUNDS] [OSSA]" >&2
  echo "  CGLTF_DIR: a folder holding cgltf.h (git clone https://github.com/jkuhlmann/cgltf)" >&2
  exit 2
}
if [ $# -lt 1 ] || [ $# -gt 3 ]; then usage; fi
[ -f "$1/cgltf.h" ] || { echo "compare_cgltf.sh: no cgltf.h in '$1'" >&2; usage; }
CGLTF=$(cd "$1" && pwd)
ROUNDS=${2:-3}
case $ROUNDS in
  '' | *[!0-9]* | 0)
    echo "compare_cgltf.sh: ROUNDS must be a whole number of at least 1, got '$ROUNDS'" >&2
    exit 2
    ;;
esac
OSSA=${3:-build/ossa}
if [ ! -x "$OSSA" ]; then
  echo "compare_cgltf.sh: no ossa command at '$OSSA' (build it: make, or README's Release build)" >&2
  exit 2
fi
HERE=$(cd "$(dirname "$0")" && pwd)
SHARED=${OSSA_SHARED:-$HERE/../../shared}
WORK=${TMPDIR:-/tmp}/cgltf-anchor
mkdir -p "$WORK"
# Both programs run from files just written whole: the same ossa binary ran 20% slower from the
# build folder where it had been relinked many times than from a fresh copy (Linux 6.18, ext4;
# docs/performance-log.md, 2026-11-28).
rm -f "$WORK/bench_cgltf" "$WORK/ossa"
cc -O2 -I "$CGLTF" "$SHARED/anchors/cgltf/bench_cgltf.c" -o "$WORK/bench_cgltf" -lm
cp "$OSSA" "$WORK/ossa"
OSSA=$WORK/ossa
find "$SHARED/models" -name '*.gltf' -o -name '*.glb' | sort >"$WORK/models"
: >"$WORK/times"
round=1
while [ "$round" -le "$ROUNDS" ]; do
  while read -r model; do
    "$WORK/bench_cgltf" "$model" | sed "s|^|cgltf $round |" >>"$WORK/times"
    "$OSSA" bench --load-only --json --models "$model" | sed "s|^|ossa $round |" >>"$WORK/times"
  done <"$WORK/models"
  round=$((round + 1))
done
python3 - "$WORK/times" "$SHARED/models/" <<'PY'
import json, sys
times, prefix, model, host = {}, sys.argv[2], None, None
for line in open(sys.argv[1]):  # a cgltf line, then the ossa line of the same file
    who, rnd, text = line.split(' ', 2)
    row = json.loads(text)
    if who == 'cgltf':
        model = row['file']
        times.setdefault(model, {}).setdefault('cgltf', []).append(row['us_total'])
    else:
        times[model].setdefault('ossa', []).append(row['load'][0]['us'])
        host = row.get('host', host)
if host:  # the processor both ran on (ossa bench's host)
    print('host: %s (%s, family %d, model %d), %d logical CPUs' % (host['cpu'], host['vendor'],
          host['family'], host['model'], host['logical_cpus']))
print('| model | ossa us | cgltf us | ossa / cgltf (median, range) |')
print('| --- | --- | --- | --- |')
for model, t in times.items():
    o, c = t['ossa'], t['cgltf']
    r = sorted(a / b for a, b in zip(o, c))
    print('| %s | %.0f-%.0f | %.0f-%.0f | %.2f (%.2f-%.2f) |' % (model.replace(prefix, ''), min(o),
          max(o), min(c), max(c), r[len(r) // 2], r[0], r[-1]))
print('rounds: %d' % len(r))
PY
