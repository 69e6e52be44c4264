//! Speed of the back-in-time queries on a big synthetic trace (docs/benchmarks.md):
//!
//!     cargo bench -p hindsight-core --bench omniscient [-- EVENTS [TRACE]]
//!
//! Builds (or reuses, when TRACE exists) a trace of about EVENTS events (default 10^7): one
//! thread, `main` calling `chunk` calls that each call `step` 100 times; a step assigns locals,
//! writes an element of a 2000-element array and a field of one of 500 objects, on numbered
//! lines. Then prints the median and the 90th percentile of: a cold open, the state of a random
//! step or chunk at a random moment, a page of 100 events of a random chunk, the history of a
//! random array element and of a random field (a page of 20 changes, and all of them), and the
//! origin of a random element's value. TRACE defaults to
//! `$TMPDIR/hindsight-omniscient-EVENTS-vFORMAT.htrace`.

mod common;

use common::measure;

use std::time::Instant;

use hindsight_core::ids::{NodeId, ObjectId, Timestamp};
use hindsight_core::omniscient::{history, node_events, node_state, origin, RenderLimits, VarPath};
use hindsight_core::trace::recorder::{record, NullSink};
use hindsight_core::trace::store::{TraceReader, WriterConfig};
use hindsight_core::trace::synthetic::StreamBuilder;
use hindsight_core::trace::wire::Value;

const ARRAY: u32 = 2000;
const OBJECTS: u64 = 500;
const STEPS_PER_CHUNK: u32 = 100;
/// Events of one step: call, 3 lines, 3 locals, 1 array write, 1 field write, return.
const STEP_EVENTS: u64 = 10;

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n.max(1)
    }
}

fn build(events: u64, path: &std::path::Path) {
    let mut s = StreamBuilder::new();
    let t = s.thread("main");
    let main_class = s.class("bench.Main", true);
    let node_class = s.class("bench.Cell", true);
    let ints = s.class("int[]", false);
    let main = s.method(
        main_class,
        "main",
        "([Ljava/lang/String;)V",
        true,
        &["args", "data", "cells"],
    );
    let chunk = s.method(main_class, "chunk", "([II)V", true, &["data", "c", "k"]);
    let step = s.method(
        main_class,
        "step",
        "([III)V",
        true,
        &["data", "i", "v", "j"],
    );
    let value = s.field(node_class, "value", "I", false);
    s.call(t, main, &[Value::Null]);
    let data = s.new_array(t, ints, ARRAY, None);
    s.local(t, 1, Value::Object(data));
    let cells: Vec<ObjectId> = (0..OBJECTS).map(|_| s.new_object(t, node_class)).collect();
    let chunks = events / (STEP_EVENTS * u64::from(STEPS_PER_CHUNK) + 4);
    let mut rng = Rng(0x9e3779b97f4a7c15);
    for c in 0..chunks {
        s.call(t, chunk, &[Value::Object(data), Value::Int(c as i32)]);
        s.line(t, 20);
        for k in 0..STEPS_PER_CHUNK {
            let i = rng.below(u64::from(ARRAY)) as i32;
            s.call(
                t,
                step,
                &[Value::Object(data), Value::Int(i), Value::Int(k as i32)],
            );
            s.line(t, 30);
            s.local(t, 3, Value::Int(i + 1));
            s.line(t, 31);
            s.array_write(t, data, i as u32, Value::Int(c as i32 * 7 + k as i32));
            s.local(t, 2, Value::Int(k as i32 + 1));
            s.line(t, 32);
            s.field_write(
                t,
                cells[rng.below(OBJECTS) as usize],
                value,
                Value::Int(k as i32),
            );
            s.ret(t, Value::Void);
            s.local(t, 2, Value::Int(k as i32));
        }
        s.ret(t, Value::Void);
        s.line(t, 21);
        if c % 64 == 0 {
            s.flush(t);
        }
    }
    s.ret(t, Value::Void);
    let bytes = s.end(0);
    let started = Instant::now();
    let summary = record(bytes.as_slice(), path, NullSink, WriterConfig::default())
        .expect("recording the synthetic stream");
    let secs = started.elapsed().as_secs_f64();
    println!(
        "recorded {} events, {} nodes in {secs:.1} s ({:.0} events/s)",
        summary.events,
        summary.nodes,
        summary.events as f64 / secs
    );
}

