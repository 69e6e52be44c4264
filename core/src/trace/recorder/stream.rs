//! Recording a whole stream: decode frames, hand them to the recorder, close the trace
//! however the stream ends.

use std::io::Read;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::RecvTimeoutError;
use std::sync::Arc;
use std::time::Duration;

use super::{NodeSink, RecordError, Recorder, Summary};
use crate::trace::store::{Ending, WriterConfig};
use crate::trace::wire::{Decoder, Frame, WireError};

/// Records a whole stream into a new trace file at `trace`. A stream with a wrong header is an
/// error (no trace is created); a truncated or malformed stream still gives a trace with
/// everything before the problem, and the summary says how it ended.
pub fn record<R: Read, S: NodeSink>(
    input: R,
    trace: &Path,
    sink: S,
    config: WriterConfig,
) -> Result<Summary, RecordError> {
    let mut decoder = Decoder::new(input)?;
    let rec = Recorder::create(trace, sink, config)?;
    drive(rec, || decoder.next_frame().map(Next::from))
}

/// `record`, with the decoding on a thread of its own so that it overlaps with storing. On a
/// store error it returns at once; the decoding thread then ends at its next frame.
pub fn record_threaded<R, S>(
    input: R,
    trace: &Path,
    sink: S,
    config: WriterConfig,
) -> Result<Summary, RecordError>
where
    R: Read + Send + 'static,
    S: NodeSink,
{
    let mut decoder = Decoder::new(input)?;
    let rec = Recorder::create(trace, sink, config)?;
    // Bounded: a slow store holds the decoder back (and through it the agent) instead of
    // buffering without limit. `queued` counts the frames decoded and not yet stored, so the
    // store can tell (and its sink show) that the program waits for it.
    let (tx, rx) = std::sync::mpsc::sync_channel::<Result<Option<Frame>, WireError>>(FRAME_QUEUE);
    let queued = Arc::new(AtomicUsize::new(0));
    let decoded = Arc::clone(&queued);
    std::thread::Builder::new()
        .name("hindsight-decoder".into())
        .spawn(move || loop {
            let next = decoder.next_frame();
            // Stop after END, at the end of the stream or at an error.
            let last = !matches!(&next, Ok(Some(f)) if !matches!(f, Frame::End { .. }));
            decoded.fetch_add(1, Ordering::Relaxed);
            if tx.send(next).is_err() || last {
                return;
            }
        })
        .map_err(|source| WireError::Io { offset: 0, source })?;
    drive(rec, || match rx.recv_timeout(IDLE) {
        Ok(next) => {
            let behind = queued.fetch_sub(1, Ordering::Relaxed) > FRAME_QUEUE;
            next.map(|f| match f {
                Some(frame) => Next::Frame { frame, behind },
                None => Next::Ended,
            })
        }
        Err(RecvTimeoutError::Timeout) => Ok(Next::Idle),
        Err(RecvTimeoutError::Disconnected) => Ok(Next::Ended),
    })
}

/// Frames decoded ahead of the store.
const FRAME_QUEUE: usize = 32;

/// How long the store waits for a frame before it looks at commit requests and its commit
/// interval: an idle program still has its last events committed, and a live session asking
/// for a commit is served within this time.
const IDLE: Duration = Duration::from_millis(2);

/// What the store gets next.
enum Next {
    Frame {
        frame: Frame,
        behind: bool,
    },
    /// No frame for a while.
    Idle,
    /// The stream ended (without `END`).
    Ended,
}

impl From<Option<Frame>> for Next {
    fn from(f: Option<Frame>) -> Next {
        match f {
            Some(frame) => Next::Frame {
                frame,
                behind: false,
            },
            None => Next::Ended,
        }
    }
}

fn drive<S: NodeSink>(
    mut rec: Recorder<S>,
    mut next: impl FnMut() -> Result<Next, WireError>,
) -> Result<Summary, RecordError> {
    // This loop polls, so periodic commits may be sealed on the store's threads.
    rec.pipeline();
    loop {
        rec.poll()?;
        match next() {
            Ok(Next::Frame {
                frame: Frame::End { exit_status },
                ..
            }) => {
                // Readers (a live session) see the last calls now, not after `finish` has
                // built its indexes.
                rec.commit()?;
                return Ok(rec.finish(Ending::End { exit_status })?);
            }
            Ok(Next::Frame { frame, behind }) => {
                rec.handle(frame)?;
                if rec.sink().commit_wanted() {
                    rec.commit()?;
                }
                let counts = rec.counts().clone();
                rec.sink().progress(&counts, behind);
            }
            Ok(Next::Idle) => {
                if rec.sink().commit_wanted() {
                    rec.commit()?;
                } else {
                    rec.maybe_commit()?;
                }
                let counts = rec.counts().clone();
                rec.sink().progress(&counts, false);
            }
            Ok(Next::Ended) => {
                let detail = "the stream ended without an END frame".to_string();
                return Ok(rec.finish(Ending::Truncated { detail })?);
            }
            // A connection reset is how a killed JVM looks from here.
            Err(e @ (WireError::Truncated { .. } | WireError::Io { .. })) => {
                let detail = e.to_string();
                rec.warn(None, &detail)?;
                return Ok(rec.finish(Ending::Truncated { detail })?);
            }
            Err(e) => {
                let detail = e.to_string();
                rec.warn(None, &detail)?;
                return Ok(rec.finish(Ending::Malformed { detail })?);
            }
        }
    }
}
