#!/usr/bin/env bash
# A person's first question on a busy machine (issue 17: at most 100 ms after the first call
# completes, docs/benchmarks.md, "The first question on a busy machine"). For each workload of
# workloads.toml (or those named as arguments) at SIZE (a number, or tiny, small or large from
# workloads.toml; default small), RUNS times (default 3): LOADERS busy loops (default 3) start,
# and half a second later `hindsight debug --json --oracle interactive -- java ...` with empty
# input, which stops at the first question and then takes in the recording. The loops end after
# LOAD_S seconds (default 5): long enough to cover the first question, short enough that the
# rest of the run is not starved. Prints one line per run: the workload, the first call's
# completion to the first question (ms, `first_question_latency_ms`), the program's start to the
# first question (ms) and to the complete tree (ms), then the median latency per workload.
#
#   HINDSIGHT  the binary (default target/release/hindsight of the repository)
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

runs=${RUNS:-3}
loaders=${LOADERS:-3}
load_s=${LOAD_S:-5}
size_spec=${SIZE:-small}
hindsight=$(hindsight_binary) || exit 2
mapfile -t names < <(workload_names "$@")
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT


echo "First question with $loaders busy loops for ${load_s} s, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start."
for name in "${names[@]}"; do
  size=$(size_for "$name" "$size_spec")
  WORKLOAD_COMPILE_ONLY=1 "$workloads_dir/run.sh" "$name" "$size" >/dev/null
  : >"$scratch/$name.latency"
  for _ in $(seq "$runs"); do
    for _ in $(seq "$loaders"); do timeout "$load_s" sh -c 'while :; do :; done' & done
    sleep 0.5
    d="$scratch/$name.json"
    WORKLOAD_LAUNCHER="$hindsight debug --json --oracle interactive -o $scratch/$name.htrace --" \
      "$workloads_dir/run.sh" "$name" "$size" >"$d" 2>"$scratch/$name.err" </dev/null
    wait
    latency=$(json_field "$d" first_question_latency_ms)
    echo "$name $latency $(json_field "$d" first_question_ms) $(json_field "$d" tree_complete_ms)"
    [ "$latency" = – ] || echo "$latency" >>"$scratch/$name.latency"
  done
  echo "$name median first node → first question: $(median <"$scratch/$name.latency") ms"
done
