#!/usr/bin/env bash
# CI's slice of the workloads (issue 5, item 3): records each workload of workloads.toml (or
# those named as arguments) at its `tiny` size with `hindsight record`, and checks that
#   - the program printed exactly `expected_tiny` (recording changes nothing it computes),
#   - the JVM rejected no class (no VerifyError) and the program exited 0,
#   - the trace is complete: `hindsight info --json` says status complete, every node complete,
#     no agent warning (a class the agent could not instrument),
#   - a top-down debugging session over it runs to its end and blames `main`, the one call the
#     answers say is wrong.
# Prints `N passed, M failed`; exits 1 on a failure. HINDSIGHT names the binary (default
# target/release/hindsight of the repository).
set -uo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

hindsight=$(hindsight_binary) || exit 2
mapfile -t names < <(workload_names "$@")
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# main is said wrong and everything else right: the session must ask every call main made (those
# that are not trusted) and blame main itself.
printf 'workloads.*.Main.main => invalid\n* => valid\n' >"$scratch/answers"
passed=0 failed=0

fail() {
  echo "FAIL $1: $2"
  [ -f "$scratch/log" ] && sed 's/^/    /' "$scratch/log" | tail -20
  failed=$((failed + 1))
}

# field FILE KEY: a top-level value of a JSON file.
field() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get(sys.argv[2]))' "$@"; }

for name in "${names[@]}"; do
  size=$(toml_get "$name" tiny) expected=$(toml_get "$name" expected_tiny)
  if [ -z "$size" ] || [ -z "$expected" ]; then
    echo "FAIL $name: no such workload, or no tiny size and expected_tiny in $workloads_toml"
    failed=$((failed + 1))
    continue
  fi
  trace="$scratch/$name.htrace"
  : >"$scratch/log"
  if ! out=$(WORKLOAD_LAUNCHER="$hindsight record -o $trace --" "$workloads_dir/run.sh" "$name" "$size" 2>"$scratch/log"); then
    fail "$name" "the recorded run at size $size exited with an error"
    continue
  fi
  if [ "$out" != "$expected" ]; then
    printf 'expected: %s\nactual:   %s\n' "$expected" "$out" >>"$scratch/log"
    fail "$name" "the recorded run printed something else than expected_tiny"
    continue
  fi
  if grep -qE 'VerifyError|ClassFormatError' "$scratch/log"; then
    fail "$name" "the JVM rejected an instrumented class"
    continue
  fi
  if ! "$hindsight" info --json "$trace" >"$scratch/info.json" 2>"$scratch/log"; then
    fail "$name" "hindsight info failed on the trace"
    continue
  fi
  status=$(field "$scratch/info.json" status) nodes=$(field "$scratch/info.json" nodes)
  complete=$(field "$scratch/info.json" complete_nodes) exit_status=$(field "$scratch/info.json" exit_status)
  warnings=$(field "$scratch/info.json" warnings)
  if [ "$status" != complete ] || [ "$nodes" != "$complete" ] || [ "$nodes" -lt 1000 ] || [ "$exit_status" != 0 ] || [ "$warnings" != 0 ]; then
    cp "$scratch/info.json" "$scratch/log"
    fail "$name" "the trace is not a clean complete recording (status $status, $complete of $nodes nodes complete, exit status $exit_status, $warnings agent warnings)"
    continue
  fi
  if ! "$hindsight" debug --json --strategy top-down --oracle "answers:$scratch/answers" "$trace" >"$scratch/debug.json" 2>"$scratch/log"; then
    fail "$name" "the debugging session over the trace failed"
    continue
  fi
  result=$(field "$scratch/debug.json" result) questions=$(field "$scratch/debug.json" questions)
  method=$(python3 -c 'import json,sys; print((json.load(open(sys.argv[1])).get("buggy_node") or {}).get("method"))' "$scratch/debug.json")
  if [ "$result" != bug ] || [ "$method" != "workloads.$name.Main.main" ] || [ "$questions" -lt 2 ]; then
    cp "$scratch/debug.json" "$scratch/log"
    fail "$name" "the session ended '$result' blaming '$method' after $questions questions, not main"
    continue
  fi
  echo "ok   $name (size $size): $nodes nodes, $(field "$scratch/info.json" events) events, $questions questions"
  passed=$((passed + 1))
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
