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
# goes on over the whole tree, so it measures the first question and the complete tree. Two
# live sessions run right after each recorded run of a pair: one at the oracle's own pace
# (`behind-the-store`: it asks only while the store keeps pace), which gives the complete tree,
# "live / record" (the median of the pairs' ratios of the session's `tree_complete_ms` to the
# recorded run's `wall_ms`, both from the program's start; issue 17: at most 1.1), the questions
# before the tree was complete, the memory and the recorder's waits; and one asking a person
# (`--oracle interactive`, pace `ready`) whose input is empty, so that the session stops at the
# first question and then only takes in the recording: it gives the first question as a person
# gets it, and its own "live / record" (what taking in the tree costs, without questions). The
# live columns are medians over the pairs.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

pairs=${PAIRS:-3}
size_spec=${SIZE:-small}
hindsight=$(hindsight_binary) || exit 2
mapfile -t names < <(workload_names "$@")
if [ -n "${KEEP:-}" ]; then scratch=$KEEP; mkdir -p "$scratch"; else scratch=$(mktemp -d); trap 'rm -rf "$scratch"' EXIT; fi
printf '* => valid\n' >"$scratch/valid.answers"

now_ms() { date +%s%3N; }
load() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown; }

echo "Workloads at size $size_spec, $pairs plain/recorded pairs, $(date -u '+%Y-%m-%d %H:%M UTC');" \
  "$(nproc) CPUs; $(java -version 2>&1 | sed -n 2p); load average $(load) at the start."
echo
echo "| workload | size | nodes (calls) | events | trace MB | bytes/event | plain s | program recorded s | overhead | trace complete s | overhead to the trace | store CPU s | M events per CPU-s | trace complete, 1 store thread s | $(nproc) threads vs 1 | first node → first question ms (person) | first question ms (person) | tree complete s | live / record | live / record (person, no answer) | questions before complete | peak RSS MB | recorder waits |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for name in "${names[@]}"; do
  size=$(size_for "$name" "$size_spec")
  WORKLOAD_COMPILE_ONLY=1 "$workloads_dir/run.sh" "$name" 1
  expected=$("$workloads_dir/run.sh" "$name" "$size" 2>/dev/null)
  : >"$scratch/$name.ratios" && : >"$scratch/$name.plain" && : >"$scratch/$name.recorded"
  : >"$scratch/$name.program" && : >"$scratch/$name.program_ratios" && : >"$scratch/$name.cpu"
  for f in live live_ratios ready_ratios latency first before rss waits; do : >"$scratch/$name.$f"; done
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
    program=$(json_field "$scratch/$name.record.json" program_ms)
    json_field "$scratch/$name.record.json" recorder_cpu_ms >>"$scratch/$name.cpu"
    echo "$((t1 - t0))" >>"$scratch/$name.plain"
    echo "$((t2 - t1))" >>"$scratch/$name.recorded"
    echo "$program" >>"$scratch/$name.program"
    awk -v p=$((t1 - t0)) -v r=$((t2 - t1)) 'BEGIN { printf "%.3f\n", r / p }' >>"$scratch/$name.ratios"
    awk -v p=$((t1 - t0)) -v r="$program" 'BEGIN { printf "%.3f\n", r / p }' >>"$scratch/$name.program_ratios"
    record_ms=$(json_field "$scratch/$name.record.json" wall_ms)
    for oracle in answers:$scratch/valid.answers interactive; do
      d="$scratch/$name.debug.${oracle%%:*}.json"
      WORKLOAD_LAUNCHER="$hindsight debug --json --oracle $oracle -o $scratch/$name.live.htrace --" \
        "$workloads_dir/run.sh" "$name" "$size" >"$d" 2>"$scratch/$name.debug.${oracle%%:*}.err" </dev/null
      ratio=$(awk -v l="$(json_field "$d" tree_complete_ms)" -v r="$record_ms" 'BEGIN { printf "%.3f", l / r }')
      if [ "$oracle" = interactive ]; then
        echo "$ratio" >>"$scratch/$name.ready_ratios"
        json_field "$d" first_question_latency_ms >>"$scratch/$name.latency"
        json_field "$d" first_question_ms >>"$scratch/$name.first"
      else
        echo "$ratio" >>"$scratch/$name.live_ratios"
        json_field "$d" tree_complete_ms >>"$scratch/$name.live"
        json_field "$d" questions_before_complete >>"$scratch/$name.before"
        json_field "$d" peak_rss_bytes >>"$scratch/$name.rss"
        json_field "$d" session_waits >>"$scratch/$name.waits"
      fi
    done
  done
  "$hindsight" info --json "$scratch/$name.htrace" >"$scratch/$name.info.json"
  t0=$(now_ms)
  HINDSIGHT_STORE_THREADS=1 WORKLOAD_LAUNCHER="$hindsight record --json -o $scratch/$name.one.htrace --" \
    "$workloads_dir/run.sh" "$name" "$size" >"$scratch/$name.one.json" 2>/dev/null
  one_s=$(awk -v t=$(($(now_ms) - t0)) 'BEGIN { printf "%.2f", t / 1000 }')
  i="$scratch/$name.info.json"
  events=$(json_field "$i" events) nodes=$(json_field "$i" nodes) bytes=$(json_field "$i" bytes)
  complete_s=$(median <"$scratch/$name.live" | awk '{ printf "%.1f", $1 / 1000 }')
  latency=$(grep -v – "$scratch/$name.latency" | median | awk 'NF { printf "%.1f", $1 }')
  [ -n "$latency" ] || latency=–
  cpu_s=$(median <"$scratch/$name.cpu" | awk '{ print $1 / 1000 }')
  recorded_s=$(median <"$scratch/$name.recorded" | awk '{ print $1 / 1000 }')
  printf '| %s | %s | %s | %s | %.1f | %.1f | %.2f | %.2f | %.1f× | %.2f | %.1f× | %.2f | %.1f | %s | %.2f× | %s | %s | %s | %.2f× | %.2f× | %s | %.0f | %s |\n' \
    "$name" "$size" "$nodes" "$events" "$(awk -v b="$bytes" 'BEGIN { print b / 1e6 }')" \
    "$(awk -v b="$bytes" -v e="$events" 'BEGIN { print b / e }')" \
    "$(median <"$scratch/$name.plain" | awk '{ print $1 / 1000 }')" \
    "$(median <"$scratch/$name.program" | awk '{ print $1 / 1000 }')" \
    "$(median <"$scratch/$name.program_ratios")" \
    "$recorded_s" "$(median <"$scratch/$name.ratios")" \
    "$cpu_s" "$(awk -v e="$events" -v c="$cpu_s" 'BEGIN { print e / c / 1e6 }')" "$one_s" \
    "$(awk -v a="$one_s" -v b="$recorded_s" 'BEGIN { print a / b }')" "$latency" "$(median <"$scratch/$name.first")" "$complete_s" \
    "$(median <"$scratch/$name.live_ratios")" "$(median <"$scratch/$name.ready_ratios")" "$(median <"$scratch/$name.before")" \
    "$(median <"$scratch/$name.rss" | awk '{ print $1 / 1048576 }')" "$(median <"$scratch/$name.waits")"
done
echo
echo "Load average $(load) at the end."
