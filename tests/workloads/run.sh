#!/usr/bin/env bash
# Compiles one workload (javac --release 17 into target/workloads/NAME/classes of the repository)
# and runs it plainly at SIZE, with any extra JVM options placed before the main class:
#
#   tests/workloads/run.sh NAME SIZE [JVM_OPTION...]
#
# The program prints its one-line result on stdout. WORKLOAD_LAUNCHER, if set, is put in front of
# the java command (e.g. WORKLOAD_LAUNCHER="hindsight record --"), and WORKLOAD_COMPILE_ONLY=1
# compiles without running. Workloads are described in workloads.toml.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

if [ $# -lt 2 ]; then
  echo "usage: $0 NAME SIZE [JVM_OPTION...]   (NAME is one of: $(toml_sections | tr '\n' ' '))" >&2
  exit 2
fi
name=$1 size=$2
shift 2
main=$(toml_get "$name" main)
if [ -z "$main" ]; then
  echo "run.sh: no workload '$name' in $workloads_toml; known: $(toml_sections | tr '\n' ' ')" >&2
  exit 2
fi

classpath=()
while IFS= read -r jar; do
  if [ ! -f "$jar" ]; then
    echo "run.sh: $name needs $jar; install the packages in $workloads_dir/packages.txt" >&2
    exit 1
  fi
  classpath+=("$jar")
done < <(toml_get "$name" classpath)

classes="$repo_root/target/workloads/$name/classes"
sources=()
while IFS= read -r dir; do sources+=("$(absolute "$dir")"); done < <(toml_get "$name" sources)
stamp="$classes/.compiled"
if [ ! -f "$stamp" ] || [ -n "$(find "${sources[@]}" -name '*.java' -newer "$stamp" -print -quit)" ]; then
  # Compile aside and then swap in, so that a failed compilation leaves no half-built directory.
  fresh="$classes.new.$$"
  rm -rf "$fresh"
  mkdir -p "$fresh"
  mapfile -t files < <(find "${sources[@]}" -name '*.java' | sort)
  if ! javac --release 17 -Xlint:all -Werror -encoding UTF-8 -d "$fresh" \
    -cp "$(IFS=:; echo "${classpath[*]}")" "${files[@]}"; then
    rm -rf "$fresh"
    echo "run.sh: compiling $name failed" >&2
    exit 1
  fi
  touch "$fresh/.compiled"
  rm -rf "$classes"
  mv "$fresh" "$classes"
fi
[ "${WORKLOAD_COMPILE_ONLY:-0}" = 1 ] && exit 0

mapfile -t jvm_options < <(toml_get "$name" jvm_options)
inputs=()
while IFS= read -r input; do inputs+=("$(absolute "$input")"); done < <(toml_get "$name" inputs)
read -r -a launcher <<< "${WORKLOAD_LAUNCHER:-}"
exec ${launcher[@]+"${launcher[@]}"} java ${jvm_options[@]+"${jvm_options[@]}"} "$@" \
  -cp "$classes:$(IFS=:; echo "${classpath[*]}")" "$main" "$size" ${inputs[@]+"${inputs[@]}"}
