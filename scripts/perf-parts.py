#!/usr/bin/env python3
"""Where the store's time goes: classifies the samples of `perf script -F tid,ip,sym` (a
`perf record --call-graph dwarf` of the ingest bench) by the first part of the store found on
each sample's stack, from the leaf up, and prints each part's share and its seconds at the
sampling frequency. Usage: perf script -i perf.data -F tid,ip,sym | perf-parts.py HZ
"""
import collections
import sys

# Frames that say nothing about the part (shared helpers), skipped while looking up the stack.
GENERIC = ("wire::value::put_value", "wire::value::read_value", "wire::bytes::")
GENERIC_PREFIX = ("lz4_flex::", "core::", "alloc::", "std::", "hashbrown::", "rayon",
                  "crossbeam", "_", "malloc", "free", "cfree", "realloc", "tcache", "[unknown]",
                  "unlink", "sysmalloc")


def generic(f):
    name = f.lstrip("<&")
    return name.startswith(GENERIC_PREFIX) or any(g in f for g in GENERIC)
# (part, patterns), the first frame matching any part's pattern decides.
PARTS = [
    ("coverage", ("coverage::", "CoveragePage")),
    ("change index", ("store::index", "seal::segment", "store::compact", "store::postings",
                      "seal_index", "seal::sort_entries")),
    ("event blocks", ("store::block", "put_event_ext", "seal_blocks", "store::blocks",
                      "copy_event")),
    ("nodes", ("node_window", "node_pages", "seal_nodes")),
    ("SQLite", ("rusqlite", "sqlite3", "TraceWriter::commit_transaction", "store_sealed",
                "committer::Committer::insert")),
    ("decoding the wire", ("wire::decoder", "read_event", "read_kind", "wire::frame",
                           "wire::raw", "RawEvents", "hindsight-decoder")),
    ("objects, strings, contents", ("recorder::content", "TraceWriter::object",
                                    "flush_objects", "TraceWriter::string")),
    ("recorder (stacks, calls, loops)", ("recorder::",)),
    ("writer (other)", ("store::",)),
]


def classify(frames):
    for f in frames:
        if generic(f):
            continue
        for part, pats in PARTS:
            if any(p in f for p in pats):
                return part
    for f in frames:
        for part, pats in PARTS:
            if any(p in f for p in pats):
                return part
    return "other"


def samples(lines):
    frames = []
    for line in lines:
        if not line.strip():
            if frames:
                yield frames
            frames = []
        elif line.startswith("\t"):
            frames.append(line.strip().split(" ", 1)[-1])
        else:
            frames = []
    if frames:
        yield frames


def main():
    hz = float(sys.argv[1]) if len(sys.argv) > 1 else 100.0
    counts = collections.Counter()
    for frames in samples(sys.stdin):
        joined = "\n".join(frames)
        if "ingest::generate" in joined or "std::fs::read" in joined:
            continue
        if "hindsight_core" not in joined:
            counts["outside the store"] += 1
            continue
        counts[classify(frames)] += 1
    total = sum(v for k, v in counts.items() if k != "outside the store")
    for part, n in counts.most_common():
        print(f"{part:34} {n / hz:7.2f} s  {100 * n / max(total, 1):5.1f} %")
    print(f"{'total (store)':34} {total / hz:7.2f} s")


main()
