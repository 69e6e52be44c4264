//! The link between the recorder of a JVM and a live session: node headers (and the coverage of
//! each completed call) through a bounded channel, commit requests the other way, and the
//! recorder's progress for a front end to show.
//!
//! Coverage goes through only of the kinds the session keeps ([`FeedState::want_coverage`]):
//! copying two lists per call for a session that weighs by neither cost the store's thread about
//! a tenth of its time. A change of kinds reaches the session as a [`FeedItem::CoverageKinds`]
//! in the stream's order, so it knows from which call on the coverage it wants comes with it.
//!
//! The channel is bounded so that a session far behind the recorder holds the recorder back (and
//! through it the program) instead of growing without limit; each such wait is counted. A live
//! session drains it between questions and while a question waits for its answer. Items go
//! through it in batches (up to [`SEND_BATCH`], handed over when full, after each frame the
//! recorder stored, and at once while the session waits for one), so that a run of 10^7 calls
//! costs the store's thread and the session one channel operation per batch, not per header.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TryRecvError, TrySendError};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use super::{Arrival, SpoolStats};
use crate::coverage::NodeCoverage;
use crate::ids::NodeId;
use crate::trace::recorder::NodeSink;
use crate::trace::store::WriteCounts;
use crate::tree::{CoverageKind, NodeHeader};

/// Default capacity of the header channel (about 48 bytes a header: 3 MiB).
pub const DEFAULT_FEED_CAPACITY: usize = 1 << 16;

/// The most items the recorder hands over at once.
pub const SEND_BATCH: usize = 256;

/// The spool's backlog from which the store counts as behind the program
/// ([`FeedState::store_is_behind`]): four of the spool's reads from the socket. A store that
/// keeps pace decodes each read soon after it arrives, so its backlog stays below this.
pub const STORE_BEHIND_BYTES: u64 = 1 << 20;

/// What the recorder and the session share.
#[derive(Debug)]
pub struct FeedState {
    created: Instant,
    commit_wanted: AtomicBool,
    events: AtomicU64,
    nodes: AtomicU64,
    complete_nodes: AtomicU64,
    /// Frames after which the store was behind.
    store_behind_frames: AtomicU64,
    /// Whether the store was behind after the last frame (decoded frames waiting for it).
    store_behind_now: AtomicBool,
    /// Batches of headers the recorder had to wait to hand over (the session was behind).
    session_waits: AtomicU64,
    /// The session is waiting for a header: the recorder hands each one over at once.
    session_waiting: AtomicBool,
    /// When the first call completed, in nanoseconds since `created` plus one (0: not yet).
    first_complete_ns: AtomicU64,
    /// The spool of the recording's streams, once it started.
    spool: OnceLock<Arc<SpoolStats>>,
    /// The kinds of coverage the session keeps ([`CoverageKinds::bits`]).
    coverage_wanted: AtomicU8,
    /// The session showed its first question: the store may now run behind the program.
    first_question_shown: AtomicBool,
    /// How much of the stream has arrived, once the recording started.
    arrival: OnceLock<Arrival>,
    /// How much of the stream is committed (`NodeSink::committed`).
    committed_to: AtomicU64,
    /// A front end waits for the store (`NodeSink::store_awaited`).
    store_awaited: AtomicBool,
}

/// Which kinds of coverage a live session keeps, so which the recorder sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CoverageKinds {
    pub edges: bool,
    pub def_uses: bool,
}

impl CoverageKinds {
    /// What a feed sends until its session says otherwise.
    pub const ALL: CoverageKinds = CoverageKinds {
        edges: true,
        def_uses: true,
    };

    /// The kinds for which `keeps` holds.
    pub fn kept(keeps: impl Fn(CoverageKind) -> bool) -> CoverageKinds {
        CoverageKinds {
            edges: keeps(CoverageKind::Edge),
            def_uses: keeps(CoverageKind::DefUse),
        }
    }

