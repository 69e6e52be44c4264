//! Speed of the query catalogue, SQL and the JEL export on a big synthetic trace
//! (docs/benchmarks.md, "Queries"):
//!
//!     cargo bench -p hindsight-core --bench queries [-- EVENTS [TRACE]]
//!
//! Builds (or reuses, when TRACE exists) a trace of about EVENTS events (default 10^7): two
//! threads; `main` calls `chunk`, which calls `step` 100 times; a step assigns locals, writes an
//! element of a 2000-element array and a field of one of 500 objects on numbered lines, and
//! every 97th step throws an exception its chunk catches. Then times the index-backed queries
//! (median and p90 of random instances) and the whole-history scans (events per second).

mod common;

use common::measure;

use std::time::Instant;

use hindsight_core::ids::{NodeId, ObjectId};
use hindsight_core::query::jel::{export, JelOptions};
use hindsight_core::query::sql::Sql;
use hindsight_core::query::{run, Request};
use hindsight_core::trace::recorder::{record, NullSink};
use hindsight_core::trace::store::{TraceReader, WriterConfig};
use hindsight_core::trace::synthetic::StreamBuilder;
use hindsight_core::trace::wire::{EventKind, Value};

const ARRAY: u32 = 2000;
const OBJECTS: u64 = 500;
const STEPS_PER_CHUNK: u32 = 100;
/// Events of one step: call, 3 lines, 2 locals, 1 array write, 1 field write, return, and the
/// caller's local.
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
    let other = s.thread("worker");
    let main_class = s.class("bench.Main", true);
    let cell_class = s.class("bench.Cell", true);
    let ints = s.class("int[]", false);
    let failure = s.class("java.lang.IllegalStateException", false);
    let main = s.method(
        main_class,
        "main",
        "([Ljava/lang/String;)V",
        true,
        &["args", "data"],
    );
    let chunk = s.method(main_class, "chunk", "([II)V", true, &["data", "c", "k"]);
    let step = s.method(
        main_class,
        "step",
        "([III)I",
        true,
        &["data", "i", "v", "j"],
    );
    let value = s.field(cell_class, "value", "I", false);
    s.call(other, main, &[Value::Null]);
    s.line(other, 5);
    s.ret(other, Value::Void);
    s.flush(other);
    s.call(t, main, &[Value::Null]);
    let data = s.new_array(t, ints, ARRAY, None);
    s.local(t, 1, Value::Object(data));
    let cells: Vec<ObjectId> = (0..OBJECTS).map(|_| s.new_object(t, cell_class)).collect();
    let chunks = events / (STEP_EVENTS * u64::from(STEPS_PER_CHUNK) + 4);
    let mut rng = Rng(0x9e3779b97f4a7c15);
    let mut n = 0u64;
    for c in 0..chunks {
        s.call(t, chunk, &[Value::Object(data), Value::Int(c as i32)]);
        s.line(t, 20);
        for k in 0..STEPS_PER_CHUNK {
            n += 1;
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
            s.line(t, 32);
            s.field_write(
                t,
                cells[rng.below(OBJECTS) as usize],
                value,
                Value::Int(k as i32),
            );
            if n.is_multiple_of(97) {
                let e = s.first_seen_object(t, failure);
                s.event(t, EventKind::Throw(Value::Object(e)));
                s.unwind(t, Value::Object(e));
                s.event(t, EventKind::Catch(Value::Object(e)));
            } else {
                s.ret(t, Value::Int(i));
            }
            s.local(t, 2, Value::Int(k as i32));
        }
        s.ret(t, Value::Void);
        s.line(t, 21);
        if c.is_multiple_of(64) {
            s.flush(t);
        }
    }
    s.ret(t, Value::Void);
    let bytes = s.end(0);
    let started = Instant::now();
    let summary = record(bytes.as_slice(), path, NullSink, WriterConfig::default())
        .expect("recording the synthetic stream");
    println!(
        "recorded {} events, {} nodes in {:.1} s",
        summary.events,
        summary.nodes,
        started.elapsed().as_secs_f64()
    );
}

/// Runs `f` `runs` times and prints the median rate of `units` per second.
fn rate(name: &str, runs: usize, units: &str, mut f: impl FnMut() -> u64) {
    let mut rates: Vec<(f64, f64, u64)> = (0..runs)
        .map(|_| {
            let started = Instant::now();
            let n = f();
            let secs = started.elapsed().as_secs_f64();
            (n as f64 / secs, secs, n)
        })
        .collect();
    rates.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (r, secs, n) = rates[runs / 2];
    println!(
        "{name:<48} median {:>6.2} M {units}/s   ({n} in {secs:.2} s; {runs} runs)",
        r / 1e6
    );
}

