//! The agent's recording overhead on `tests/bench/Bench.java` (issue 2, item 10):
//! `cargo run --release -p hindsight-agent --example agent_bench -- [SCALE] [RUNS]`.
//! Runs the program plain and recorded into a file, back to back, RUNS times each (default 3),
//! and prints the median wall times, their ratio, the number of events and events per second.

#[path = "../tests/common/mod.rs"]
mod common;

use std::time::{Duration, Instant};

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let scale: u32 = args
        .first()
        .map_or(Ok(1), |s| s.parse())
        .unwrap_or_else(|_| usage());
    let runs: usize = args
        .get(1)
        .map_or(Ok(3), |s| s.parse())
        .unwrap_or_else(|_| usage());
    let dir =
        tempfile::tempdir().unwrap_or_else(|e| fail(&format!("cannot create a temp dir: {e}")));
    common::javac(
        &[common::repo_root().join("tests/bench/Bench.java")],
        None,
        dir.path(),
    );
    let cp = dir
        .path()
        .to_str()
        .unwrap_or_else(|| fail("temp dir path is not UTF-8"));
    let stream = dir.path().join("bench.hsw");
    let options = format!("file={}", stream.display());
    let (mut plain, mut recorded) = (Vec::new(), Vec::new());
    for _ in 0..runs {
        for (opts, times) in [(None, &mut plain), (Some(options.as_str()), &mut recorded)] {
            let start = Instant::now();
            let out = std::process::Command::new("java")
                .args(opts.iter().flat_map(|o| {
                    let agent = format!("-javaagent:{}={o}", common::AGENT_JAR);
                    hindsight_agent::JIT_OPTIONS
                        .iter()
                        .map(|j| j.to_string())
                        .chain([agent])
                }))
                .args(["-cp", cp, "Bench", &scale.to_string()])
                .output()
                .unwrap_or_else(|e| fail(&format!("cannot run java: {e}")));
            times.push(start.elapsed());
            if !out.status.success() {
                fail(&format!(
                    "Bench failed: {}",
                    String::from_utf8_lossy(&out.stderr)
                ));
            }
        }
    }
    let bytes =
        std::fs::read(&stream).unwrap_or_else(|e| fail(&format!("cannot read the stream: {e}")));
    let trace = common::decode(&bytes).unwrap_or_else(|e| fail(&format!("malformed stream: {e}")));
    let events = trace.events.iter().filter(|e| e.ts != 0).count();
    let (p, r) = (median(plain), median(recorded));
    println!("scale {scale}, {runs} runs each, medians");
    println!("plain wall time      {:.3} s", p.as_secs_f64());
    println!(
        "recorded wall time   {:.3} s (into a file)",
        r.as_secs_f64()
    );
    println!(
        "overhead             {:.1}x",
        r.as_secs_f64() / p.as_secs_f64()
    );
    println!("events               {events}");
    println!(
        "events per second    {:.2} M (events / recorded wall time)",
        events as f64 / r.as_secs_f64() / 1e6
    );
    println!(
        "stream bytes/event   {:.2}",
        bytes.len() as f64 / events as f64
    );
}

fn usage() -> ! {
    fail("usage: agent_bench [SCALE] [RUNS]")
}

fn fail(message: &str) -> ! {
    eprintln!("error: {message}");
    std::process::exit(1);
}
