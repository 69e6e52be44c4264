#!/usr/bin/env bash
# The workload benchmark of issue 5 (docs/benchmarks.md, "Workloads"): for each workload of
# workloads.toml (or those named as arguments) at SIZE (environment; a number, or tiny, small or
# large from workloads.toml; default small), prints one Markdown row with what the trace knows
# (nodes, events, trace bytes, bytes per event), the recording overhead, and what a live debugging
# session saw (first question, complete tree, peak resident memory of `hindsight`).
#
#   PAIRS   plain / recorded runs measured back to back (default 3); the overhead is the median
#           of the pairs' wall-time ratios, so that the machine's load drifts out: the program's
#           own time recorded (`program_ms` of `hindsight record --json`: the store indexes the
#           stream behind the program, from the spool) over its plain time, and the time until
#           the trace is complete over the plain time
#           The store's CPU time (`recorder_cpu_ms`) gives its ingest per CPU-second, and one more
#           recorded run with HINDSIGHT_STORE_THREADS=1 the time to the complete trace on one
#           thread, against the default (every core): the store's scaling with threads.
#   HINDSIGHT  the binary (default target/release/hindsight of the repository)
#   KEEP    a directory to keep the traces and JSON in (default: a temporary one, removed)
#
# The live session is `hindsight debug --json --oracle answers:FILE -- java ...` with every
# question answered `valid` (the run has no known bug): it asks while the program runs, then
# goes on over the whole tree, so it measures the first question and the complete tree.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

pairs=${PAIRS:-3}
size_spec=${SIZE:-small}
hindsight=${HINDSIGHT:-$repo_root/target/release/hindsight}
[ -x "$hindsight" ] || { echo "bench.sh: $hindsight not found: run 'cargo build --release -p hindsight-cli' first, or set HINDSIGHT" >&2; exit 2; }
if [ $# -gt 0 ]; then names=("$@"); else mapfile -t names < <(toml_sections); fi
if [ -n "${KEEP:-}" ]; then scratch=$KEEP; mkdir -p "$scratch"; else scratch=$(mktemp -d); trap 'rm -rf "$scratch"' EXIT; fi
printf '* => valid\n' >"$scratch/valid.answers"

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
now_ms() { date +%s%3N; }
json() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d[sys.argv[2]] if d.get(sys.argv[2]) is not None else "–")' "$@"; }
load() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown; }

echo "Workloads at size $size_spec, $pairs plain/recorded pairs, $(date -u '+%Y-%m-%d %H:%M UTC');" \
  "$(nproc) CPUs; $(java -version 2>&1 | sed -n 2p); load average $(load) at the start."
