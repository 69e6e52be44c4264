//! Recording a whole stream: decode frames, hand them to the recorder, close the trace
//! however the stream ends.

use std::io::Read;
use std::path::Path;

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
    drive(rec, || decoder.next_frame())
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
    // buffering without limit.
    let (tx, rx) = std::sync::mpsc::sync_channel::<Result<Option<Frame>, WireError>>(32);
    std::thread::Builder::new()
        .name("hindsight-decoder".into())
        .spawn(move || loop {
            let next = decoder.next_frame();
            // Stop after END, at the end of the stream or at an error.
            let last = !matches!(&next, Ok(Some(f)) if !matches!(f, Frame::End { .. }));
            if tx.send(next).is_err() || last {
                return;
            }
        })
        .map_err(|source| WireError::Io { offset: 0, source })?;
    drive(rec, || rx.recv().unwrap_or(Ok(None)))
}

fn drive<S: NodeSink>(
    mut rec: Recorder<S>,
    mut next: impl FnMut() -> Result<Option<Frame>, WireError>,
) -> Result<Summary, RecordError> {
    loop {
        match next() {
            Ok(Some(Frame::End { exit_status })) => {
                return Ok(rec.finish(Ending::End { exit_status })?)
            }
            Ok(Some(frame)) => rec.handle(frame)?,
            Ok(None) => {
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
