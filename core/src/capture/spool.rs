//! The agent's stream spooled to disk as fast as it arrives.
//!
//! A program makes events faster than the store can index them (docs/benchmarks.md): read
//! straight from the socket, a slower store would fill the socket's buffer and hold the program
//! back at the store's pace. A thread of its own copies the socket into an unnamed file beside
//! the trace, and the decoder reads that file behind it, so the program waits only for the disk
//! and the store catches up after the program has ended. The backlog is on disk, never in
//! memory, and [`SpoolStats`] shows it. The file has no name, so nothing is left behind when the
//! recorder ends or is killed.

use std::fs::File;
use std::io::{self, Read};
use std::os::unix::fs::FileExt;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};

use crate::trace::priority::ProgramEnd;
use crate::trace::wire::FrameEnds;

/// Bytes read from the socket at once.
const CHUNK: usize = 256 * 1024;

/// How much of the streams has arrived and how much the decoder has read, over every stream
/// spooled with the same stats.
#[derive(Debug, Default)]
pub struct SpoolStats {
    received: AtomicU64,
    consumed: AtomicU64,
}

impl SpoolStats {
    /// Bytes received and not yet decoded: how far the store is behind the program.
    pub fn backlog(&self) -> u64 {
        self.received
            .load(Ordering::Relaxed)
            .saturating_sub(self.consumed.load(Ordering::Relaxed))
    }

    pub fn received(&self) -> u64 {
        self.received.load(Ordering::Relaxed)
    }
}

/// How much of one stream has arrived so far, to the end of its last whole frame: a front end
/// that waits for the store to reach a moment of the program compares it with what the store
/// has committed (`NodeSink::committed`). A frame the agent is still writing (its thread may
/// be suspended halfway by a Java debugger) is not waited for.
#[derive(Clone, Debug, Default)]
pub struct Arrival(Arc<AtomicU64>);

impl Arrival {
    pub fn bytes(&self) -> u64 {
        self.0.load(Ordering::Acquire)
    }
}

/// What the copying thread has done so far.
#[derive(Default)]
struct Written {
    len: u64,
    /// The socket ended (`Ok`) or failed.
    end: Option<Result<(), (io::ErrorKind, String)>>,
}

struct Shared {
    file: File,
    /// Set once the socket ended: the program has ended (or closed its stream).
    ended: ProgramEnd,
    written: Mutex<Written>,
    grew: Condvar,
    stats: Arc<SpoolStats>,
    arrival: Arrival,
}

/// Starts copying `input` into an unnamed file in `dir`; the returned reader yields the same
/// bytes, waiting for them as they arrive, and ends when `input` ends.
pub fn spool<R: Read + Send + 'static>(
    mut input: R,
    dir: &Path,
    stats: Arc<SpoolStats>,
) -> io::Result<SpoolReader> {
    let shared = Arc::new(Shared {
        file: tempfile::tempfile_in(dir)?,
        ended: ProgramEnd::default(),
        written: Mutex::new(Written::default()),
        grew: Condvar::new(),
        stats,
        arrival: Arrival::default(),
    });
    let writer = Arc::clone(&shared);
    std::thread::Builder::new()
        .name("hindsight-spool".into())
        .spawn(move || {
            let end = copy(&mut input, &writer);
            let mut w = writer.written.lock().unwrap_or_else(|p| p.into_inner());
            w.end = Some(end.map_err(|e| (e.kind(), e.to_string())));
            writer.ended.set();
            writer.grew.notify_all();
        })?;
    Ok(SpoolReader { shared, pos: 0 })
}

