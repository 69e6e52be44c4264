#!/usr/bin/env bash
# Measures plain (unrecorded) runs of the workloads: for each workload of workloads.toml (or
# those named as arguments), at sizes small, 2 x small, large and 2 x large, the median wall time
# and the median CPU time (user + system, all JVM threads) of RUNS runs (default 3; environment
# variable RUNS), and the result line. Prints a Markdown table. Times include JVM start-up;
# compilation happens before the first timed run. On a loaded machine CPU time varies less than
# wall time.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

runs=${RUNS:-3}
if [ $# -gt 0 ]; then names=("$@"); else mapfile -t names < <(toml_sections); fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

median() { sort -n | sed -n "$(( (runs + 1) / 2 ))p"; }

load() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown; }
echo "Plain runs, median of $runs, $(date -u '+%Y-%m-%d %H:%M UTC'); $(nproc) CPUs;" \
  "$(java -version 2>&1 | sed -n 2p); load average $(load) at the start."
echo
echo "| workload | size | wall ms | CPU ms | result |"
echo "| --- | ---: | ---: | ---: | --- |"
for name in "${names[@]}"; do
  WORKLOAD_COMPILE_ONLY=1 "$workloads_dir/run.sh" "$name" 1
  small=$(toml_get "$name" small) large=$(toml_get "$name" large)
  for size in $(printf '%s\n' "$small" $((2 * small)) "$large" $((2 * large)) | sort -n -u); do
    : >"$scratch/times"
    for _ in $(seq "$runs"); do
      TIMEFORMAT='%R %U %S'
      { time "$workloads_dir/run.sh" "$name" "$size" >"$scratch/out" 2>"$scratch/err"; } 2>>"$scratch/times"
    done
    wall=$(awk '{ printf "%d\n", $1 * 1000 }' "$scratch/times" | median)
    cpu=$(awk '{ printf "%d\n", ($2 + $3) * 1000 }' "$scratch/times" | median)
    result=$(cat "$scratch/out")
    echo "| $name | $size | $wall | $cpu | \`${result#"$name "}\` |"
  done
done
echo
echo "Load average $(load) at the end."
