//! A live recording's store threads keep the program's priority until its sink lets them fall
//! behind, then every one of them runs `STORE_NICENESS` nicer (`trace::priority`), while the
//! spool's copying thread keeps its priority; once the program's stream has arrived whole, or
//! a front end waits for the store, successors carry on their work at the program's priority. A test binary of its own: it
//! reads the nice value of every thread of this process by name, which other tests'
//! recordings would share.

use std::io::Write;
use std::os::unix::net::UnixStream;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use hindsight_core::capture::{LiveRecording, STORE_NICENESS};
use hindsight_core::trace::recorder::NodeSink;
use hindsight_core::trace::store::WriterConfig;
use hindsight_core::trace::synthetic::calls_stream;
use hindsight_core::tree::NodeHeader;

/// A sink that lets the store fall behind once `open` is set, says a front end waits once
/// `awaited` is, notes the nice value of the thread it is called on, and can hold that thread
/// (`Hold`).
struct Gate {
    open: Arc<AtomicBool>,
    awaited: Arc<AtomicBool>,
    hold: Arc<Hold>,
}

impl NodeSink for Gate {
    fn node(&mut self, _: &NodeHeader) {
        self.hold.node();
    }

    fn store_may_fall_behind(&mut self) -> bool {
        self.open.load(Ordering::Acquire)
    }

    fn store_awaited(&mut self) -> bool {
        self.awaited.load(Ordering::Acquire)
    }
}

/// Holds the writer's thread in the sink's `node` after a countdown of calls.
#[derive(Default)]
struct Hold {
    state: Mutex<HoldState>,
    changed: Condvar,
}

#[derive(Default)]
struct HoldState {
    /// Calls until the next one holds (`None`: never).
    countdown: Option<usize>,
    holding: bool,
    /// The nice value of the calling thread, per call.
    nice: Vec<i32>,
}

impl Hold {
    fn node(&self) {
        let mut s = self.state.lock().unwrap();
        s.nice
            .push(rustix::process::getpriority_process(None).unwrap());
        match s.countdown {
            Some(n) if n > 1 => s.countdown = Some(n - 1),
            Some(_) => {
                s.countdown = None;
                s.holding = true;
                self.changed.notify_all();
                while s.holding {
                    s = self.changed.wait(s).unwrap();
                }
            }
            None => {}
        }
    }

    /// Holds the `calls`-th call from now; lets a held one go.
    fn arm_and_release(&self, calls: usize) {
        let mut s = self.state.lock().unwrap();
        s.countdown = Some(calls);
        s.holding = false;
        self.changed.notify_all();
    }

    fn release(&self) {
        self.state.lock().unwrap().holding = false;
        self.changed.notify_all();
    }

    /// Waits until a call is held; the nice value it was called at.
    fn wait_held(&self) -> i32 {
        let deadline = Instant::now() + Duration::from_secs(10);
        let mut s = self.state.lock().unwrap();
        while !s.holding {
            assert!(
                Instant::now() < deadline,
                "the writer never reached the hold"
            );
            s = self
                .changed
                .wait_timeout(s, Duration::from_millis(50))
                .unwrap()
                .0;
        }
        *s.nice.last().unwrap()
    }
}

/// Every thread of this process whose name starts with `hindsight-`, with its nice value.
fn hindsight_threads() -> Vec<(String, i32)> {
    let mut out = Vec::new();
    for task in std::fs::read_dir("/proc/self/task").unwrap() {
        let dir = task.unwrap().path();
        let (Ok(name), Ok(stat)) = (
            std::fs::read_to_string(dir.join("comm")),
            std::fs::read_to_string(dir.join("stat")),
        ) else {
            continue; // the thread ended meanwhile
        };
        let name = name.trim().to_string();
        if !name.starts_with("hindsight-") {
            continue;
        }
        // Fields after the name in parentheses: state is field 3, nice field 19.
        let after = &stat[stat.rfind(')').unwrap() + 1..];
        let nice: i32 = after.split_whitespace().nth(16).unwrap().parse().unwrap();
        out.push((name, nice));
    }
    out.sort();
    out
}