    pub fn has(self, kind: CoverageKind) -> bool {
        match kind {
            CoverageKind::Edge => self.edges,
            CoverageKind::DefUse => self.def_uses,
        }
    }

    fn bits(self) -> u8 {
        u8::from(self.edges) | u8::from(self.def_uses) << 1
    }

    fn from_bits(bits: u8) -> CoverageKinds {
        CoverageKinds {
            edges: bits & 1 != 0,
            def_uses: bits & 2 != 0,
        }
    }
}

/// How far the stream of the program has arrived, and been committed to the trace.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StreamBytes {
    pub arrived: u64,
    pub committed: u64,
}

/// A snapshot of the recorder's progress.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    pub events: u64,
    pub nodes: u64,
    pub complete_nodes: u64,
    /// Frames after which the store was behind the program (what it has not stored yet waits
    /// in the spool).
    pub store_behind_frames: u64,
    pub session_waits: u64,
    /// Bytes of the program's stream received and not yet decoded (the spool's backlog).
    pub backlog_bytes: u64,
}

impl FeedState {
    fn new() -> FeedState {
        FeedState {
            created: Instant::now(),
            commit_wanted: AtomicBool::new(false),
            events: AtomicU64::new(0),
            nodes: AtomicU64::new(0),
            complete_nodes: AtomicU64::new(0),
            store_behind_frames: AtomicU64::new(0),
            store_behind_now: AtomicBool::new(false),
            session_waits: AtomicU64::new(0),
            session_waiting: AtomicBool::new(false),
            first_complete_ns: AtomicU64::new(0),
            spool: OnceLock::new(),
            coverage_wanted: AtomicU8::new(CoverageKinds::ALL.bits()),
            first_question_shown: AtomicBool::new(false),
            arrival: OnceLock::new(),
            committed_to: AtomicU64::new(0),
            store_awaited: AtomicBool::new(false),
        }
    }

    /// Asks the recorder to send from now on only the coverage of `kinds`; it answers with a
    /// [`FeedItem::CoverageKinds`] at the point of the stream where it starts doing so.
    pub fn want_coverage(&self, kinds: CoverageKinds) {
        self.coverage_wanted.store(kinds.bits(), Ordering::Release);
    }

    fn coverage_wanted(&self) -> CoverageKinds {
        CoverageKinds::from_bits(self.coverage_wanted.load(Ordering::Acquire))
    }

    /// Reports the backlog of `spool` in [`Progress::backlog_bytes`].
    pub fn watch_spool(&self, spool: Arc<SpoolStats>) {
        let _ = self.spool.set(spool);
    }

    /// Says that the session showed its first question: until then the store keeps the
    /// program's priority (`NodeSink::store_may_fall_behind`), so that the question is not
    /// held up behind a busy machine's other work.
    pub fn question_shown(&self) {
        self.first_question_shown.store(true, Ordering::Release);
    }

    /// Whether the session showed its first question ([`FeedState::question_shown`]).
    pub fn store_may_fall_behind(&self) -> bool {
        self.first_question_shown.load(Ordering::Acquire)
    }

    /// Says that a front end waits for the store to reach the program's present moment: from
    /// now on the store keeps the recorder's priority (`NodeSink::store_awaited`).
    pub fn await_store(&self) {
        self.store_awaited.store(true, Ordering::Release);
    }

    /// How much of the stream has arrived so far, and how much of it is committed; `None`
    /// before the recording started.
    pub fn stream_bytes(&self) -> Option<StreamBytes> {
        let arrived = self.arrival.get()?.bytes();
        Some(StreamBytes {
            arrived,
            committed: self.committed_to.load(Ordering::Acquire),
        })
    }

    /// Asks the recorder to commit at its next frame or idle moment.
    pub fn request_commit(&self) {
        self.commit_wanted.store(true, Ordering::Release);
    }

