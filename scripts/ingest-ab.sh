#!/usr/bin/env bash
# ingest-ab.sh STREAM RUNS BIN... -- [ARGS]: the ingest bench binaries (target/release/deps/ingest-*,
# copied per build) run alternately on a recorded wire stream; one line per run: binary,
# events per CPU-second, CPU s, recorder thread CPU s, wall s, bytes per event.
stream=$1 runs=$2; shift 2
bins=(); while [ $# -gt 0 ] && [ "$1" != -- ]; do bins+=("$1"); shift; done; shift
dir=$(mktemp -d "${TMPDIR:-/tmp}"/ingest-ab.XXXX)
uptime
for i in $(seq "$runs"); do
  for bin in "${bins[@]}"; do
    rm -f "$dir"/*
    "$bin" 0 "$dir" --stream "$stream" "$@" > "$dir.out" 2>&1
    awk -v b="$(basename "$bin")" '/events\/cpu-s/{e=$2; gsub(/\(/,"",$3); c=$3} /recorder thread/{r=$3} / in [0-9.]+ s$/{w=$(NF-1)} /bytes\/event/{bpe=$2} END{print b, e, c, r, w, bpe}' "$dir.out"
  done
done
rm -rf "$dir" "$dir.out"
uptime
