//! Where the recording behind a session stands, as a UI shows it while the program runs and
//! after: recording (with its counts so far), then the trace's own ending (complete, truncated
//! when the JVM died or was killed, malformed when a broken stream stopped it).

use serde::Serialize;

use super::{DebugError, Debugger};

/// The recording's state and counts (the plugin's "recording… N events, M nodes").
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RecordingStatus {
    /// `recording` while a live session's program runs or its last nodes are taken in; then
    /// the trace's status: `complete`, `truncated` (no end: the JVM died or was killed;
    /// everything before is kept), `malformed`, or `empty` (the program sent nothing).
    pub state: String,
    /// The recorder's detail about a truncated or malformed ending.
    pub detail: Option<String>,
    pub events: u64,
    /// Nodes recorded: the run, one per thread, one per call.
    pub nodes: u64,
    pub complete_nodes: u64,
}

impl Debugger {
    /// The recording's state; takes in what the recorder sent first.
    pub fn status(&mut self) -> Result<RecordingStatus, DebugError> {
        self.pump()?;
        if !self.is_sealed() {
            if let Some(feed) = self.recording() {
                let p = feed.progress();
                return Ok(RecordingStatus {
                    state: "recording".into(),
                    detail: None,
                    events: p.events,
                    nodes: p.nodes,
                    complete_nodes: p.complete_nodes,
                });
            }
        }
        self.open_reader()?;
        let Some(reader) = &self.reader else {
            return Ok(RecordingStatus {
                state: "empty".into(),
                detail: None,
                events: 0,
                nodes: 0,
                complete_nodes: 0,
            });
        };
        let info = reader.info()?;
        Ok(RecordingStatus {
            state: info.status,
            detail: info.ending_detail,
            events: info.events,
            nodes: info.nodes,
            complete_nodes: info.complete_nodes,
        })
    }
}
