//! Recording a whole stream: decode frames, hand them to the recorder, close the trace
//! however the stream ends.

use std::io::Read;
use std::path::Path;
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::sync::mpsc::RecvTimeoutError;
use std::sync::Arc;
use std::time::Duration;

use super::{NodeSink, RecordError, Recorder, Summary};
use crate::trace::priority::{behind_the_program, ProgramEnd, Successor};
use crate::trace::store::{Ending, WriterConfig};
use crate::trace::wire::{Decoder, Frame, WireError, WireEvents};

/// Records a whole stream into a new trace file at `trace`. A stream with a wrong header is an
/// error (no trace is created); a truncated or malformed stream still gives a trace with
/// everything before the problem, and the summary says how it ended. The store keeps the
/// caller's priority (`WriterConfig::behind_the_program` is for `record_threaded`).
pub fn record<R: Read, S: NodeSink>(
    input: R,
    trace: &Path,
    sink: S,
    config: WriterConfig,
) -> Result<Summary, RecordError> {
    let decoder = Decoder::new(input)?;
    let rec = Recorder::create(trace, sink, config)?;
    drive_kept(rec, Inline(decoder))
}

/// `record`, with the decoding on a thread of its own so that it overlaps with storing. On a
/// store error it returns at once; the decoding thread then ends at its next frame. With
/// `WriterConfig::behind_the_program`, the store's threads run behind the program while it runs
/// and the sink lets them (`trace::priority`).
pub fn record_threaded<R, S>(
    input: R,
    trace: &Path,
    sink: S,
    config: WriterConfig,
) -> Result<Summary, RecordError>
where
    R: Read + Send + 'static,
    S: NodeSink + Send + 'static,
{
    let decoder = Decoder::new(input)?;
    let place = match &config.behind_the_program {
        Some(end) => Place::MayFallBehind(end.clone()),
        None => Place::Kept,
    };
    // Successors carry on the writer's and the decoder's work once the program has ended;
    // without one a thread carries on lowered, which costs only speed.
    let successor = || match place {
        Place::Kept => None,
        _ => Successor::start().ok(),
    };
    let (writer_successor, decoder_successor) = (successor(), successor());
    let rec = Recorder::create(trace, sink, config)?;
    // Bounded: a slow store holds the decoder back (and through it the agent) instead of
    // buffering without limit. `queued` counts the frames decoded and not yet stored, so the
    // store can tell (and its sink show) that the program waits for it. Stored frames go back
    // to the decoder (`used`), whose vectors the next frames reuse.
    let (tx, rx) = std::sync::mpsc::sync_channel::<Decoded>(FRAME_QUEUE);
    let (used_tx, used_rx) = std::sync::mpsc::channel::<(Frame, Option<WireEvents>)>();
    let queued = Arc::new(AtomicUsize::new(0));
    let priority = Arc::new(AtomicU8::new(KEPT));
    let decoding = Decoding {
        decoder,
        frames: tx,
        used: used_rx,
        decoded: Arc::clone(&queued),
        priority: Arc::clone(&priority),
        at: KEPT,
    };
    std::thread::Builder::new()
        .name("hindsight-decoder".into())
        .spawn(move || decoding.run(decoder_successor))
        .map_err(|source| WireError::Io { offset: 0, source })?;
    let source = Threaded {
        rx,
        used: used_tx,
        queued,
        priority,
        position: 0,
    };
    match drive(rec, source, place) {
        Driven::Done(result) => result,
        Driven::Lifted(rec, source) => {
            let rest = move || {
                let mut rec = *rec;
                rec.lift();
                drive_kept(rec, source)
            };
            match writer_successor {
                Some(successor) => successor.carry_on(rest),
                None => rest(),
            }
        }
    }
}

/// The decoding thread's state (`record_threaded`).
struct Decoding<R> {
    decoder: Decoder<R>,
    frames: std::sync::mpsc::SyncSender<Decoded>,
    used: std::sync::mpsc::Receiver<(Frame, Option<WireEvents>)>,
    decoded: Arc<AtomicUsize>,
    /// Where the writer wants this thread (`KEPT`, `BEHIND`, `LIFTED`), and where it is.
    priority: Arc<AtomicU8>,
    at: u8,
}

