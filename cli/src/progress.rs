//! The live progress line of a recording on a terminal: events, nodes, bytes, rate, and how much
//! of the program's stream is still to store. Nothing is shown with `--json` or when stderr is not a
//! terminal.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use hindsight_core::capture::{FeedState, Progress, STORE_BEHIND_BYTES};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

const TICK: Duration = Duration::from_millis(100);

/// Whether a progress line may be drawn: not with `--json`, only on a terminal.
pub fn wanted(json: bool) -> bool {
    !json && std::io::stderr().is_terminal()
}

/// A progress line redrawn on stderr by a thread of its own.
pub struct ProgressLine {
    stop: Arc<AtomicBool>,
    paused: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl ProgressLine {
    /// Starts drawing the progress of the recording into `trace` (nothing when `enabled` is
    /// false).
    pub fn start(state: Arc<FeedState>, trace: PathBuf, enabled: bool) -> ProgressLine {
        let stop = Arc::new(AtomicBool::new(false));
        let paused = Arc::new(AtomicBool::new(false));
        let thread = enabled.then(|| {
            let (stop, paused) = (Arc::clone(&stop), Arc::clone(&paused));
            std::thread::spawn(move || draw(&state, &trace, &stop, &paused))
        });
        ProgressLine {
            stop,
            paused,
            thread,
        }
    }

    /// Hides the line (while a question is asked) or shows it again.
    pub fn pause(&self, paused: bool) {
        self.paused.store(paused, Ordering::Relaxed);
        if paused && self.thread.is_some() {
            // Give the drawing thread a tick to clear the line before the caller prints.
            std::thread::sleep(TICK + Duration::from_millis(10));
        }
    }

    /// Clears the line and stops drawing.
    pub fn finish(mut self) {
        self.stop_thread();
    }

    fn stop_thread(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for ProgressLine {
    fn drop(&mut self) {
        self.stop_thread();
    }
}

fn draw(state: &FeedState, trace: &std::path::Path, stop: &AtomicBool, paused: &AtomicBool) {
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{spinner} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    let started = Instant::now();
    let mut last = (Instant::now(), 0u64);
    let mut rate = 0.0;
    while !stop.load(Ordering::Relaxed) {
        std::thread::sleep(TICK);
        if paused.load(Ordering::Relaxed) {
            if !bar.is_hidden() {
                bar.set_draw_target(ProgressDrawTarget::hidden());
            }
            continue;
        }
        if bar.is_hidden() {
            bar.set_draw_target(ProgressDrawTarget::stderr());
        }
        let p = state.progress();
        let now = Instant::now();
        let dt = now.duration_since(last.0).as_secs_f64();
        if dt >= 0.5 {
            rate = p.events.saturating_sub(last.1) as f64 / dt;
            last = (now, p.events);
        }
        bar.set_message(line(&p, trace_bytes(trace), rate, started.elapsed()));
        bar.tick();
    }
    bar.finish_and_clear();
}

/// The trace file and its WAL.
fn trace_bytes(trace: &std::path::Path) -> u64 {
    let mut wal = trace.as_os_str().to_owned();
    wal.push("-wal");
    [trace.as_os_str(), wal.as_os_str()]
        .iter()
        .filter_map(|p| std::fs::metadata(p).ok())
        .map(|m| m.len())
        .sum()
}

/// The text of the line.
pub fn line(p: &Progress, bytes: u64, rate: f64, elapsed: Duration) -> String {
    let mut s = format!(
        "recording {:.1}s: {} events, {} nodes ({} complete), {}, {}/s",
        elapsed.as_secs_f64(),
        p.events,
        p.nodes,
        p.complete_nodes,
        size(bytes),
        count(rate),
    );
    // The spool takes the program's stream as it comes; what the store has not taken yet waits
    // there (on disk), and is worth showing once it is more than a moment's worth.
    if p.backlog_bytes >= STORE_BEHIND_BYTES {
        s.push_str(&format!(
            " — {} received, still to store",
            size(p.backlog_bytes)
        ));
    }
    s
}

fn size(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 30 => format!("{:.1} GiB", b as f64 / (1u64 << 30) as f64),
        b if b >= 1 << 20 => format!("{:.1} MiB", b as f64 / (1u64 << 20) as f64),
        b => format!("{:.0} KiB", b as f64 / 1024.0),
    }
}

fn count(rate: f64) -> String {
    if rate >= 1e6 {
        format!("{:.1}M events", rate / 1e6)
    } else if rate >= 1e3 {
        format!("{:.1}k events", rate / 1e3)
    } else {
        format!("{rate:.0} events")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_says_how_much_is_still_to_store() {
        let mut p = Progress {
            events: 1500,
            nodes: 20,
            complete_nodes: 18,
            ..Default::default()
        };
        let text = line(&p, 3 << 20, 2500.0, Duration::from_millis(1200));
        assert_eq!(
            text,
            "recording 1.2s: 1500 events, 20 nodes (18 complete), 3.0 MiB, 2.5k events/s"
        );
        p.backlog_bytes = 3 << 20;
        assert!(line(&p, 0, 0.0, Duration::ZERO).ends_with("3.0 MiB received, still to store"));
    }
}
