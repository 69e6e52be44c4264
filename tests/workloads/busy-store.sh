#!/usr/bin/env bash
# The complete trace on a machine that stays busy (docs/benchmarks.md, "The store on a machine
# that stays busy"). For each workload of workloads.toml (or those named as arguments) at SIZE
# (a number, or tiny, small or large from workloads.toml; default small), RUNS times (default
# 1): LOADERS busy loops (default 4) start and run until the recording ends, and half a second
# later `hindsight record --json -- java ...`, stopped after CAP_S seconds (default 300). The
# store runs behind the program while it runs; once it has ended, only the store is left to
# wait for. Prints one line per run: the workload, the program's own time and the time to the
# complete trace (ms, `program_ms` and `wall_ms`), or that the trace was not complete in CAP_S.
# With ORACLE set (`answers:FILE`, `interactive`, ...), a live `hindsight debug --json --oracle
# ORACLE` runs instead (with empty input), and the time is to its complete tree
# (`tree_complete_ms`).
#
#   HINDSIGHT  the binary (default target/release/hindsight of the repository)
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

runs=${RUNS:-1}
loaders=${LOADERS:-4}
cap_s=${CAP_S:-300}
size_spec=${SIZE:-small}
hindsight=$(hindsight_binary) || exit 2
mapfile -t names < <(workload_names "$@")
scratch=$(mktemp -d)
loops=()
stop_loops() { [ ${#loops[@]} -eq 0 ] || kill "${loops[@]}" 2>/dev/null || true; loops=(); }
trap 'stop_loops; rm -rf "$scratch"' EXIT


echo "The complete trace with $loaders busy loops throughout, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start, $hindsight."
for name in "${names[@]}"; do
  size=$(size_for "$name" "$size_spec")
  WORKLOAD_COMPILE_ONLY=1 "$workloads_dir/run.sh" "$name" "$size" >/dev/null
  for _ in $(seq "$runs"); do
    for _ in $(seq "$loaders"); do sh -c 'while :; do :; done' & loops+=($!); done
    sleep 0.5
    d="$scratch/$name.json"
    status=0
    if [ -n "${ORACLE:-}" ]; then
      launch="debug --json --oracle $ORACLE" program=""
    else
      launch="record --json" program=program_ms
    fi
    WORKLOAD_LAUNCHER="timeout $cap_s $hindsight $launch -o $scratch/$name.htrace --" \
      "$workloads_dir/run.sh" "$name" "$size" >"$d" 2>"$scratch/$name.err" </dev/null || status=$?
    stop_loops
    if [ "$status" = 124 ]; then
      echo "$name size $size: the trace was not complete after $cap_s s"
    elif [ "$status" != 0 ]; then
      echo "$name size $size: hindsight $launch failed (status $status):" >&2
      tail -5 "$scratch/$name.err" >&2
      exit 1
    else
      if [ -n "$program" ]; then
        echo "$name size $size: program $(json_field "$d" program_ms) ms, complete trace $(json_field "$d" wall_ms) ms"
      else
        echo "$name size $size: complete tree $(json_field "$d" tree_complete_ms) ms"
      fi
    fi
  done
done