fn main() {
    let (path, reader, info) = common::open_trace("omniscient", build);
    let nodes = info.nodes as u32;
    let limits = RenderLimits::default();
    let mut rng = Rng(42);
    // Node ids: 0 root, 1 thread, 2 main, then each chunk followed by its steps.
    let per_chunk = STEPS_PER_CHUNK + 1;
    let chunks = (nodes - 3) / per_chunk;
    let chunk_node = |r: &mut Rng| NodeId(3 + r.below(u64::from(chunks)) as u32 * per_chunk);
    let step_node =
        |r: &mut Rng| NodeId(chunk_node(r).0 + 1 + r.below(u64::from(STEPS_PER_CHUNK)) as u32);
    let span = |n: NodeId| {
        let h = reader.node(n).unwrap().unwrap().header;
        (h.entry, h.exit.unwrap())
    };
    let runs = 101;

    measure("cold open (open + info + a node state)", 21, |_| {
        let r = TraceReader::open(&path).unwrap();
        r.info().unwrap();
        node_state(&r, NodeId(3), None, &[], limits).unwrap();
    });
    let mut pick = Rng(7);
    measure("state of a step at a random moment", runs, |_| {
        let n = step_node(&mut pick);
        let (entry, exit) = span(n);
        let at = entry + pick.below(exit - entry + 1);
        node_state(&reader, n, Some(at), &[], limits).unwrap();
    });
    measure("state of a chunk at a random moment", runs, |_| {
        let n = chunk_node(&mut pick);
        let (entry, exit) = span(n);
        let at = entry + pick.below(exit - entry + 1);
        node_state(&reader, n, Some(at), &[], limits).unwrap();
    });
    measure("page of 100 events of a chunk, marked", runs, |_| {
        let n = chunk_node(&mut pick);
        let (entry, exit) = span(n);
        let from = entry + pick.below(exit - entry);
        let var = VarPath::parse(&format!("{n}:data[{}]", pick.below(u64::from(ARRAY)))).unwrap();
        node_events(&reader, n, from, 100, Some(&var)).unwrap();
    });
    let data = VarPath::parse("2:data").unwrap();
    let array = ObjectId(1);
    measure("index only: the writes of an element", runs, |_| {
        let loc = hindsight_core::omniscient::Variable::Element {
            array,
            index: rng.below(u64::from(ARRAY)) as u32,
        };
        reader.history(loc).unwrap();
    });
    let thread = hindsight_core::ids::ThreadId(1);
    measure("the event at a random timestamp", runs, |_| {
        reader
            .thread_event_at(thread, 100 + rng.below(info.last_ts - 100))
            .unwrap();
    });
    let mut entries = 0;
    measure("history of an array element, first 20", runs, |_| {
        let p = data.child(hindsight_core::omniscient::Step::Index(
            rng.below(u64::from(ARRAY)) as u32,
        ));
        entries += history(&reader, &p, None, 0, Some(20), limits)
            .unwrap()
            .total;
    });
    println!("    ({} changes per element on average)", entries / runs);
    measure("history of an array element, all", 21, |_| {
        let p = data.child(hindsight_core::omniscient::Step::Index(
            rng.below(u64::from(ARRAY)) as u32,
        ));
        history(&reader, &p, None, 0, None, limits).unwrap();
    });
    let first_cell = 2; // objects: 1 is the array, then the cells
    let mut entries = 0;
    measure("history of a field, first 20", runs, |_| {
        let p = VarPath::parse(&format!("obj:{}.value", first_cell + rng.below(OBJECTS))).unwrap();
        entries += history(&reader, &p, None, 0, Some(20), limits)
            .unwrap()
            .total;
    });
    println!("    ({} changes per field on average)", entries / runs);
    measure("history of a field, all", 21, |_| {
        let p = VarPath::parse(&format!("obj:{}.value", first_cell + rng.below(OBJECTS))).unwrap();
        history(&reader, &p, None, 0, None, limits).unwrap();
    });
    let source = |_: &str, _: &str| Some("\n".repeat(30) + "        data[i] = c * 7 + k;\n");
    let last = info.last_ts;
    measure("origin of an element's value", runs, |_| {
        let p = data.child(hindsight_core::omniscient::Step::Index(
            rng.below(u64::from(ARRAY)) as u32,
        ));
        let at: Timestamp = 100 + rng.below(last - 100);
        origin(&reader, &p, at, &source, limits).unwrap();
    });
}
