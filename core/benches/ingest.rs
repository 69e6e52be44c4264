//! Ingest and query benchmark of the trace store (issue 2 item 10, issue 3 item 9).
//!
//! Builds a synthetic stream of realistic events (calls, lines, basic blocks, local/field/array
//! writes, field/array/static reads, objects, external calls, two threads; methods have block
//! tables so that coverage is computed as in a real recording), records it into a trace file and reports events per
//! second, bytes per event, and the median/max time of value and event queries.
//!
//! Run: `cargo bench -p hindsight-core --bench ingest -- [EVENTS] [DIR] [--threaded]
//! [--ingest-only] [--threads N] [--stream FILE] [--commit-events N] [--cfg-walk] [--loops]`
//! (default 10^7 events in a temporary directory; `--threaded` decodes on a thread of its own,
//! `record_threaded`; `--threads N` seals commits on N threads, `WriterConfig::threads`, default
//! every core; `--stream FILE` ingests a recorded wire stream, e.g. an agent's `file=` output,
//! instead of the synthetic one, and implies `--ingest-only`; `--commit-events N` commits every
//! N events and never by time, so that a run does the same work however fast the machine is).
//! With `--cfg-walk` each frame's `BLOCK` events follow the control flow graph [`LOOP_CFG`] (two
//! nested loops) instead of jumping anywhere; `--loops` sends that graph as the methods'
//! successor tables too, so the recorder finds the
//! loops and makes loop and iteration nodes: the same stream with and without loop detection.

use std::time::{Duration, Instant};

use hindsight_core::ids::{NodeId, ObjectId, ThreadId};
use hindsight_core::trace::recorder::{record, record_threaded, NullSink};
use hindsight_core::trace::store::{TraceReader, Variable, WriterConfig};
use hindsight_core::trace::synthetic::{block_def, StreamBuilder};
use hindsight_core::trace::wire::{EventKind, Value};

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

const ARRAYS: u64 = 20;
const BLOCKS: u32 = 8;
/// The successors of the eight blocks: 1 heads an outer loop (1..=6), 3 an inner one (3, 4);
/// 7 ends the method (the walk then starts over at 0).
const LOOP_CFG: [&[u32]; 8] = [&[1], &[2, 7], &[3], &[4, 5], &[3], &[6, 1], &[1], &[]];
const ARRAY_LEN: u32 = 1000;

struct Program {
    objects: Vec<ObjectId>,
    arrays: Vec<ObjectId>,
}