    pub fn progress(&self) -> Progress {
        Progress {
            events: self.events.load(Ordering::Relaxed),
            nodes: self.nodes.load(Ordering::Relaxed),
            complete_nodes: self.complete_nodes.load(Ordering::Relaxed),
            store_behind_frames: self.store_behind_frames.load(Ordering::Relaxed),
            session_waits: self.session_waits.load(Ordering::Relaxed),
            backlog_bytes: self.spool.get().map_or(0, |s| s.backlog()),
        }
    }

    /// Whether the store is behind the program now: after the last frame its decoded frames
    /// waited for it, or the spool holds at least [`STORE_BEHIND_BYTES`] not yet decoded. A
    /// session that answers by itself waits while this holds (`debugger::Pace`), so that its
    /// work never takes the CPU the store needs to catch up.
    pub fn store_is_behind(&self) -> bool {
        self.store_behind_now.load(Ordering::Relaxed)
            || self
                .spool
                .get()
                .is_some_and(|s| s.backlog() >= STORE_BEHIND_BYTES)
    }

    /// When the recorder handed over the first complete call.
    pub fn first_complete(&self) -> Option<Instant> {
        match self.first_complete_ns.load(Ordering::Acquire) {
            0 => None,
            n => Some(self.created + Duration::from_nanos(n - 1)),
        }
    }
}

/// What the recorder hands to a live session, in recording order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FeedItem {
    /// A node started or completed.
    Node(NodeHeader),
    /// The entities a call covered itself, just before its completion: only of the kinds sent.
    Coverage(NodeId, NodeCoverage),
    /// From here on, the coverage sent is of these kinds only (before the first such item: all).
    CoverageKinds(CoverageKinds),
}

/// The recorder's end: a [`NodeSink`].
pub struct FeedSink {
    tx: Option<SyncSender<Vec<FeedItem>>>,
    state: Arc<FeedState>,
    /// Items not handed over yet, and how many make a batch.
    batch: Vec<FeedItem>,
    batch_len: usize,
    /// The kinds of coverage sent from the last [`FeedItem::CoverageKinds`] on.
    sending: CoverageKinds,
}

/// The session's end.
pub struct Feed {
    rx: Receiver<Vec<FeedItem>>,
    state: Arc<FeedState>,
    ended: bool,
    /// Items of a received batch not taken yet.
    pending: VecDeque<FeedItem>,
}

/// A header channel of `capacity` items (in batches of up to [`SEND_BATCH`]) with its shared
/// state.
pub fn feed(capacity: usize) -> (FeedSink, Feed) {
    let batch_len = capacity.clamp(1, SEND_BATCH);
    let (tx, rx) = std::sync::mpsc::sync_channel((capacity / batch_len).max(1));
    let state = Arc::new(FeedState::new());
    let sink = FeedSink {
        tx: Some(tx),
        state: Arc::clone(&state),
        batch: Vec::with_capacity(batch_len),
        batch_len,
        sending: CoverageKinds::ALL,
    };
    (
        sink,
        Feed {
            rx,
            state,
            ended: false,
            pending: VecDeque::new(),
        },
    )
}

impl FeedSink {
    /// A sink that only counts progress (no session listens): for the further JVMs of a
    /// recording, and for `record`.
    pub fn progress_only() -> FeedSink {
        FeedSink {
            tx: None,
            state: Arc::new(FeedState::new()),
            batch: Vec::new(),
            batch_len: 1,
            sending: CoverageKinds::ALL,
        }
    }

    pub fn state(&self) -> &Arc<FeedState> {
        &self.state
    }

    /// A sink factory for [`LiveRecording::start`](super::LiveRecording::start): the first JVM
    /// feeds `self`, further JVMs are recorded without a session.
    pub fn for_first_jvm(self) -> impl Fn(usize, Arrival) -> FeedSink + Send + Sync + 'static {
        let first = Mutex::new(Some(self));
        move |n, arrival| {
            let mine = if n == 0 {
                first.lock().unwrap_or_else(|p| p.into_inner()).take()
            } else {
                None
            };
            let sink = mine.unwrap_or_else(FeedSink::progress_only);
            let _ = sink.state.arrival.set(arrival);
            sink
        }
    }
}

