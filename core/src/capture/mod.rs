//! Capture: taking in a running program's streams. The socket the agents connect to
//! (`listener`), the spool that copies each stream to disk as it arrives (`spool`), one
//! recorder (`crate::trace::recorder`) per connection, and the feed that hands the first JVM's
//! nodes to a live session (`feed`). The recorder turns a stream into a trace; this module runs
//! recorders on live connections.
//!
//! The first JVM that connects is recorded into the trace path asked for; a command that starts
//! more JVMs (`mvn test` forks one for the tests) gets one trace per further JVM, named
//! `NAME.2.htrace`, `NAME.3.htrace`, ... in connection order.

mod feed;
mod listener;
mod memory;
mod spool;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

pub use feed::{
    feed, CoverageKinds, Feed, FeedItem, FeedSink, FeedState, Progress, StreamBytes, Taken,
    DEFAULT_FEED_CAPACITY, STORE_BEHIND_BYTES,
};
pub use listener::{Accepting, Listener};
pub use memory::{cpu_ms, peak_rss_bytes, thread_cpu_ms};
pub use spool::{spool, Arrival, SpoolReader, SpoolStats};

pub use crate::trace::priority::{behind_the_program, ProgramEnd, STORE_NICENESS};
use crate::trace::recorder::{record_threaded, NodeSink, RecordError, Summary};
use crate::trace::store::WriterConfig;

/// The trace file of the `n`-th JVM (from 0) of a recording into `base`.
pub fn trace_path_for(base: &Path, n: usize) -> PathBuf {
    if n == 0 {
        return base.to_path_buf();
    }
    let stem = base
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name = match base.extension() {
        Some(ext) => format!("{stem}.{}.{}", n + 1, ext.to_string_lossy()),
        None => format!("{stem}.{}", n + 1),
    };
    base.with_file_name(name)
}

/// One JVM's recording, once it ended.
#[derive(Debug)]
pub struct RecordedTrace {
    pub path: PathBuf,
    pub result: Result<Summary, RecordError>,
}

/// A recording in progress: agents connect to [`LiveRecording::socket_path`].
pub struct LiveRecording {
    socket_path: PathBuf,
    accepting: Accepting,
    /// The JVMs connected so far: connection number and trace.
    started: Arc<Mutex<Vec<(usize, PathBuf)>>>,
    done: Arc<Mutex<Vec<(usize, RecordedTrace)>>>,
    spooled: Arc<SpoolStats>,
}

/// One JVM of a recording as a front end lists it (every JVM is shown, recorded or not).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct JvmTrace {
    /// Connection order, from 0.
    pub index: usize,
    pub path: PathBuf,
    /// `recording`, then `complete`, `truncated` (no end: the JVM died or was killed, what it
    /// sent is kept), `malformed`, or `failed` (no trace: `detail` says why).
    pub state: &'static str,
    pub detail: Option<String>,
    pub events: u64,
    pub nodes: u64,
}

impl LiveRecording {
    /// Starts listening. Each connection `n` is recorded into [`trace_path_for`]`(trace, n)`,
    /// sending its node headers to `sink(n, arrival)`, where `arrival` tells how much of that
    /// connection's stream has arrived. Each stream is spooled (see [`spool`]) to an
    /// unnamed file in the trace's directory, so the program is not held back by the store, and
    /// stored behind the program until its stream has arrived whole
    /// (`WriterConfig::behind_the_program`, set here): the spool's copying thread keeps its
    /// priority, since the program waits for it.
    pub fn start<S, F>(
        trace: &Path,
        config: WriterConfig,
        sink: F,
    ) -> std::io::Result<LiveRecording>
    where
        S: NodeSink + Send + 'static,
        F: Fn(usize, Arrival) -> S + Send + Sync + 'static,
    {
        let listener = Listener::bind()?;
        let socket_path = listener.socket_path();
        let started = Arc::new(Mutex::new(Vec::new()));
        let connected = Arc::clone(&started);
        let done = Arc::new(Mutex::new(Vec::new()));
        let results = Arc::clone(&done);
        let base = trace.to_path_buf();
        let spooled = Arc::new(SpoolStats::default());
        let stats = Arc::clone(&spooled);
        let accepting = listener.accept(move |stream, n| {
            let path = trace_path_for(&base, n);
            connected
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .push((n, path.clone()));
            let dir = match path.parent() {
                Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
                _ => PathBuf::from("."),
            };
            let result = match spool(stream, &dir, Arc::clone(&stats)) {
                Ok(input) => {
                    let config = WriterConfig {
                        behind_the_program: Some(input.program_end()),
                        ..config.clone()
                    };
                    let sink = sink(n, input.arrival());
                    record_threaded(input, &path, sink, config)
                }
                Err(e) => Err(RecordError::Spool {
                    dir: dir.clone(),
                    source: e,
                }),
            };
            results
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .push((n, RecordedTrace { path, result }));
        });
        Ok(LiveRecording {
            socket_path,
            accepting,
            started,
            done,
            spooled,
        })
    }

    /// How much of the programs' streams has arrived and is still to be stored.
    pub fn spooled(&self) -> Arc<SpoolStats> {
        Arc::clone(&self.spooled)
    }

    /// The path to pass to the agent as `socket=PATH`.
    pub fn socket_path(&self) -> &Path {
        &self.socket_path
    }

