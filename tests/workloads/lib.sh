# Shared by run.sh and check.sh: reads workloads.toml, whose values are written one per line as
# `key = "string"`, `key = 123` or `key = ["a", "b"]` (no commas or quotes inside strings).
# shellcheck shell=bash

workloads_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo_root=$(cd "$workloads_dir/../.." && pwd)
workloads_toml="$workloads_dir/workloads.toml"

# The names of the workloads: the [sections] of workloads.toml, in order.
toml_sections() {
  sed -n 's/^\[\([A-Za-z0-9_-]*\)\][[:space:]]*$/\1/p' "$workloads_toml"
}

# toml_get SECTION KEY: the value of KEY in [SECTION], one array element per line, quotes removed.
# Prints nothing if the key is absent.
toml_get() {
  awk -v section="$1" -v key="$2" '
    /^\[/ { current = $0; gsub(/^\[|\][[:space:]]*$/, "", current); next }
    current == section {
      line = $0
      if (line !~ "^" key "[[:space:]]*=") next
      sub(/^[^=]*=[[:space:]]*/, "", line)
      sub(/[[:space:]]+#.*$/, "", line)
      if (line ~ /^\[/) {
        gsub(/^\[|\][[:space:]]*$/, "", line)
        n = split(line, items, /,[[:space:]]*/)
        for (i = 1; i <= n; i++) {
          v = items[i]
          gsub(/^[[:space:]]*"|"[[:space:]]*$/, "", v)
          if (v != "") print v
        }
      } else {
        gsub(/^"|"[[:space:]]*$/, "", line)
        print line
      }
      exit
    }' "$workloads_toml"
}

# A path from workloads.toml made absolute: relative paths are relative to the repository root.
absolute() {
  case "$1" in
    /*) printf '%s\n' "$1" ;;
    *) printf '%s\n' "$repo_root/$1" ;;
  esac
}

# size_for NAME SPEC: the size SPEC names for workload NAME (tiny, small or large as
# workloads.toml gives them, or a number as it is); fails, naming the calling script, when the
# workload has no such size.
size_for() {
  local size
  case "$2" in
    tiny | small | large) size=$(toml_get "$1" "$2") ;;
    *) size=$2 ;;
  esac
  if [ -z "$size" ]; then
    echo "$(basename "$0"): workload $1 has no size '$2' in $workloads_toml" >&2
    return 2
  fi
  printf '%s\n' "$size"
}

# median: the median of the numbers on stdin, one per line (nothing for no number).
median() {
  sort -g | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# The hindsight binary a script runs: HINDSIGHT, else the repository's release build; says so
# and fails when it is missing (`hindsight=$(hindsight_binary) || exit 2`).
hindsight_binary() {
  local bin=${HINDSIGHT:-$repo_root/target/release/hindsight}
  [ -x "$bin" ] || { echo "$(basename "$0"): $bin not found: run 'cargo build --release -p hindsight-cli' first, or set HINDSIGHT" >&2; return 2; }
  echo "$bin"
}

# The workloads a script was given as arguments, else every one of workloads.toml; a line each.
workload_names() {
  if [ $# -gt 0 ]; then printf '%s\n' "$@"; else toml_sections; fi
}

# Field KEY of the JSON object in FILE: "–" when it is missing or null, a fraction rounded to a
# tenth.
json_field() {
  python3 -c 'import json,sys; v=json.load(open(sys.argv[1])).get(sys.argv[2]); print("–" if v is None else (round(v, 1) if isinstance(v, float) else v))' "$@"
}