/// Writes `n` events or a little more; proportions as in CPU-bound Java code. `walk`: blocks
/// follow [`LOOP_CFG`]; `loops`: the methods' tables carry it as successors.
fn generate(n: u64, walk: bool, loops: bool) -> (Vec<u8>, Program) {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let mut s = StreamBuilder::new();
    let cls = s.class("bench.Work", true);
    let arr_cls = s.class("int[]", false);
    let jdk = s.class("java.lang.Math", false);
    let fields: Vec<_> = (0..4)
        .map(|i| s.field(cls, &format!("f{i}"), "I", false))
        .collect();
    let stat = s.field(cls, "COUNT", "I", true);
    // Eight blocks per method, each with a mix of effects (kinds as on the wire).
    let blocks: Vec<_> = (0..BLOCKS)
        .map(|b| {
            let v = b % 6;
            let f = 1 + b % 4;
            block_def(
                b * 7,
                if b % 2 == 0 { 10 + b } else { 0 },
                &[
                    (1, v),
                    (0, (v + 1) % 6),
                    (3, f),
                    (5, 0),
                    (1, 0),
                    (4, 0),
                    (2, f),
                    (0, v),
                    (7, 5),
                ],
            )
        })
        .collect();
    let blocks = if loops {
        hindsight_core::trace::synthetic::with_successors(blocks, &LOOP_CFG)
    } else {
        blocks
    };
    let methods: Vec<_> = (0..40)
        .map(|i| {
            s.method_with_blocks(
                cls,
                &format!("m{i}"),
                "(II)I",
                true,
                &["a", "b", "i", "j", "k", "x"],
                blocks.clone(),
            )
        })
        .collect();
    let ext = s.external_method(jdk, "max", "(II)I");
    let threads: Vec<ThreadId> = vec![s.thread("main"), s.thread("worker")];
    let mut depth = [0u32; 2];
    // With `walk`: the block each open frame is in, per thread.
    let mut at: [Vec<u32>; 2] = [Vec::new(), Vec::new()];
    let mut arrays = Vec::new();
    for _ in 0..ARRAYS {
        arrays.push(s.new_array(threads[0], arr_cls, ARRAY_LEN, None));
    }
    let mut objects: Vec<ObjectId> = Vec::new();
    let mut count = 0u64;
    let mut since_flush = [0u32; 2];
    while count < n {
        let ti = usize::from(rng.below(10) == 0);
        let t = threads[ti];
        let small = Value::Int(rng.below(100) as i32);
        if depth[ti] == 0 {
            s.call(t, methods[0], &[small, small]);
            at[ti].push(BLOCKS);
            depth[ti] = 1;
            count += 1;
            continue;
        }
        let p = rng.below(100);
        match p {
            // Version 2: most lines start with a block and have no LINE event of their own.
            0..=14 => {
                s.line(t, 10 + rng.below(40) as u32);
            }
            15..=34 if walk => {
                let cur = at[ti].last_mut().expect("a frame is open");
                let succ: &[u32] = LOOP_CFG.get(*cur as usize).copied().unwrap_or(&[]);
                *cur = if succ.is_empty() {
                    0
                } else {
                    succ[rng.below(succ.len() as u64) as usize]
                };
                s.block(t, *cur);
            }
            15..=34 => {
                s.block(t, rng.below(u64::from(BLOCKS)) as u32);
            }
            35..=41 => {
                let a = arrays[rng.below(ARRAYS) as usize];
                s.array_read(t, a, rng.below(u64::from(ARRAY_LEN)) as u32);
            }
            42..=47 if !objects.is_empty() => {
                let o =
                    objects[objects.len() - 1 - rng.below(objects.len().min(5000) as u64) as usize];
                s.field_read(t, o, fields[rng.below(4) as usize]);
            }
            48 => {
                s.static_read(t, stat);
            }
            49..=59 => {
                s.local(t, rng.below(6) as u32, small);
            }
            60..=69 => {
                let a = arrays[rng.below(ARRAYS) as usize];
                s.array_write(
                    t,
                    a,
                    rng.below(u64::from(ARRAY_LEN)) as u32,
                    Value::Int(rng.below(1_000_000) as i32),
                );
            }
            70..=77 if !objects.is_empty() => {
                let o =
                    objects[objects.len() - 1 - rng.below(objects.len().min(5000) as u64) as usize];
                s.field_write(t, o, fields[rng.below(4) as usize], small);
            }
            78..=85 if depth[ti] < 14 => {
                let m = methods[rng.below(methods.len() as u64) as usize];
                s.call(t, m, &[small, Value::Int(rng.below(1000) as i32)]);
                at[ti].push(BLOCKS);
                depth[ti] += 1;
            }
            86..=94 if depth[ti] > 1 => {
                s.ret(t, small);
                at[ti].pop();
                depth[ti] -= 1;
            }
            95..=97 => objects.push(s.new_object(t, cls)),
            98 => {
                s.event(
                    t,
                    EventKind::ExtCall {
                        method: ext,
                        args: vec![small, small],
                    },
                );
                s.event(t, EventKind::ExtReturn(small));
                count += 1;
            }
            _ => {
                s.event(
                    t,
                    EventKind::StaticWrite {
                        field: stat,
                        value: small,
                    },
                );
            }
        }
        count += 1;
        since_flush[ti] += 1;
        if since_flush[ti] >= 4096 {
            s.flush(t);
            since_flush[ti] = 0;
        }
    }
    for (ti, &t) in threads.iter().enumerate() {
        for _ in 0..depth[ti] {
            s.ret(t, Value::Void);
        }
    }
    (s.end(0), Program { objects, arrays })
}

fn stats(name: &str, mut times: Vec<Duration>) {
    times.sort();
    let med = times[times.len() / 2];
    let max = times[times.len() - 1];
    println!(
        "  {name:<34} median {:>8.3} ms   max {:>8.3} ms   ({} queries)",
        ms(med),
        ms(max),
        times.len()
    );
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn time<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let t = Instant::now();
    let r = f();
    (r, t.elapsed())
}

/// CPU seconds (user + system) of this process so far, from /proc (Linux); wall time is noisy
/// on a shared machine.
fn cpu_seconds() -> Option<f64> {
    cpu_of("/proc/self/stat")
}