    /// Every JVM connected so far, in connection order, with its state.
    pub fn jvms(&self) -> Vec<JvmTrace> {
        let started = self
            .started
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone();
        let done = self.done.lock().unwrap_or_else(|p| p.into_inner());
        let mut out: Vec<JvmTrace> = started
            .into_iter()
            .map(
                |(index, path)| match done.iter().find(|(n, _)| *n == index) {
                    None => JvmTrace {
                        index,
                        path,
                        state: "recording",
                        detail: None,
                        events: 0,
                        nodes: 0,
                    },
                    Some((_, t)) => JvmTrace::ended(index, t),
                },
            )
            .collect();
        out.sort_by_key(|j| j.index);
        out
    }

    /// Stops accepting new JVMs, waits for the connected ones to end, and returns their traces in
    /// connection order.
    pub fn finish(self) -> std::io::Result<Vec<RecordedTrace>> {
        self.accepting.finish()?;
        let mut done = std::mem::take(&mut *self.done.lock().unwrap_or_else(|p| p.into_inner()));
        done.sort_by_key(|(n, _)| *n);
        Ok(done.into_iter().map(|(_, t)| t).collect())
    }
}

impl JvmTrace {
    fn ended(index: usize, t: &RecordedTrace) -> JvmTrace {
        use crate::trace::store::Ending;
        let (state, detail, events, nodes) = match &t.result {
            Ok(s) => match &s.ending {
                Ending::End { .. } => ("complete", None, s.events, s.nodes),
                Ending::Truncated { detail } => {
                    ("truncated", Some(detail.clone()), s.events, s.nodes)
                }
                Ending::Malformed { detail } => {
                    ("malformed", Some(detail.clone()), s.events, s.nodes)
                }
            },
            Err(e) => ("failed", Some(e.to_string()), 0, 0),
        };
        JvmTrace {
            index,
            path: t.path.clone(),
            state,
            detail,
            events,
            nodes,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::recorder::NullSink;
    use crate::trace::store::TraceReader;
    use crate::trace::synthetic;
    use crate::trace::wire::Value;
    use std::io::Write;
    use std::os::unix::net::UnixStream;

    #[test]
    fn further_jvms_get_numbered_traces() {
        assert_eq!(
            trace_path_for(Path::new("/t/run.htrace"), 0),
            Path::new("/t/run.htrace")
        );
        assert_eq!(
            trace_path_for(Path::new("/t/run.htrace"), 1),
            Path::new("/t/run.2.htrace")
        );
        assert_eq!(trace_path_for(Path::new("run"), 2), Path::new("run.3"));
    }

    #[test]
    fn a_stream_sent_to_the_socket_becomes_a_trace() {
        let dir = tempfile::tempdir().unwrap();
        let trace = dir.path().join("run.htrace");
        let live = LiveRecording::start(&trace, WriterConfig::default(), |_, _| NullSink).unwrap();
        let mut b = synthetic::StreamBuilder::new();
        let class = b.class("p.Main", true);
        let main = b.method(class, "main", "([Ljava/lang/String;)V", true, &["args"]);
        let t = b.thread("main");
        b.call(t, main, &[Value::Null]);
        b.line(t, 3);
        b.ret(t, Value::Void);
        let bytes = b.end(0);
        let mut client = UnixStream::connect(live.socket_path()).unwrap();
        client.write_all(&bytes).unwrap();
        drop(client);
        // The JVM is listed from its connection on, and complete once its stream ended.
        let mut jvms = live.jvms();
        for _ in 0..1000 {
            if jvms.first().is_some_and(|j| j.state != "recording") {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
            jvms = live.jvms();
        }
        assert_eq!(jvms.len(), 1, "{jvms:?}");
        assert_eq!((jvms[0].state, jvms[0].nodes), ("complete", 3), "{jvms:?}");
        let traces = live.finish().unwrap();
        assert_eq!(traces.len(), 1);
        let summary = traces[0].result.as_ref().unwrap();
        assert_eq!(summary.nodes, 3, "root, thread, main: {summary:?}");
        let reader = TraceReader::open(&trace).unwrap();
        assert_eq!(reader.info().unwrap().nodes, summary.nodes);
    }

    #[test]
    fn a_jvm_that_dies_leaves_a_trace_listed_as_truncated() {
        let dir = tempfile::tempdir().unwrap();
        let trace = dir.path().join("run.htrace");
        let live = LiveRecording::start(&trace, WriterConfig::default(), |_, _| NullSink).unwrap();
        assert!(live.jvms().is_empty(), "no JVM before one connects");
        let mut b = synthetic::StreamBuilder::new();
        let class = b.class("p.Main", true);
        let main = b.method(class, "main", "([Ljava/lang/String;)V", true, &["args"]);
        let t = b.thread("main");
        b.call(t, main, &[Value::Null]);
        b.line(t, 3);
        let bytes = b.killed();
        let mut client = UnixStream::connect(live.socket_path()).unwrap();
        client.write_all(&bytes).unwrap();
        drop(client);
        let traces = live.finish().unwrap();
        let listed = JvmTrace::ended(0, &traces[0]);
        assert_eq!(listed.state, "truncated", "{listed:?}");
        assert!(listed.detail.is_some(), "{listed:?}");
        assert_eq!(listed.path, trace);
        let reader = TraceReader::open(&trace).unwrap();
        assert_eq!(reader.info().unwrap().status, "truncated");
    }
}