/// Polls `threads` until `done` holds of them (for at most 10 s).
fn until(what: &str, done: impl Fn(&[(String, i32)]) -> bool) -> Vec<(String, i32)> {
    let start = Instant::now();
    loop {
        let threads = hindsight_threads();
        if done(&threads) {
            return threads;
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "{what}: threads are {threads:?}"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// What moves the store's work back to the program's priority.
#[derive(Clone, Copy, Debug)]
enum Lift {
    /// The program's stream has arrived whole.
    ProgramEnds,
    /// A front end waits for the store while the program still runs.
    Awaited,
}

#[test]
fn store_threads_keep_the_program_priority_until_the_sink_lets_them_fall_behind() {
    // One after the other: each reads every thread of the process.
    fall_behind_then_lift(Lift::ProgramEnds);
    fall_behind_then_lift(Lift::Awaited);
}

fn fall_behind_then_lift(lift: Lift) {
    let base = rustix::process::getpriority_process(None).unwrap();
    let lowered = (base + STORE_NICENESS).min(19);
    assert_ne!(base, lowered, "the test process already runs at nice 19");
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("run.htrace");
    let open = Arc::new(AtomicBool::new(false));
    let awaited = Arc::new(AtomicBool::new(false));
    let hold = Arc::new(Hold::default());
    let (gate, waits, held) = (Arc::clone(&open), Arc::clone(&awaited), Arc::clone(&hold));
    let config = WriterConfig {
        threads: 2,
        ..WriterConfig::default()
    };
    let live = LiveRecording::start(&trace, config, move |_, _| Gate {
        open: Arc::clone(&gate),
        awaited: Arc::clone(&waits),
        hold: Arc::clone(&held),
    })
    .unwrap();
    let mut client = UnixStream::connect(live.socket_path()).unwrap();
    let (first, second, whole) = (stream(1, false), stream(2, false), stream(CALLS, true));
    client.write_all(&first).unwrap();

    // Every store thread is there, and all keep the program's priority.
    let kinds = [
        "hindsight-decod",
        "hindsight-recor",
        "hindsight-store",
        "hindsight-seal-",
    ];
    let has_all = |t: &[(String, i32)]| {
        kinds
            .iter()
            .all(|k| t.iter().any(|(name, _)| name.starts_with(k)))
    };
    let before = until("the recording's threads start", has_all);
    assert!(
        before.iter().all(|(_, nice)| *nice == base),
        "before the gate opens, at nice {base}: {before:?}"
    );

    // Once the gate opens, the writer's loop (it also polls while no frame comes) lowers
    // itself and the store's thread and pool; the decoder lowers itself at its next frame. The
    // spool's thread keeps its priority.
    open.store(true, Ordering::Release);
    until("the writer's thread lowers itself", |t| {
        t.iter()
            .any(|(name, nice)| name.starts_with("hindsight-recor") && *nice == lowered)
    });
    client.write_all(&second[first.len()..]).unwrap();
    // Every kind of store thread is there, each at `nice`.
    let store_at = |t: &[(String, i32)], nice: i32| {
        has_all(t)
            && t.iter()
                .filter(|(name, _)| kinds.iter().any(|k| name.starts_with(k)))
                .all(|(_, n)| *n == nice)
    };
    let after = until("the store's threads lower themselves", |t| {
        store_at(t, lowered)
    });
    assert!(
        after
            .iter()
            .filter(|(name, _)| name.starts_with("hindsight-spool"))
            .all(|(_, nice)| *nice == base),
        "the spool keeps the program's priority: {after:?}"
    );

    // The writer is held behind the program with the decoder's queue full. Then the program
    // ends, or a front end waits for the store while the program runs on. Once the writer
    // goes on, successors started at the program's priority carry on the writer's, the
    // decoder's and the store's work, and the sealing pool starts again; the lowered threads
    // wait, named `hindsight-idle`.
    hold.arm_and_release(1);
    let third = stream(3, false);
    client.write_all(&third[second.len()..]).unwrap();
    assert_eq!(hold.wait_held(), lowered, "held while behind the program");
    let running = stream(CALLS, false);
    client.write_all(&running[third.len()..]).unwrap();
    match lift {
        Lift::ProgramEnds => {
            client.write_all(&whole[running.len()..]).unwrap();
            client.shutdown(std::net::Shutdown::Write).unwrap();
            until("the spool sees the program's end", |t| {
                !t.iter()
                    .any(|(name, _)| name.starts_with("hindsight-spool"))
            });
        }
        Lift::Awaited => awaited.store(true, Ordering::Release),
    }
    hold.arm_and_release(CALLS / 2);
    assert_eq!(
        hold.wait_held(),
        base,
        "{lift:?}: the writer carries on at nice {base}"
    );
    let lifted = until(
        "the store's threads carry on at the program's priority",
        |t| {
            store_at(t, base)
                && t.iter()
                    .filter(|(name, _)| name.starts_with("hindsight-idle"))
                    .count()
                    == 3
        },
    );
    assert!(
        lifted
            .iter()
            .filter(|(name, _)| name.starts_with("hindsight-idle"))
            .all(|(_, nice)| *nice == lowered),
        "the lowered threads wait: {lifted:?}"
    );
    assert!(
        !lifted
            .iter()
            .any(|(name, _)| name.starts_with("hindsight-spare")),
        "every successor took over: {lifted:?}"
    );
    if let Lift::Awaited = lift {
        assert!(
            lifted
                .iter()
                .any(|(name, nice)| name.starts_with("hindsight-spool") && *nice == base),
            "the program still runs: {lifted:?}"
        );
        client.write_all(&whole[running.len()..]).unwrap();
    }
    drop(client);
    hold.release();
    let traces = live.finish().unwrap();
    let summary = traces[0].result.as_ref().unwrap();
    assert_eq!(
        summary.nodes as usize,
        3 + CALLS,
        "root, thread, main and each f: {summary:?}"
    );
    // A rayon pool's threads end soon after the pool is dropped, not at once.
    until("every thread ends", |t| t.is_empty());
}

/// Calls of `f` in the whole program: more than the decoder queues, so that it still runs
/// when the writer carries on.
const CALLS: usize = 200;

/// The program's stream after `calls` calls of `f`, each sent as it returns; `whole` ends it.
fn stream(calls: usize, whole: bool) -> Vec<u8> {
    calls_stream(calls as u32, 1, whole)
}