/// Copies `input` to the end of the file until `input` ends or fails.
fn copy(input: &mut impl Read, shared: &Shared) -> io::Result<()> {
    let mut buf = vec![0u8; CHUNK];
    let mut len = 0u64;
    let mut frames = FrameEnds::default();
    loop {
        let n = match input.read(&mut buf) {
            Ok(0) => return Ok(()),
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        shared.file.write_all_at(&buf[..n], len)?;
        len += n as u64;
        shared
            .arrival
            .0
            .store(frames.take(&buf[..n]), Ordering::Release);
        shared.stats.received.fetch_add(n as u64, Ordering::Relaxed);
        let mut w = shared.written.lock().unwrap_or_else(|p| p.into_inner());
        w.len = len;
        shared.grew.notify_all();
    }
}

/// The spooled stream, read as it grows.
pub struct SpoolReader {
    shared: Arc<Shared>,
    pos: u64,
}

impl SpoolReader {
    /// Says when the stream has arrived whole: the program has ended, only the store is left.
    pub fn program_end(&self) -> ProgramEnd {
        self.shared.ended.clone()
    }

    /// How much of this stream has arrived so far.
    pub fn arrival(&self) -> Arrival {
        self.shared.arrival.clone()
    }
}

impl Read for SpoolReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        let available = {
            let mut w = self
                .shared
                .written
                .lock()
                .unwrap_or_else(|p| p.into_inner());
            while w.len == self.pos && w.end.is_none() {
                w = self.shared.grew.wait(w).unwrap_or_else(|p| p.into_inner());
            }
            if w.len == self.pos {
                // Everything is read: end as the socket ended.
                return match &w.end {
                    Some(Err((kind, message))) => Err(io::Error::new(*kind, message.clone())),
                    _ => Ok(0),
                };
            }
            w.len - self.pos
        };
        let n = buf.len().min(available as usize);
        let n = self.shared.file.read_at(&mut buf[..n], self.pos)?;
        self.pos += n as u64;
        self.shared
            .stats
            .consumed
            .fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that hands out its bytes in small pieces, then fails or ends.
    struct Pieces {
        data: Vec<u8>,
        at: usize,
        fail_at_end: bool,
    }

    impl Read for Pieces {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.at == self.data.len() {
                return if self.fail_at_end {
                    Err(io::Error::new(
                        io::ErrorKind::ConnectionReset,
                        "reset by peer",
                    ))
                } else {
                    Ok(0)
                };
            }
            let n = buf.len().min(7).min(self.data.len() - self.at);
            buf[..n].copy_from_slice(&self.data[self.at..self.at + n]);
            self.at += n;
            Ok(n)
        }
    }

    fn data() -> Vec<u8> {
        (0..300_000u32).map(|i| (i % 251) as u8).collect()
    }

    #[test]
    fn the_reader_gets_every_byte_in_order_then_the_end() {
        let dir = tempfile::tempdir().unwrap();
        let stats = Arc::new(SpoolStats::default());
        let input = Pieces {
            data: data(),
            at: 0,
            fail_at_end: false,
        };
        let mut reader = spool(input, dir.path(), Arc::clone(&stats)).unwrap();
        let mut out = Vec::new();
        reader.read_to_end(&mut out).unwrap();
        assert_eq!(out, data());
        assert_eq!(stats.received(), data().len() as u64);
        assert_eq!(stats.backlog(), 0);
        // The file has no name: the directory stays empty.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn a_failing_stream_fails_the_reader_after_its_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let input = Pieces {
            data: data(),
            at: 0,
            fail_at_end: true,
        };
        let mut reader = spool(input, dir.path(), Arc::default()).unwrap();
        let mut out = vec![0u8; data().len()];
        reader.read_exact(&mut out).unwrap();
        assert_eq!(out, data());
        let e = reader.read(&mut [0u8; 16]).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::ConnectionReset);
    }

    #[test]
    fn the_program_is_not_held_back_by_a_slow_reader() {
        // The whole stream is taken in while nobody reads: a store that has not started yet
        // holds nothing up.
        let dir = tempfile::tempdir().unwrap();
        let stats = Arc::new(SpoolStats::default());
        let total = data().len() as u64;
        let mut reader = spool(
            Pieces {
                data: data(),
                at: 0,
                fail_at_end: false,
            },
            dir.path(),
            Arc::clone(&stats),
        )
        .unwrap();
        // A guard against a hang, not a speed limit: the copy takes milliseconds.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while stats.received() < total {
            assert!(
                std::time::Instant::now() < deadline,
                "the spool stopped copying"
            );
            std::thread::yield_now();
        }
        assert_eq!(stats.backlog(), total);
        let mut out = Vec::new();
        reader.read_to_end(&mut out).unwrap();
        assert_eq!(out.len() as u64, total);
        assert_eq!(stats.backlog(), 0);
    }

    #[test]
    fn the_arrival_ends_at_the_last_whole_frame() {
        use crate::trace::synthetic::StreamBuilder;
        use crate::trace::wire::{frame_ends, Value};
        let mut b = StreamBuilder::new();
        let c = b.class("p.Main", true);
        let main = b.method(c, "main", "()V", true, &[]);
        let t = b.thread("main");
        b.call(t, main, &[]);
        b.ret(t, Value::Void);
        let whole = b.end(0);
        let ends = frame_ends(&whole);
        // The program stopped halfway through its END frame.
        let cut = &whole[..whole.len() - 1];
        let dir = tempfile::tempdir().unwrap();
        let input = Pieces {
            data: cut.to_vec(),
            at: 0,
            fail_at_end: false,
        };
        let mut reader = spool(input, dir.path(), Arc::default()).unwrap();
        reader.read_to_end(&mut Vec::new()).unwrap();
        assert_eq!(reader.arrival().bytes(), ends[ends.len() - 2]);
    }
}