fn ask(reader: &TraceReader, name: &str, args: &[String]) -> serde_json::Value {
    let req = Request {
        name: name.into(),
        args: args.to_vec(),
        ..Request::default()
    };
    serde_json::to_value(run(reader, &req, None).unwrap_or_else(|e| panic!("{name}: {e}"))).unwrap()
}

fn main() {
    let (path, reader, info) = common::open_trace("queries", build);
    let last = info.last_ts;
    let nodes = info.nodes as u32;
    let mut rng = Rng(42);
    // Node ids: 0 root, 1-2 worker (thread, main), 3 main's thread, 4 main, then each chunk
    // followed by its steps.
    let per_chunk = STEPS_PER_CHUNK + 1;
    let chunks = (nodes - 5) / per_chunk;
    let runs = 51;
    let pick = |r: &mut Rng| (100 + r.below(last - 200)).to_string();
    measure("call-chain of a random event", runs, |_| {
        ask(&reader, "call-chain", &[pick(&mut rng)]);
    });
    measure("where of a random event", runs, |_| {
        ask(&reader, "where", &[pick(&mut rng)]);
    });
    measure("pre-event-called-methods of a random event", runs, |_| {
        ask(&reader, "pre-event-called-methods", &[pick(&mut rng)]);
    });
    measure(
        "call-tree of a random chunk (depth 2, 100 calls)",
        runs,
        |_| {
            let n = 5 + rng.below(u64::from(chunks)) as u32 * per_chunk;
            ask(&reader, "call-tree", &[NodeId(n).to_string()]);
        },
    );
    let cell = |r: &mut Rng| 2 + r.below(OBJECTS);
    measure(
        "object-state of a random cell at a random event",
        runs,
        |_| {
            let req = Request {
                name: "object-state".into(),
                args: vec![cell(&mut rng).to_string()],
                at: Some(100 + rng.below(last - 200)),
                ..Request::default()
            };
            run(&reader, &req, None).unwrap();
        },
    );
    measure("field-history of a random cell (first 100)", runs, |_| {
        ask(
            &reader,
            "field-history",
            &[cell(&mut rng).to_string(), "value".into()],
        );
    });
    measure("last-write of an element at a random event", runs, |_| {
        let req = Request {
            name: "last-write".into(),
            args: vec![format!("obj:1[{}]", rng.below(u64::from(ARRAY)))],
            at: Some(100 + rng.below(last - 200)),
            ..Request::default()
        };
        run(&reader, &req, None).unwrap();
    });
    measure("where-exception-is-thrown", runs, |_| {
        ask(&reader, "where-exception-is-thrown", &[]);
    });
    measure("threads", runs, |_| {
        ask(&reader, "threads", &[]);
    });
    let total = info.events;
    rate("calls step --where 'arg1 == 7' (scan)", 3, "events", || {
        let req = Request {
            name: "calls".into(),
            args: vec!["bench.Main.step".into()],
            condition: Some("arg1 == 7".into()),
            ..Request::default()
        };
        run(&reader, &req, None).unwrap();
        total
    });
    rate("executed Main.java:31 (scan)", 3, "events", || {
        ask(&reader, "executed", &["Main.java:31".into()]);
        total
    });
    rate("exceptions (scan)", 3, "events", || {
        ask(&reader, "exceptions", &[]);
        total
    });
    let mut writes = 0;
    rate("values 12345 (change-index scan)", 3, "writes", || {
        let v = ask(&reader, "values", &["12345".into()]);
        writes = v["scanned"]["total"].as_u64().unwrap_or(0);
        // Writes in the index: about one per array write, field write and local.
        info.events * 4 / 10
    });
    let sql = Sql::open(&path).unwrap();
    rate("SQL SELECT count(*) FROM events", 3, "rows", || {
        let r = sql.collect("SELECT count(*) FROM events", 1).unwrap();
        match r.rows[0][0] {
            hindsight_core::query::sql::SqlValue::Integer(n) => n as u64,
            _ => 0,
        }
    });
    rate(
        "SQL SELECT count(*) FROM writes WHERE value = '7'",
        3,
        "events",
        || {
            sql.collect("SELECT count(*) FROM writes WHERE value = '7'", 1)
                .unwrap();
            total
        },
    );
    rate(
        "JEL export of the whole run (to a sink)",
        3,
        "events",
        || {
            export(&reader, JelOptions::default(), std::io::sink(), None)
                .unwrap()
                .events
        },
    );
}