impl<R: Read + Send + 'static> Decoding<R> {
    /// Decodes until END, the end of the stream or an error, or until the receiver hangs up;
    /// lifted, goes on on `successor`'s thread.
    fn run(mut self, mut successor: Option<Successor>) {
        loop {
            let wanted = self.priority.load(Ordering::Relaxed);
            if wanted != self.at {
                let was = std::mem::replace(&mut self.at, wanted);
                match (was, wanted, successor.take()) {
                    (KEPT, BEHIND, s) => {
                        behind_the_program();
                        successor = s;
                    }
                    (BEHIND, LIFTED, Some(s)) => return s.carry_on(move || self.run(None)),
                    (_, _, s) => successor = s,
                }
            }
            while let Ok((frame, wire)) = self.used.try_recv() {
                self.decoder.recycle(frame, wire);
            }
            let next = self.decoder.next_frame().map(|f| {
                f.map(|frame| DecodedFrame {
                    frame,
                    wire: self.decoder.take_wire(),
                    end: self.decoder.offset(),
                })
            });
            // Stop after END, at the end of the stream or at an error.
            let last = !matches!(&next, Ok(Some(d)) if !matches!(d.frame, Frame::End { .. }));
            self.decoded.fetch_add(1, Ordering::Relaxed);
            if self.frames.send(next).is_err() || last {
                return;
            }
        }
    }
}

/// The decoding thread's priority (`Decoding::priority`): the recorder's, behind the
/// program, or the recorder's again on a successor.
const KEPT: u8 = 0;
const BEHIND: u8 = 1;
const LIFTED: u8 = 2;

/// A decoded frame with the bytes of its events, or the stream's end or error.
type Decoded = Result<Option<DecodedFrame>, WireError>;

struct DecodedFrame {
    frame: Frame,
    wire: Option<WireEvents>,
    /// Where the frame ends in the stream.
    end: u64,
}

/// Where `drive` takes frames from, and gives them back to once stored.
trait Source {
    fn next(&mut self) -> Result<Next, WireError>;
    fn give_back(&mut self, frame: Frame, wire: Option<WireEvents>);
    /// Where the last frame `next` returned ends in the stream.
    fn position(&self) -> u64;
    /// Moves the source's own threads, if any, behind the program (`trace::priority`).
    fn run_behind_the_program(&mut self) {}
    /// Moves them back to the recorder's priority: the program has ended.
    fn lift(&mut self) {}
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

    fn position(&self) -> u64 {
        self.0.offset()
    }
}

/// Decoding on a thread of its own (`record_threaded`).
struct Threaded {
    rx: std::sync::mpsc::Receiver<Decoded>,
    used: std::sync::mpsc::Sender<(Frame, Option<WireEvents>)>,
    queued: Arc<AtomicUsize>,
    /// Tells the decoder's thread where to move at its next frame (`Decoding::priority`).
    priority: Arc<AtomicU8>,
    position: u64,
}

