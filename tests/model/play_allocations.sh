#!/bin/sh
# examples/play.c allocates nothing per frame: under a counting allocator (LD_PRELOAD), playing
# 1 frame and 40 frames of each model makes the same number of allocations.
#   usage: play_allocations.sh PLAY COUNTER.so MODEL...
set -eu
play=$1 counter=$2
shift 2
count() { # model frames -> the allocation count
    LD_PRELOAD="$counter" "$play" "$1" 0 "$2" 2>&1 >/dev/null | sed -n 's/^allocations: //p'
}
status=0
for model in "$@"; do
    one=$(count "$model" 1)
    many=$(count "$model" 40)
    if [ -z "$one" ] || [ "$one" -eq 0 ]; then
        echo "play_allocations: FAILED: no count for $model (the counter did not load)" >&2
        status=1
    elif [ "$one" != "$many" ]; then
        echo "play_allocations: FAILED: $model: $one allocations for 1 frame, $many for 40" >&2
        status=1
    else
        echo "play_allocations: $model: $one allocations for 1 frame and for 40"
    fi
done
exit $status
