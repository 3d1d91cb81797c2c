#!/bin/sh
# Runs one fuzz target for $FUZZ_SECONDS seconds (default 60) from the working directory of the
# fuzz build: new inputs go to corpus/NAME (kept between runs), the seeds are read from
# seeds/NAME, crashing inputs are written to crashes/NAME-*. Prints one summary line, also kept
# in NAME.stats, and the fuzzer's log when it fails.
#   run_fuzzer.sh BINARY NAME DICTIONARY
set -u
bin=$1 name=$2 dict=$3
seconds=${FUZZ_SECONDS:-60}
mkdir -p "corpus/$name" crashes
log="fuzz_$name.log"
"$bin" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 -dict="$dict" \
    -artifact_prefix="crashes/$name-" -print_final_stats=1 "corpus/$name" "seeds/$name" \
    >"$log" 2>&1
status=$?
last=$(grep -E '^#[0-9]+' "$log" | tail -n 1)
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log")
cov=$(echo "$last" | sed -n 's/.*cov: \([0-9]*\).*/\1/p')
ft=$(echo "$last" | sed -n 's/.*ft: \([0-9]*\).*/\1/p')
corp=$(echo "$last" | sed -n 's/.*corp: \([0-9]*\/[0-9]*[a-zA-Z]*\).*/\1/p')
summary="fuzz_$name: ${runs:-?} executions in ${seconds} s, cov: ${cov:-?} ft: ${ft:-?} corpus: ${corp:-?} peak rss: ${rss:-?} MB, exit $status"
echo "$summary" | tee "$name.stats"
if [ "$status" != 0 ]; then
    tail -n 80 "$log"
    ls crashes/"$name"-* 2>/dev/null
fi
exit "$status"
