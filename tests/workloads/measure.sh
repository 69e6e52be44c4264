#!/usr/bin/env bash
# Measures plain (unrecorded) runs of the workloads: for each workload of workloads.toml (or
# those named as arguments), at sizes small, 2 x small, large and 2 x large, the median wall time
# of RUNS runs (default 3; environment variable RUNS) and the result line. Prints a Markdown
# table. Wall time includes JVM start-up; compilation happens before the first timed run.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

runs=${RUNS:-3}
if [ $# -gt 0 ]; then names=("$@"); else mapfile -t names < <(toml_sections); fi

echo "| workload | size | median wall ms (of $runs) | result |"
echo "| --- | ---: | ---: | --- |"
for name in "${names[@]}"; do
  WORKLOAD_COMPILE_ONLY=1 "$workloads_dir/run.sh" "$name" 1
  small=$(toml_get "$name" small) large=$(toml_get "$name" large)
  for size in $(printf "%s\n" "$small" $((2 * small)) "$large" $((2 * large)) | sort -n -u); do
    times=()
    for _ in $(seq "$runs"); do
      start=$(date +%s%N)
      result=$("$workloads_dir/run.sh" "$name" "$size")
      times+=($(( ($(date +%s%N) - start) / 1000000 )))
    done
    median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (runs + 1) / 2 ))p")
    echo "| $name | $size | $median | \`${result#"$name "}\` |"
  done
done