echo
echo "| workload | size | nodes (calls) | events | trace MB | bytes/event | plain s | program recorded s | overhead | trace complete s | overhead to the trace | store CPU s | M events per CPU-s | trace complete, 1 store thread s | $(nproc) threads vs 1 | first node → first question ms | first question ms | tree complete s | questions before complete | peak RSS MB | recorder waits |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for name in "${names[@]}"; do
  case "$size_spec" in
    tiny | small | large) size=$(toml_get "$name" "$size_spec") ;;
    *) size=$size_spec ;;
  esac
  [ -n "$size" ] || { echo "bench.sh: workload $name has no size '$size_spec' in $workloads_toml" >&2; exit 2; }
  WORKLOAD_COMPILE_ONLY=1 "$workloads_dir/run.sh" "$name" 1
  expected=$("$workloads_dir/run.sh" "$name" "$size" 2>/dev/null)
  : >"$scratch/$name.ratios" && : >"$scratch/$name.plain" && : >"$scratch/$name.recorded"
  : >"$scratch/$name.program" && : >"$scratch/$name.program_ratios" && : >"$scratch/$name.cpu"
  for _ in $(seq "$pairs"); do
    t0=$(now_ms)
    "$workloads_dir/run.sh" "$name" "$size" >/dev/null 2>&1
    t1=$(now_ms)
    # With --json the program's output goes to stderr, the recording's JSON to stdout.
    WORKLOAD_LAUNCHER="$hindsight record --json -o $scratch/$name.htrace --" \
      "$workloads_dir/run.sh" "$name" "$size" >"$scratch/$name.record.json" 2>"$scratch/$name.record.err"
    t2=$(now_ms)
    if ! grep -qxF -- "$expected" "$scratch/$name.record.err"; then
      echo "bench.sh: the recorded run of $name did not print '$expected' (see $scratch/$name.record.err)" >&2
      exit 1
    fi
    program=$(json "$scratch/$name.record.json" program_ms)
    json "$scratch/$name.record.json" recorder_cpu_ms >>"$scratch/$name.cpu"
    echo "$((t1 - t0))" >>"$scratch/$name.plain"
    echo "$((t2 - t1))" >>"$scratch/$name.recorded"
    echo "$program" >>"$scratch/$name.program"
    awk -v p=$((t1 - t0)) -v r=$((t2 - t1)) 'BEGIN { printf "%.3f\n", r / p }' >>"$scratch/$name.ratios"
    awk -v p=$((t1 - t0)) -v r="$program" 'BEGIN { printf "%.3f\n", r / p }' >>"$scratch/$name.program_ratios"
  done
  "$hindsight" info --json "$scratch/$name.htrace" >"$scratch/$name.info.json"
  t0=$(now_ms)
  HINDSIGHT_STORE_THREADS=1 WORKLOAD_LAUNCHER="$hindsight record --json -o $scratch/$name.one.htrace --" \
    "$workloads_dir/run.sh" "$name" "$size" >"$scratch/$name.one.json" 2>/dev/null
  one_s=$(awk -v t=$(($(now_ms) - t0)) 'BEGIN { printf "%.2f", t / 1000 }')
  WORKLOAD_LAUNCHER="$hindsight debug --json --oracle answers:$scratch/valid.answers -o $scratch/$name.live.htrace --" \
    "$workloads_dir/run.sh" "$name" "$size" >"$scratch/$name.debug.json" 2>"$scratch/$name.debug.err"
  i="$scratch/$name.info.json" d="$scratch/$name.debug.json"
  events=$(json "$i" events) nodes=$(json "$i" nodes) bytes=$(json "$i" bytes)
  complete_s=$(json "$d" tree_complete_ms)
  [ "$complete_s" = – ] || complete_s=$(awk -v v="$complete_s" 'BEGIN { printf "%.1f", v / 1000 }')
  latency=$(json "$d" first_question_latency_ms)
  [ "$latency" = – ] || latency=$(awk -v v="$latency" 'BEGIN { printf "%.1f", v }')
  cpu_s=$(median <"$scratch/$name.cpu" | awk '{ print $1 / 1000 }')
  recorded_s=$(median <"$scratch/$name.recorded" | awk '{ print $1 / 1000 }')
  printf '| %s | %s | %s | %s | %.1f | %.1f | %.2f | %.2f | %.1f× | %.2f | %.1f× | %.2f | %.1f | %s | %.2f× | %s | %s | %s | %s | %.0f | %s |\n' \
    "$name" "$size" "$nodes" "$events" "$(awk -v b="$bytes" 'BEGIN { print b / 1e6 }')" \
    "$(awk -v b="$bytes" -v e="$events" 'BEGIN { print b / e }')" \
    "$(median <"$scratch/$name.plain" | awk '{ print $1 / 1000 }')" \
    "$(median <"$scratch/$name.program" | awk '{ print $1 / 1000 }')" \
    "$(median <"$scratch/$name.program_ratios")" \
    "$recorded_s" "$(median <"$scratch/$name.ratios")" \
    "$cpu_s" "$(awk -v e="$events" -v c="$cpu_s" 'BEGIN { print e / c / 1e6 }')" "$one_s" \
    "$(awk -v a="$one_s" -v b="$recorded_s" 'BEGIN { print a / b }')" "$latency" "$(json "$d" first_question_ms)" "$complete_s" \
    "$(json "$d" questions_before_complete)" \
    "$(awk -v b="$(json "$d" peak_rss_bytes)" 'BEGIN { print b / 1048576 }')" "$(json "$d" session_waits)"
done
echo
echo "Load average $(load) at the end."