/// CPU seconds of the calling thread (the recorder's: what bounds the wall time however many
/// threads seal).
fn thread_cpu_seconds() -> Option<f64> {
    cpu_of("/proc/thread-self/stat")
}

fn cpu_of(file: &str) -> Option<f64> {
    let stat = std::fs::read_to_string(file).ok()?;
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split(' ').collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

/// The value after `--name`, if given.
fn option(name: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}

fn main() {
    let stream = option("--stream");
    let ingest_only = stream.is_some() || std::env::args().any(|a| a == "--ingest-only");
    let mut config = WriterConfig::default();
    if let Some(n) = option("--threads") {
        config.threads = n.parse().expect("--threads N: a number of threads");
    }
    // Commits by count only, never by time: the same work whatever the machine's speed (for
    // instruction counts under callgrind).
    if let Some(n) = option("--commit-events") {
        config.commit_events = n.parse().expect("--commit-events N: a number of events");
        config.commit_interval = Duration::from_secs(1 << 30);
    }
    // The change index's raw page size (`WriterConfig::page_bytes`).
    if let Some(n) = option("--page-bytes") {
        config.page_bytes = n.parse().expect("--page-bytes N: a number of bytes");
    }
    let mut args: Vec<String> = Vec::new();
    let mut skip = false;
    for a in std::env::args().skip(1) {
        if skip {
            skip = false;
        } else if a == "--threads"
            || a == "--stream"
            || a == "--commit-events"
            || a == "--page-bytes"
        {
            skip = true;
        } else if !a.starts_with('-') {
            args.push(a);
        }
    }
    let n: u64 = args
        .first()
        .and_then(|a| a.parse().ok())
        .unwrap_or(10_000_000);
    let tmp = tempfile::tempdir().expect("a temporary directory");
    let dir = args
        .get(1)
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| tmp.path().to_path_buf());
    let path = dir.join("bench.htrace");

    let loops = std::env::args().any(|a| a == "--loops");
    let walk = loops || std::env::args().any(|a| a == "--cfg-walk");
    let ((bytes, prog), gen_time) = match &stream {
        Some(file) => time(|| {
            let bytes = std::fs::read(file).expect("the --stream file");
            let prog = Program {
                objects: Vec::new(),
                arrays: Vec::new(),
            };
            (bytes, prog)
        }),
        None => time(|| generate(n, walk, loops)),
    };
    println!(
        "{} {} bytes of wire stream in {:.2} s; sealing on {} thread(s)",
        if stream.is_some() {
            "read"
        } else {
            "generated"
        },
        bytes.len(),
        gen_time.as_secs_f64(),
        config.threads
    );

    let cpu0 = cpu_seconds();
    let thread0 = thread_cpu_seconds();
    let threaded = std::env::args().any(|a| a == "--threaded");
    let (summary, rec_time) = if threaded {
        time(|| {
            record_threaded(std::io::Cursor::new(bytes), &path, NullSink, config)
                .expect("recording")
        })
    } else {
        time(|| record(&bytes[..], &path, NullSink, config).expect("recording"))
    };
    let cpu = cpu_seconds().zip(cpu0).map(|(b, a)| b - a);
    let thread_cpu = thread_cpu_seconds().zip(thread0).map(|(b, a)| b - a);
    let file_bytes = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    println!(
        "ingest: {} events, {} nodes in {:.2} s",
        summary.events,
        summary.nodes,
        rec_time.as_secs_f64()
    );
    println!(
        "  events/s       {:.0}",
        summary.events as f64 / rec_time.as_secs_f64()
    );
    if let Some(cpu) = cpu {
        println!(
            "  events/cpu-s   {:.0}   ({cpu:.2} s of CPU)",
            summary.events as f64 / cpu
        );
        if let Some(t) = thread_cpu {
            println!(
                "  recorder thread {t:.2} s of CPU ({:.0}%), decoding and sealing threads {:.2} s",
                100.0 * t / cpu,
                cpu - t
            );
        }
    }
    println!("  trace bytes    {file_bytes}");
    println!(
        "  bytes/event    {:.2}",
        file_bytes as f64 / summary.events as f64
    );

    if ingest_only {
        return;
    }
    let (reader, open_time) = time(|| TraceReader::open(&path).expect("open"));
    println!("queries (open {:.2} ms):", ms(open_time));
    let info = reader.info().expect("info");
    let last_ts = info.last_ts;
    let nodes = info.nodes as u32;
    let mut rng = Rng(99);
    let rounds = 200;
    let pick_call = |rng: &mut Rng| loop {
        let id = NodeId(3 + rng.below(u64::from(nodes - 3)) as u32);
        if let Some(n) = reader.node(id).expect("node") {
            if n.header.method.is_some() {
                return n;
            }
        }
    };
    let samples: Vec<_> = (0..rounds).map(|_| pick_call(&mut rng)).collect();
    stats(
        "node by id",
        (0..rounds)
            .map(|_| {
                let id = NodeId(rng.below(u64::from(nodes)) as u32);
                time(|| reader.node(id).expect("node")).1
            })
            .collect(),
    );
    stats(
        "node detail",
        samples
            .iter()
            .map(|n| time(|| reader.node_detail(n.header.id).expect("detail")).1)
            .collect(),
    );
    stats(
        "local of a node at its exit",
        samples
            .iter()
            .map(|n| {
                time(|| {
                    reader
                        .local_at(n.header.id, 5, n.header.exit.unwrap_or(last_ts))
                        .expect("local")
                })
                .1
            })
            .collect(),
    );
    stats(
        "array element at t",
        (0..rounds)
            .map(|_| {
                let a = prog.arrays[rng.below(ARRAYS) as usize];
                let (i, t) = (rng.below(u64::from(ARRAY_LEN)) as u32, rng.below(last_ts));
                time(|| reader.element_at(a, i, t).expect("element")).1
            })
            .collect(),
    );
    stats(
        "array page of 100 at t",
        (0..rounds)
            .map(|_| {
                let a = prog.arrays[rng.below(ARRAYS) as usize];
                let (i, t) = (
                    rng.below(u64::from(ARRAY_LEN - 100)) as u32,
                    rng.below(last_ts),
                );
                time(|| reader.array_at(a, t, i, 100).expect("array")).1
            })
            .collect(),
    );
    stats(
        "object field at t",
        (0..rounds)
            .map(|_| {
                let o = prog.objects[rng.below(prog.objects.len() as u64) as usize];
                let t = rng.below(last_ts);
                time(|| {
                    reader
                        .field_at(o, hindsight_core::ids::FieldId(1 + rng.below(4) as u32), t)
                        .expect("field")
                })
                .1
            })
            .collect(),
    );
    stats(
        "static field at t",
        (0..rounds)
            .map(|_| {
                time(|| {
                    reader
                        .static_at(hindsight_core::ids::FieldId(5), rng.below(last_ts))
                        .expect("static")
                })
                .1
            })
            .collect(),
    );
    stats(
        "history of an array element",
        (0..rounds)
            .map(|_| {
                let a = prog.arrays[rng.below(ARRAYS) as usize];
                let i = rng.below(u64::from(ARRAY_LEN)) as u32;
                time(|| {
                    reader
                        .history(Variable::Element { array: a, index: i })
                        .expect("history")
                })
                .1
            })
            .collect(),
    );
    stats(
        "page of 100 events of a node",
        samples
            .iter()
            .map(|n| time(|| reader.node_events(n.header.id, 0, 100).expect("events")).1)
            .collect(),
    );
    let top = reader
        .children(
            reader.children(NodeId::ROOT, 0, 1).expect("threads")[0]
                .header
                .id,
            0,
            1,
        )
        .expect("calls")[0]
        .clone();
    stats(
        "page of 100 events, top node, at t",
        (0..rounds)
            .map(|_| {
                let from = top.header.entry
                    + rng.below(top.header.exit.unwrap_or(last_ts) - top.header.entry);
                time(|| {
                    reader
                        .node_events(top.header.id, from, 100)
                        .expect("events")
                })
                .1
            })
            .collect(),
    );
    stats(
        "event at t",
        (0..rounds)
            .map(|_| time(|| reader.event_at(rng.below(last_ts)).expect("event")).1)
            .collect(),
    );
    stats(
        "100 children of the top node",
        (0..rounds)
            .map(|_| {
                time(|| {
                    reader
                        .children(top.header.id, rng.below(1000), 100)
                        .expect("children")
                })
                .1
            })
            .collect(),
    );
}
