//! What the benchmarks over a big synthetic trace share: their arguments `[EVENTS [TRACE]]`, the
//! trace built once and reused, and the timing of repeated queries.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use hindsight_core::trace::store::{TraceInfo, TraceReader};

/// Opens the trace the arguments name, building it with `build(events, path)` first when it
/// does not exist. Without a TRACE argument it is `hindsight-NAME-EVENTS-vFORMAT.htrace` in the
/// temporary directory: the format version in the name, so a trace of an older format is not
/// reused.
pub fn open_trace(name: &str, build: impl FnOnce(u64, &Path)) -> (PathBuf, TraceReader, TraceInfo) {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let events: u64 = args
        .first()
        .and_then(|a| a.parse().ok())
        .unwrap_or(10_000_000);
    let path = args.get(1).map(PathBuf::from).unwrap_or_else(|| {
        std::env::temp_dir().join(format!(
            "hindsight-{name}-{events}-v{}.htrace",
            hindsight_core::trace::store::schema::FORMAT_VERSION
        ))
    });
    if !path.exists() {
        build(events, &path);
    }
    let reader = TraceReader::open(&path).expect("opening the trace");
    let info = reader.info().expect("reading the trace's info");
    println!(
        "trace {} : {} events, {} nodes, {} MB",
        path.display(),
        info.events,
        info.nodes,
        info.bytes >> 20
    );
    (path, reader, info)
}

/// Runs `f(0..runs)` and prints the median and p90 times.
pub fn measure(name: &str, runs: usize, mut f: impl FnMut(usize)) {
    let mut times: Vec<Duration> = (0..runs)
        .map(|i| {
            let started = Instant::now();
            f(i);
            started.elapsed()
        })
        .collect();
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "{name:<48} median {:>8.3} ms   p90 {:>8.3} ms   ({runs} runs)",
        ms(times[runs / 2]),
        ms(times[runs * 9 / 10])
    );
}