impl FeedSink {
    /// Follows the session's choice of coverage kinds, telling it where in the stream.
    fn follow_coverage_wanted(&mut self) -> CoverageKinds {
        let wanted = self.state.coverage_wanted();
        if wanted != self.sending {
            self.sending = wanted;
            self.send(FeedItem::CoverageKinds(wanted));
        }
        wanted
    }

    /// Adds `item` to the batch, handing the batch over once full.
    fn send(&mut self, item: FeedItem) {
        if self.tx.is_none() {
            return;
        }
        self.batch.push(item);
        // A session waiting for a header (a person's first question, a node to be committed)
        // gets it at once, not at the end of the frame.
        if self.batch.len() >= self.batch_len || self.state.session_waiting.load(Ordering::Relaxed)
        {
            self.flush();
        }
    }

    /// Hands the batch over: without waiting when there is room; otherwise waits (and counts
    /// the wait).
    fn flush(&mut self) {
        let Some(tx) = &self.tx else { return };
        if self.batch.is_empty() {
            return;
        }
        let batch = std::mem::replace(&mut self.batch, Vec::with_capacity(self.batch_len));
        match tx.try_send(batch) {
            Ok(()) => {}
            Err(TrySendError::Full(batch)) => {
                self.state.session_waits.fetch_add(1, Ordering::Relaxed);
                if tx.send(batch).is_err() {
                    self.tx = None;
                }
            }
            // The session ended early: recording goes on without it.
            Err(TrySendError::Disconnected(_)) => self.tx = None,
        }
    }
}

impl Drop for FeedSink {
    /// The last items, before the session sees the feed end.
    fn drop(&mut self) {
        self.flush();
    }
}

impl NodeSink for FeedSink {
    fn node(&mut self, header: &NodeHeader) {
        // Only the first completed call reads the clock: a clock read per node cost the
        // recorder's thread 4 % of its time in a live session.
        if header.exit.is_some()
            && header.kind.is_call()
            && self.state.first_complete_ns.load(Ordering::Relaxed) == 0
        {
            let ns = self.state.created.elapsed().as_nanos() as u64 + 1;
            let _ = self.state.first_complete_ns.compare_exchange(
                0,
                ns,
                Ordering::AcqRel,
                Ordering::Relaxed,
            );
        }
        self.send(FeedItem::Node(header.clone()));
    }

    fn coverage(&mut self, node: NodeId, edges: &[u32], def_uses: &[u32]) {
        if self.tx.is_none() {
            return;
        }
        let kinds = self.follow_coverage_wanted();
        let edges = if kinds.edges { edges } else { &[] };
        let def_uses = if kinds.def_uses { def_uses } else { &[] };
        if edges.is_empty() && def_uses.is_empty() {
            return;
        }
        let coverage = NodeCoverage {
            edges: edges.to_vec(),
            def_uses: def_uses.to_vec(),
        };
        self.send(FeedItem::Coverage(node, coverage));
    }

    fn commit_wanted(&mut self) -> bool {
        self.state.commit_wanted.swap(false, Ordering::AcqRel)
    }

    /// Once the session showed its first question, or when no session listens (any more).
    fn store_may_fall_behind(&mut self) -> bool {
        self.tx.is_none() || self.state.store_may_fall_behind()
    }

    fn store_awaited(&mut self) -> bool {
        self.state.store_awaited.load(Ordering::Acquire)
    }

    fn committed(&mut self, stream_bytes: u64) {
        self.state
            .committed_to
            .store(stream_bytes, Ordering::Release);
    }