impl Source for Threaded {
    fn next(&mut self) -> Result<Next, WireError> {
        match self.rx.recv_timeout(IDLE) {
            Ok(next) => {
                let behind = self.queued.fetch_sub(1, Ordering::Relaxed) > FRAME_QUEUE;
                next.map(|f| match f {
                    Some(DecodedFrame { frame, wire, end }) => {
                        self.position = end;
                        Next::Frame {
                            frame,
                            wire,
                            behind,
                        }
                    }
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

    fn position(&self) -> u64 {
        self.position
    }

    fn run_behind_the_program(&mut self) {
        self.priority.store(BEHIND, Ordering::Relaxed);
    }

    fn lift(&mut self) {
        self.priority.store(LIFTED, Ordering::Relaxed);
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

/// Where the store's threads run (`trace::priority`).
enum Place {
    /// At the recorder's priority, to the end.
    Kept,
    /// At the recorder's priority until the sink lets them fall behind, unless the program has
    /// ended by then.
    MayFallBehind(ProgramEnd),
    /// Behind the program until it ends.
    Behind(ProgramEnd),
}

/// How `drive` stopped.
enum Driven<S: NodeSink, Src> {
    Done(Result<Summary, RecordError>),
    /// The program ended while the threads ran behind it: the source's are told to carry on at
    /// the recorder's priority; the writer's work is for the caller to carry on.
    Lifted(Box<Recorder<S>>, Src),
}

/// Stores every frame of `source`, moving the threads as `place` says.
fn drive<S: NodeSink, Src: Source>(
    mut rec: Recorder<S>,
    mut source: Src,
    mut place: Place,
) -> Driven<S, Src> {
    // This loop polls, so periodic commits may be sealed on the store's threads.
    rec.pipeline();
    loop {
        match &place {
            Place::MayFallBehind(end) if rec.sink().store_may_fall_behind() => {
                place = if end.has_ended() || rec.sink().store_awaited() {
                    Place::Kept
                } else {
                    source.run_behind_the_program();
                    rec.run_behind_the_program();
                    behind_the_program();
                    Place::Behind(end.clone())
                };
            }
            Place::Behind(end) if end.has_ended() || rec.sink().store_awaited() => {
                source.lift();
                return Driven::Lifted(Box::new(rec), source);
            }
            _ => {}
        }
        match store_next(&mut rec, &mut source) {
            Ok(None) => {}
            Ok(Some(ending)) => return Driven::Done(rec.finish(ending).map_err(Into::into)),
            Err(e) => return Driven::Done(Err(e)),
        }
    }
}

/// `drive` with the threads where they are, to the end.
fn drive_kept<S: NodeSink>(rec: Recorder<S>, source: impl Source) -> Result<Summary, RecordError> {
    match drive(rec, source, Place::Kept) {
        Driven::Done(result) => result,
        // A store kept where it is is never lifted; were it, it would carry on here.
        Driven::Lifted(rec, source) => drive_kept(*rec, source),
    }
}

/// Stores the next frame of `source` (or commits while none comes): how the trace ends once
/// the stream has.
fn store_next<S: NodeSink>(
    rec: &mut Recorder<S>,
    source: &mut impl Source,
) -> Result<Option<Ending>, RecordError> {
    rec.poll()?;
    Ok(match source.next() {
        Ok(Next::Frame {
            frame: Frame::End { exit_status },
            ..
        }) => {
            // Readers (a live session) see the last calls now, not after `finish` has
            // built its indexes.
            rec.commit()?;
            rec.sink().committed(source.position());
            Some(Ending::End { exit_status })
        }
        Ok(Next::Frame {
            frame,
            wire,
            behind,
        }) => {
            rec.handle(&frame, wire.as_ref())?;
            source.give_back(frame, wire);
            let wanted = rec.sink().commit_wanted();
            if wanted {
                rec.commit()?;
            }
            report(rec, source, behind, wanted);
            None
        }
        Ok(Next::Idle) => {
            let wanted = rec.sink().commit_wanted();
            if wanted {
                rec.commit()?;
            } else {
                rec.maybe_commit()?;
            }
            report(rec, source, false, wanted);
            None
        }
        Ok(Next::Ended) => {
            let detail = "the stream ended without an END frame".to_string();
            Some(Ending::Truncated { detail })
        }
        // A connection reset is how a killed JVM looks from here.
        Err(e @ (WireError::Truncated { .. } | WireError::Io { .. })) => {
            let detail = e.to_string();
            rec.warn(None, &detail)?;
            Some(Ending::Truncated { detail })
        }
        Err(e) => {
            let detail = e.to_string();
            rec.warn(None, &detail)?;
            Some(Ending::Malformed { detail })
        }
    })
}

/// Tells the sink the counts after a frame or an idle moment and, after a commit it asked for,
/// how far the stream is committed (after the counts: their headers are then handed over).
fn report<S: NodeSink>(rec: &mut Recorder<S>, source: &impl Source, behind: bool, committed: bool) {
    let counts = rec.counts().clone();
    rec.sink().progress(&counts, behind);
    if committed {
        rec.sink().committed(source.position());
    }
}
