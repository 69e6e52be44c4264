#!/usr/bin/env bash
# Runs every workload of workloads.toml (or those named as arguments) at its small size twice,
# and checks that each run exits 0, that both print the same result, and that the result is the
# recorded `expected_small` when there is one. Prints `N passed, M failed`; exits 1 on a failure.
set -uo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

if [ $# -gt 0 ]; then names=("$@"); else mapfile -t names < <(toml_sections); fi
passed=0 failed=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

fail() {
  echo "FAIL $1: $2"
  sed 's/^/    /' "$log"
  failed=$((failed + 1))
}

for name in "${names[@]}"; do
  size=$(toml_get "$name" small)
  if [ -z "$size" ]; then
    echo "FAIL $name: no such workload, or no small size in $workloads_toml"
    failed=$((failed + 1))
    continue
  fi
  if ! first=$("$workloads_dir/run.sh" "$name" "$size" 2>"$log"); then
    fail "$name" "first run at size $size exited with an error"
    continue
  fi
  if ! second=$("$workloads_dir/run.sh" "$name" "$size" 2>"$log"); then
    fail "$name" "second run at size $size exited with an error"
    continue
  fi
  if [ "$first" != "$second" ]; then
    printf 'first:  %s\nsecond: %s\n' "$first" "$second" >"$log"
    fail "$name" "two runs at size $size printed different results"
    continue
  fi
  expected=$(toml_get "$name" expected_small)
  if [ -n "$expected" ] && [ "$first" != "$expected" ]; then
    printf 'expected: %s\nactual:   %s\n' "$expected" "$first" >"$log"
    fail "$name" "the result at size $size is not expected_small"
    continue
  fi
  echo "ok   $name (size $size): $first"
  passed=$((passed + 1))
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