    fn progress(&mut self, counts: &WriteCounts, store_behind: bool) {
        // After each frame, and while the program is idle: the session sees what was stored, and
        // learns that its choice of coverage is followed even while no call completes.
        if self.tx.is_some() {
            self.follow_coverage_wanted();
        }
        self.flush();
        let s = &self.state;
        s.events.store(counts.events, Ordering::Relaxed);
        s.nodes.store(counts.nodes, Ordering::Relaxed);
        s.complete_nodes
            .store(counts.complete_nodes, Ordering::Relaxed);
        if store_behind {
            s.store_behind_frames.fetch_add(1, Ordering::Relaxed);
        }
        s.store_behind_now.store(store_behind, Ordering::Relaxed);
    }
}

/// What [`Feed::take`] found.
#[derive(Debug, PartialEq, Eq)]
pub enum Taken {
    /// This many headers (possibly 0: none yet).
    Headers(usize),
    /// The recorder of this JVM has finished: no header will come any more.
    Ended,
}

impl Feed {
    pub fn state(&self) -> &Arc<FeedState> {
        &self.state
    }

    /// Whether the recorder has finished (seen by an earlier `take`).
    pub fn has_ended(&self) -> bool {
        self.ended
    }

    /// Moves up to `max` waiting headers into `out` without blocking; with `wait`, first
    /// waits that long for one header when none is there.
    pub fn take(
        &mut self,
        out: &mut impl Extend<FeedItem>,
        max: usize,
        wait: Option<Duration>,
    ) -> Taken {
        if self.ended {
            return Taken::Ended;
        }
        let mut n = self.take_pending(out, max);
        if n == 0 {
            if let Some(wait) = wait {
                self.state.session_waiting.store(true, Ordering::Relaxed);
                let received = self.rx.recv_timeout(wait);
                self.state.session_waiting.store(false, Ordering::Relaxed);
                match received {
                    Ok(batch) => n += self.take_batch(batch, out, max),
                    Err(std::sync::mpsc::RecvTimeoutError::Timeout) => return Taken::Headers(0),
                    Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                        self.ended = true;
                        return Taken::Ended;
                    }
                }
            }
        }
        while n < max {
            match self.rx.try_recv() {
                Ok(batch) => n += self.take_batch(batch, out, max - n),
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => {
                    if n == 0 {
                        self.ended = true;
                        return Taken::Ended;
                    }
                    break;
                }
            }
        }
        Taken::Headers(n)
    }

    /// Moves up to `max` items of a received batch into `out` (the whole batch at once, not
    /// through `pending`, when it fits, which is the rule), keeping the rest for the next take.
    fn take_batch(
        &mut self,
        batch: Vec<FeedItem>,
        out: &mut impl Extend<FeedItem>,
        max: usize,
    ) -> usize {
        if self.pending.is_empty() && batch.len() <= max {
            let n = batch.len();
            out.extend(batch);
            return n;
        }
        self.pending.extend(batch);
        self.take_pending(out, max)
    }

    /// Moves up to `max` items of the batch received last into `out`.
    fn take_pending(&mut self, out: &mut impl Extend<FeedItem>, max: usize) -> usize {
        let n = max.min(self.pending.len());
        out.extend(self.pending.drain(..n));
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::NodeId;
    use crate::tree::NodeKind;

    fn header(id: u32, exit: Option<u64>) -> NodeHeader {
        NodeHeader {
            id: NodeId(id),
            parent: Some(NodeId(0)),
            kind: NodeKind::Routine,
            method: None,
            thread: None,
            entry: 1,
            exit,
            chained: false,
            frame_chained: false,
        }
    }

    /// The ids of the headers among `items`, in order.
    fn node_ids(items: &[FeedItem]) -> Vec<u32> {
        items
            .iter()
            .filter_map(|i| match i {
                FeedItem::Node(h) => Some(h.id.0),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn headers_arrive_in_order_and_the_end_is_seen_after_the_last() {
        let (mut sink, mut feed) = feed(4);
        let covered = NodeCoverage {
            edges: vec![3, 5],
            def_uses: vec![],
        };
        sink.node(&header(1, None));
        sink.coverage(NodeId(1), &covered.edges, &covered.def_uses);
        sink.node(&header(1, Some(2)));
        assert!(feed.state().first_complete().is_some());
        drop(sink);
        let mut out = Vec::new();
        assert_eq!(feed.take(&mut out, 10, None), Taken::Headers(3));
        assert_eq!(
            out,
            [
                FeedItem::Node(header(1, None)),
                FeedItem::Coverage(NodeId(1), covered),
                FeedItem::Node(header(1, Some(2)))
            ]
        );
        assert_eq!(feed.take(&mut out, 10, None), Taken::Ended);
        assert!(feed.has_ended());
    }

    #[test]
    fn only_the_coverage_wanted_is_sent_from_the_point_the_stream_says() {
        let (mut sink, mut feed) = feed(DEFAULT_FEED_CAPACITY);
        let state = Arc::clone(sink.state());
        let covered = |edges: Vec<u32>, def_uses: Vec<u32>| NodeCoverage { edges, def_uses };
        sink.coverage(NodeId(1), &[1], &[2]);
        state.want_coverage(CoverageKinds {
            edges: false,
            def_uses: true,
        });
        sink.coverage(NodeId(2), &[3], &[4]);
        sink.coverage(NodeId(3), &[5], &[]); // nothing wanted left: nothing sent
        state.want_coverage(CoverageKinds {
            edges: false,
            def_uses: false,
        });
        // An idle program still says where the change took effect.
        sink.progress(&WriteCounts::default(), false);
        sink.coverage(NodeId(4), &[6], &[7]);
        state.want_coverage(CoverageKinds::ALL);
        sink.coverage(NodeId(5), &[8], &[9]);
        drop(sink);
        let mut out = Vec::new();
        feed.take(&mut out, 100, None);
        let only_def_uses = CoverageKinds {
            edges: false,
            def_uses: true,
        };
        let none = CoverageKinds {
            edges: false,
            def_uses: false,
        };
        assert_eq!(
            out,
            [
                FeedItem::Coverage(NodeId(1), covered(vec![1], vec![2])),
                FeedItem::CoverageKinds(only_def_uses),
                FeedItem::Coverage(NodeId(2), covered(vec![], vec![4])),
                FeedItem::CoverageKinds(none),
                FeedItem::CoverageKinds(CoverageKinds::ALL),
                FeedItem::Coverage(NodeId(5), covered(vec![8], vec![9])),
            ]
        );
    }

    #[test]
    fn items_are_handed_over_in_batches_after_each_frame_and_in_order() {
        let (mut sink, mut feed) = feed(DEFAULT_FEED_CAPACITY);
        let mut out = Vec::new();
        sink.node(&header(1, None));
        assert_eq!(
            feed.take(&mut out, 10, None),
            Taken::Headers(0),
            "gathered until the frame is stored"
        );
        sink.progress(&WriteCounts::default(), false);
        assert_eq!(feed.take(&mut out, 10, None), Taken::Headers(1));
        // A full batch goes at once; a take stops at its `max` within a batch.
        for i in 0..SEND_BATCH as u32 {
            sink.node(&header(i + 2, None));
        }
        assert_eq!(feed.take(&mut out, 100, None), Taken::Headers(100));
        assert_eq!(
            feed.take(&mut out, 1000, Some(Duration::from_millis(1))),
            Taken::Headers(SEND_BATCH - 100)
        );
        let ids = node_ids(&out);
        assert_eq!(ids, (1..=SEND_BATCH as u32 + 1).collect::<Vec<_>>());
        drop(sink);
        assert_eq!(feed.take(&mut out, 10, None), Taken::Ended);
    }

    #[test]
    fn a_waiting_session_gets_each_header_at_once() {
        let (mut sink, mut feed) = feed(DEFAULT_FEED_CAPACITY);
        let state = Arc::clone(sink.state());
        let session = std::thread::spawn(move || {
            let mut out = Vec::new();
            let taken = feed.take(&mut out, 10, Some(Duration::from_secs(10)));
            (taken, out)
        });
        while !state.session_waiting.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(1));
        }
        // No frame ends and the batch is far from full: the session's wait hands it over.
        sink.node(&header(1, Some(2)));
        let (taken, out) = session.join().unwrap();
        assert_eq!(taken, Taken::Headers(1));
        assert_eq!(out, [FeedItem::Node(header(1, Some(2)))]);
        assert!(!state.session_waiting.load(Ordering::Relaxed));
    }

    #[test]
    fn a_full_channel_makes_the_recorder_wait_and_counts_it() {
        let (mut sink, mut feed) = feed(1);
        let state = Arc::clone(sink.state());
        let recorder = std::thread::spawn(move || {
            for i in 1..=2 {
                sink.node(&header(i, None));
            }
        });
        // The second header cannot be handed over before the first is taken.
        while state.progress().session_waits == 0 {
            std::thread::sleep(Duration::from_millis(1));
        }
        let mut out = Vec::new();
        while out.len() < 2 {
            feed.take(&mut out, 2, Some(Duration::from_millis(50)));
        }
        recorder.join().unwrap();
        let ids = node_ids(&out);
        assert_eq!(ids, [1, 2], "no header lost");
        assert_eq!(state.progress().session_waits, 1);
    }

    #[test]
    fn the_store_is_behind_while_decoded_frames_or_a_spooled_backlog_wait_for_it() {
        let (mut sink, feed) = feed(1);
        let state = Arc::clone(feed.state());
        assert!(!state.store_is_behind());
        sink.progress(&WriteCounts::default(), true);
        assert!(state.store_is_behind(), "decoded frames wait for the store");
        sink.progress(&WriteCounts::default(), false);
        assert!(!state.store_is_behind(), "the store took them");

        // The spool received the threshold's bytes and the decoder has read none of them.
        let dir = tempfile::tempdir().unwrap();
        let stats = Arc::new(SpoolStats::default());
        let bytes = vec![7u8; STORE_BEHIND_BYTES as usize];
        let mut decoder =
            super::super::spool(std::io::Cursor::new(bytes), dir.path(), Arc::clone(&stats))
                .unwrap();
        state.watch_spool(Arc::clone(&stats));
        while stats.received() < STORE_BEHIND_BYTES {
            std::thread::sleep(Duration::from_millis(1));
        }
        assert!(
            state.store_is_behind(),
            "{} bytes to store",
            stats.backlog()
        );
        let mut byte = [0u8; 1];
        std::io::Read::read_exact(&mut decoder, &mut byte).unwrap();
        assert!(
            !state.store_is_behind(),
            "{} bytes to store, below the threshold",
            stats.backlog()
        );
    }

    #[test]
    fn a_commit_request_is_taken_once() {
        let (mut sink, feed) = feed(1);
        assert!(!sink.commit_wanted());
        feed.state().request_commit();
        assert!(sink.commit_wanted());
        assert!(!sink.commit_wanted());
    }

    #[test]
    fn the_store_falls_behind_once_the_first_question_is_shown_or_nobody_listens() {
        let (mut sink, session) = feed(4);
        assert!(
            !sink.store_may_fall_behind(),
            "a session waits for its first question"
        );
        session.state().question_shown();
        assert!(sink.store_may_fall_behind());

        let (mut sink, session) = feed(4);
        drop(session);
        sink.node(&header(1, Some(2)));
        sink.progress(&WriteCounts::default(), false);
        assert!(sink.store_may_fall_behind(), "the session hung up");
        assert!(FeedSink::progress_only().store_may_fall_behind());
    }
}
