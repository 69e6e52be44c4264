//! Peak memory and question latency of a live session over a long recording.
//!
//! `gen EVENTS STREAM` writes a synthetic wire stream (nested calls with lines and local writes,
//! about 7 events a node) to a file, in a process of its own so that its buffer does not count.
//! `run STREAM TRACE` records that stream as the recorder records a JVM (decoder thread, store,
//! header feed) while a live session takes in every node and answers a question now and then,
//! then prints events, nodes, the session's tree size, the slowest question (render + wait for
//! the commit) and this process's peak resident memory (VmHWM).
//!
//! `cargo run --release -p hindsight-core --example live_memory -- gen 10000000 /tmp/s.hsw`
//! `cargo run --release -p hindsight-core --example live_memory -- run /tmp/s.hsw /tmp/s.htrace`

use std::path::Path;
use std::time::{Duration, Instant};

use hindsight_core::capture::{cpu_ms, feed, peak_rss_bytes, thread_cpu_ms, DEFAULT_FEED_CAPACITY};
use hindsight_core::debugger::{DebugOptions, Debugger};
use hindsight_core::session::{Answer, Step};
use hindsight_core::trace::recorder::record_threaded;
use hindsight_core::trace::store::WriterConfig;
use hindsight_core::trace::synthetic::StreamBuilder;
use hindsight_core::trace::wire::Value;

fn generate(events: u64, out: &Path) -> std::io::Result<()> {
    let mut s = StreamBuilder::new();
    let cls = s.class("mem.Work", true);
    let methods: Vec<_> = (0..50)
        .map(|i| s.method(cls, &format!("m{i}"), "(I)I", true, &["a", "x"]))
        .collect();
    let t = s.thread("main");
    let main = s.method(cls, "main", "([Ljava/lang/String;)V", true, &["args"]);
    s.call(t, main, &[Value::Null]);
    let mut n = 0u64;
    let mut depth = 0u32;
    let mut rng = 0x9e37_79b9_7f4a_7c15u64;
    while n < events {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let m = methods[(rng % 50) as usize];
        // Down to a random depth (at most 30), then back up part of the way.
        if depth < 30 && !rng.is_multiple_of(3) {
            s.call(t, m, &[Value::Int(n as i32)]);
            s.line(t, 10);
            s.local(t, 2, Value::Int(depth as i32));
            s.line(t, 11);
            depth += 1;
            n += 4;
        } else if depth > 0 {
            s.line(t, 12);
            s.ret(t, Value::Int(1));
            depth -= 1;
            n += 2;
        }
        if n % 4096 < 6 {
            s.flush(t);
        }
    }
    while depth > 0 {
        s.ret(t, Value::Int(1));
        depth -= 1;
    }
    s.ret(t, Value::Void);
    std::fs::write(out, s.end(0))
}

fn run(stream: &Path, trace: &Path) -> Result<(), Box<dyn std::error::Error>> {
    let (sink, feed) = feed(DEFAULT_FEED_CAPACITY);
    let state = sink.state().clone();
    let input = std::io::BufReader::new(std::fs::File::open(stream)?);
    let path = trace.to_path_buf();
    let started = Instant::now();
    let recorder =
        std::thread::spawn(move || record_threaded(input, &path, sink, WriterConfig::default()));
    let mut d = Debugger::live(feed, trace, DebugOptions::default())?;
    let mut questions = 0u32;
    let mut slowest = Duration::ZERO;
    let mut slowest_wait = Duration::ZERO;
    let mut first_question = None;
    let mut last_question = Instant::now();
    while !d.is_sealed() {
        if d.pump()? == 0 {
            std::thread::sleep(Duration::from_millis(1));
        }
        // A person answers about once a second.
        if last_question.elapsed() >= Duration::from_secs(1) || first_question.is_none() {
            if let Step::Ask(node) = d.step()? {
                let asked = Instant::now();
                d.wait_visible(node)?;
                let visible = asked.elapsed();
                d.question(node)?;
                if asked.elapsed() > slowest {
                    slowest = asked.elapsed();
                    slowest_wait = visible;
                }
                first_question.get_or_insert(asked.duration_since(started));
                d.answer(node, Answer::DontKnow)?;
                questions += 1;
                last_question = Instant::now();
            }
        }
    }
    let tree_ms = started.elapsed().as_millis();
    let session_cpu = thread_cpu_ms();
    let summary = recorder.join().expect("recorder thread")?;
    let p = state.progress();
    println!("events {}", summary.events);
    println!("nodes {}", summary.nodes);
    println!("session tree nodes {}", d.session().tree().len());
    println!("tree complete after {tree_ms} ms");
    println!(
        "events per second {:.0}",
        summary.events as f64 / (tree_ms as f64 / 1000.0)
    );
    println!("questions {questions}, first after {first_question:?}, slowest {slowest:?} (of which waiting for the commit {slowest_wait:?})");
    println!(
        "recorder waits for the session {}, frames with the store behind {}",
        p.session_waits, p.store_behind_frames
    );
    println!("peak rss bytes {}", peak_rss_bytes().unwrap_or(0));
    if let (Some(all), Some(session)) = (cpu_ms(), session_cpu) {
        let (all, session) = (all as f64 / 1000.0, session as f64 / 1000.0);
        println!("cpu seconds {all:.2}, of which the session's thread {session:.2}");
    }
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["gen", events, out] => Ok(generate(events.parse()?, Path::new(out))?),
        ["run", stream, trace] => run(Path::new(stream), Path::new(trace)),
        _ => {
            eprintln!("usage: live_memory gen EVENTS STREAM | live_memory run STREAM TRACE");
            std::process::exit(2);
        }
    }
}
