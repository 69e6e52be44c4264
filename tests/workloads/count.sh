#!/usr/bin/env bash
# Runs a workload under the counting agent of countagent/ (built into
# target/workloads/countagent/countagent.jar when a source changed), which prints on stderr how
# many calls, lines reached and writes the non-JDK code made: an independent estimate of the
# events a recorder sees.
#
#   tests/workloads/count.sh NAME SIZE [JVM_OPTION...]
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

if [ $# -lt 2 ]; then
  echo "usage: $0 NAME SIZE [JVM_OPTION...]" >&2
  exit 2
fi
asm=/usr/share/java/asm.jar
if [ ! -f "$asm" ]; then
  echo "count.sh: the counting agent needs $asm (Debian package libasm-java)" >&2
  exit 1
fi
sources="$workloads_dir/countagent"
out="$repo_root/target/workloads/countagent"
jar="$out/countagent.jar"
if [ ! -f "$jar" ] || [ -n "$(find "$sources" -name '*.java' -newer "$jar" -print -quit)" ]; then
  rm -rf "$out"
  mkdir -p "$out/classes"
  mapfile -t files < <(find "$sources" -name '*.java' | sort)
  javac --release 17 -Xlint:all -Werror -encoding UTF-8 -d "$out/classes" -cp "$asm" "${files[@]}"
  printf 'Premain-Class: workloads.countagent.Agent\n' >"$out/manifest"
  jar --create --file "$jar" --manifest "$out/manifest" -C "$out/classes" .
fi
exec "$workloads_dir/run.sh" "$@" "-javaagent:$jar=$asm"
