//! Recording a whole stream: decode frames, hand them to the recorder, close the trace
//! however the stream ends.

use std::io::Read;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::RecvTimeoutError;
use std::sync::Arc;
use std::time::Duration;

use super::{NodeSink, RecordError, Recorder, Summary};
use crate::trace::priority::behind_the_program;
use crate::trace::store::{Ending, WriterConfig};
use crate::trace::wire::{Decoder, Frame, WireError, WireEvents};

/// Records a whole stream into a new trace file at `trace`. A stream with a wrong header is an
/// error (no trace is created); a truncated or malformed stream still gives a trace with
/// everything before the problem, and the summary says how it ended.
pub fn record<R: Read, S: NodeSink>(
    input: R,
    trace: &Path,
    sink: S,
    config: WriterConfig,
) -> Result<Summary, RecordError> {
    let decoder = Decoder::new(input)?;
    let behind = config.behind_the_program;
    let rec = Recorder::create(trace, sink, config)?;
    drive(rec, Inline(decoder), behind)
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
    let behind = config.behind_the_program;
    let rec = Recorder::create(trace, sink, config)?;
    // Bounded: a slow store holds the decoder back (and through it the agent) instead of
    // buffering without limit. `queued` counts the frames decoded and not yet stored, so the
    // store can tell (and its sink show) that the program waits for it. Stored frames go back
    // to the decoder (`used`), whose vectors the next frames reuse.
    let (tx, rx) = std::sync::mpsc::sync_channel::<Decoded>(FRAME_QUEUE);
    let (used_tx, used_rx) = std::sync::mpsc::channel::<(Frame, Option<WireEvents>)>();
    let queued = Arc::new(AtomicUsize::new(0));
    let decoded = Arc::clone(&queued);
    let run_behind = Arc::new(AtomicBool::new(false));
    let lower = Arc::clone(&run_behind);
    let mut lowered = false;
    std::thread::Builder::new()
        .name("hindsight-decoder".into())
        .spawn(move || loop {
            if !lowered && lower.load(Ordering::Relaxed) {
                behind_the_program();
                lowered = true;
            }
            while let Ok((frame, wire)) = used_rx.try_recv() {
                decoder.recycle(frame, wire);
            }
            let next = decoder
                .next_frame()
                .map(|f| f.map(|f| (f, decoder.take_wire())));
            // Stop after END, at the end of the stream or at an error.
            let last = !matches!(&next, Ok(Some((f, _))) if !matches!(f, Frame::End { .. }));
            decoded.fetch_add(1, Ordering::Relaxed);
            if tx.send(next).is_err() || last {
                return;
            }
        })
        .map_err(|source| WireError::Io { offset: 0, source })?;
    drive(
        rec,
        Threaded {
            rx,
            used: used_tx,
            queued,
            run_behind,
        },
        behind,
    )
}

/// A decoded frame with the bytes of its events, or the stream's end or error.
type Decoded = Result<Option<(Frame, Option<WireEvents>)>, WireError>;

/// Where `drive` takes frames from, and gives them back to once stored.
trait Source {
    fn next(&mut self) -> Result<Next, WireError>;
    fn give_back(&mut self, frame: Frame, wire: Option<WireEvents>);
    /// Moves the source's own threads, if any, behind the program (`trace::priority`).
    fn run_behind_the_program(&mut self) {}
}

/// Decoding on the recorder's thread.
struct Inline<R>(Decoder<R>);

impl<R: Read> Source for Inline<R> {
    fn next(&mut self) -> Result<Next, WireError> {
        Ok(match self.0.next_frame()? {
            Some(frame) => Next::Frame {
                frame,
                wire: self.0.take_wire(),
                behind: false,
            },
            None => Next::Ended,
        })
    }

    fn give_back(&mut self, frame: Frame, wire: Option<WireEvents>) {
        self.0.recycle(frame, wire);
    }
}

/// Decoding on a thread of its own (`record_threaded`).
struct Threaded {
    rx: std::sync::mpsc::Receiver<Decoded>,
    used: std::sync::mpsc::Sender<(Frame, Option<WireEvents>)>,
    queued: Arc<AtomicUsize>,
    /// Tells the decoder's thread to lower itself at its next frame.
    run_behind: Arc<AtomicBool>,
}

impl Source for Threaded {
    fn next(&mut self) -> Result<Next, WireError> {
        match self.rx.recv_timeout(IDLE) {
            Ok(next) => {
                let behind = self.queued.fetch_sub(1, Ordering::Relaxed) > FRAME_QUEUE;
                next.map(|f| match f {
                    Some((frame, wire)) => Next::Frame {
                        frame,
                        wire,
                        behind,
                    },
                    None => Next::Ended,
                })
            }
            Err(RecvTimeoutError::Timeout) => Ok(Next::Idle),
            Err(RecvTimeoutError::Disconnected) => Ok(Next::Ended),
        }
    }

    fn give_back(&mut self, frame: Frame, wire: Option<WireEvents>) {
        // The decoder may have stopped; then the vectors are dropped here.
        let _ = self.used.send((frame, wire));
    }

    fn run_behind_the_program(&mut self) {
        self.run_behind.store(true, Ordering::Relaxed);
    }
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
        wire: Option<WireEvents>,
        behind: bool,
    },
    /// No frame for a while.
    Idle,
    /// The stream ended (without `END`).
    Ended,
}

/// Stores every frame of `source`. With `run_behind`, the store's threads lower their priority
/// once the sink lets them (`trace::priority`).
fn drive<S: NodeSink>(
    mut rec: Recorder<S>,
    mut source: impl Source,
    run_behind: bool,
) -> Result<Summary, RecordError> {
    // This loop polls, so periodic commits may be sealed on the store's threads.
    rec.pipeline();
    // Whether the threads are where they should be (nothing to do without the policy).
    let mut placed = !run_behind;
    loop {
        if !placed && rec.sink().store_may_fall_behind() {
            source.run_behind_the_program();
            rec.run_behind_the_program();
            behind_the_program();
            placed = true;
        }
        rec.poll()?;
        match source.next() {
            Ok(Next::Frame {
                frame: Frame::End { exit_status },
                ..
            }) => {
                // Readers (a live session) see the last calls now, not after `finish` has
                // built its indexes.
                rec.commit()?;
                return Ok(rec.finish(Ending::End { exit_status })?);
            }
            Ok(Next::Frame {
                frame,
                wire,
                behind,
            }) => {
                rec.handle(&frame, wire.as_ref())?;
                source.give_back(frame, wire);
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
