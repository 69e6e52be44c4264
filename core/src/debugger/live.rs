//! Debugging while the program runs: the session is fed by the recorder's headers, and questions
//! are rendered from the trace as it is written.
//!
//! The recorder hands node headers over a bounded [`Feed`]; [`Debugger::pump`] moves them into
//! the session between questions (front ends call it while a question waits for its answer, so
//! that the recording never waits for a person). Strategies see only complete nodes; when the
//! recorder of the first JVM finishes, the session is sealed and goes on over the whole tree. A
//! question is rendered only once its node is readable from the trace: the writer commits every
//! 200 ms, so the debugger asks it to commit at once and waits for that commit (a few
//! milliseconds), pumping headers meanwhile so that the recorder is never held up; a session
//! paced behind the store (`Pace::BehindTheStore`) waits for the periodic commit instead. Over a
//! finished trace every function here returns at once.

use std::collections::{HashSet, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::{DebugError, Debugger, QuestionError};
use crate::capture::{CoverageKinds, Feed, FeedItem, Taken};
use crate::ids::{MethodId, NodeId};
use crate::session::TrustPolicy;
use crate::trace::store::TraceReader;
use crate::tree::{CoverageKind, NodeHeader};

/// Headers moved from the feed per batch, and batches per pump: a pump does a bounded amount of
/// work, so a front end stays responsive however fast the program runs.
const BATCH: usize = 4096;
const BATCHES_PER_PUMP: usize = 16;

/// How long a wait for the recorder's commit sleeps between looks.
const VISIBLE_POLL: Duration = Duration::from_millis(1);

/// How long `next_step` waits for a header while nothing can be asked.
const MORE_POLL: Duration = Duration::from_millis(20);

/// How long `next_step` sleeps between pumps while it holds a question back for the store: the
/// headers that arrive meanwhile are taken in batches (at most a few thousand at the store's
/// pace, within the feed's capacity) instead of one wake-up each.
const STORE_POLL: Duration = Duration::from_millis(10);

/// The recording a live session is fed by.
pub(super) struct Live {
    pub(super) feed: Feed,
    /// Methods trusted by `--trust` patterns, read by the session's trust policy.
    trusted: Arc<Mutex<HashSet<MethodId>>>,
    /// Methods whose names were matched against the patterns.
    resolved: HashSet<MethodId>,
    /// Items taken from the feed and not yet in the session (waiting for a method's name).
    backlog: VecDeque<FeedItem>,
    /// The kinds of coverage the calls taken in from here on come with.
    receiving: CoverageKinds,
}

impl Live {
    /// The recording `feed` comes from, and the trust policy of its session: with `patterns`,
    /// the methods matched as their first calls arrive.
    pub(super) fn new(feed: Feed, patterns: bool) -> (Live, TrustPolicy) {
        let trusted: Arc<Mutex<HashSet<MethodId>>> = Arc::default();
        let policy = if patterns {
            let set = Arc::clone(&trusted);
            TrustPolicy::from_fn(move |m| {
                set.lock().unwrap_or_else(|p| p.into_inner()).contains(&m)
            })
        } else {
            TrustPolicy::none()
        };
        let live = Live {
            feed,
            trusted,
            resolved: HashSet::new(),
            backlog: VecDeque::new(),
            receiving: CoverageKinds::ALL,
        };
        (live, policy)
    }
}

impl Debugger {
    /// Moves the headers that have arrived into the session, without waiting; seals the session
    /// when the recording has ended. Returns how many headers went in.
    pub fn pump(&mut self) -> Result<usize, DebugError> {
        self.pump_waiting(None)
    }

    /// `pump`, first waiting up to `wait` for a header when none is there.
    fn pump_waiting(&mut self, mut wait: Option<Duration>) -> Result<usize, DebugError> {
        if self.live.is_none() {
            return Ok(0);
        }
        let mut applied = 0;
        for _ in 0..BATCHES_PER_PUMP {
            let live = self.live.as_mut().expect("live");
            let taken = live.feed.take(&mut live.backlog, BATCH, wait.take());
            applied += self.apply_backlog()?;
            if taken != Taken::Headers(BATCH) {
                break;
            }
        }
        let live = self.live.as_ref().expect("live");
        if live.feed.has_ended() && live.backlog.is_empty() && self.sealed_at.is_none() {
            self.session.seal();
            self.sealed_at = Some(Instant::now());
        }
        Ok(applied)
    }

    /// Waits a little for more of the recording.
    pub(super) fn wait_for_more(&mut self) -> Result<(), DebugError> {
        self.pump_waiting(Some(MORE_POLL)).map(|_| ())
    }

    /// Waits a little for the store to catch up, then takes in what arrived.
    pub(super) fn wait_for_store(&mut self) -> Result<(), DebugError> {
        let start = Instant::now();
        std::thread::sleep(STORE_POLL);
        self.pump()?;
        self.paced += start.elapsed();
        Ok(())
    }

    /// Pushes the backlog into the session, stopping at a header whose method must be matched
    /// against the trust patterns before its name is readable.
    fn apply_backlog(&mut self) -> Result<usize, DebugError> {
        let mut n = 0;
        loop {
            let live = self.live.as_mut().expect("live");
            let Some(item) = live.backlog.front() else {
                break;
            };
            // A node whose method must first be matched against the trust patterns.
            let unresolved = match item {
                FeedItem::Node(h) => h
                    .method
                    .filter(|m| !self.options.trust.is_empty() && !live.resolved.contains(m)),
                _ => None,
            };
            if let Some(m) = unresolved {
                if !self.resolve_trust(m)? {
                    self.live
                        .as_ref()
                        .expect("live")
                        .feed
                        .state()
                        .request_commit();
                    break;
                }
            }
            let live = self.live.as_mut().expect("live");
            match live.backlog.pop_front() {
                // A call that completed with nothing in between (a leaf, its coverage not kept)
                // goes in as one complete node: the tree takes that as started and completed.
                Some(FeedItem::Node(h))
                    if self.splice.is_none()
                        && live.backlog.front().is_some_and(|next| completes(&h, next)) =>
                {
                    let Some(FeedItem::Node(complete)) = live.backlog.pop_front() else {
                        unreachable!("checked above")
                    };
                    self.session.push(&complete)?;
                    n += 2;
                }
                Some(FeedItem::Node(h)) => {
                    match &mut self.splice {
                        Some(s) => {
                            if let Some(h) = s.header(&h) {
                                self.session.push(&h)?;
                            }
                        }
                        None => self.session.push(&h)?,
                    }
                    n += 1;
                }
                Some(FeedItem::CoverageKinds(kinds)) => {
                    self.live.as_mut().expect("live").receiving = kinds;
                }
                Some(FeedItem::Coverage(node, _))
                    if self.splice.as_ref().is_some_and(|s| s.left_out(node)) => {}
                Some(FeedItem::Coverage(node, c)) => {
                    for (kind, ids) in [
                        (CoverageKind::Edge, &c.edges),
                        (CoverageKind::DefUse, &c.def_uses),
                    ] {
                        // Kept only when weighed by (see `DebugOptions::all_coverage`); a switch
                        // of strategy may have read it from the trace already.
                        if self.options.keeps_coverage(kind)
                            && !self.session.tree().has_node_coverage(node, kind)
                        {
                            self.session.set_coverage(node, kind, ids)?;
                        }
                    }
                }
                None => break,
            }
        }
        Ok(n)
    }

    /// Matches a method against the trust patterns; false when its definition is not readable
    /// yet (or, once the recording ended, never will be: then it is not trusted).
    fn resolve_trust(&mut self, m: MethodId) -> Result<bool, DebugError> {
        self.open_reader()?;
        let live = self
            .live
            .as_mut()
            .expect("only live sessions resolve trust");
        let ended = live.feed.has_ended();
        let Some(reader) = &self.reader else {
            return Ok(false);
        };
        if reader.method(m)?.is_none() && !ended {
            return Ok(false);
        }
        let name = self.names.qualified(reader, m)?;
        if self.options.trust.matches(&name) {
            live.trusted
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .insert(m);
        }
        live.resolved.insert(m);
        Ok(true)
    }

    /// Opens a live trace once the recorder has created it.
    pub(super) fn open_reader(&mut self) -> Result<(), DebugError> {
        if self.reader.is_some() {
            return Ok(());
        }
        let ended = self.live.as_ref().is_none_or(|l| l.feed.has_ended());
        match TraceReader::open(&self.trace) {
            Ok(r) => self.reader = Some(r),
            // Not created (or not initialised) yet.
            Err(_) if !ended => {}
            Err(e) => return Err(e.into()),
        }
        Ok(())
    }

    /// Waits until `node` is complete in the trace (and with it everything the question shows),
    /// asking the recorder to commit now.
    pub fn wait_visible(&mut self, node: NodeId) -> Result<(), DebugError> {
        // A forest node is readable once its last call is.
        let node = super::forest::visible_after(self.session.tree(), node);
        self.wait_committed(node, true)
    }

    /// Waits until `node` is in the trace, complete or not.
    pub(super) fn wait_started(&mut self, node: NodeId) -> Result<(), DebugError> {
        self.wait_committed(node, false)
    }

    /// Waits until every node taken in so far is in the trace (with it the definitions of every
    /// method called so far, and their coverage).
    pub(super) fn wait_for_last_node(&mut self) -> Result<(), DebugError> {
        if self.live.is_none() {
            return Ok(());
        }
        self.pump()?;
        if let Some(last) = self.session.tree().id_bound().checked_sub(1) {
            self.wait_committed(NodeId(last as u32), false)?;
        }
        Ok(())
    }

    /// Asks the recorder for the coverage the session keeps, from its next call on.
    pub(super) fn want_kept_coverage(&self) {
        if let Some(live) = &self.live {
            let kinds = CoverageKinds::kept(|k| self.options.keeps_coverage(k));
            live.feed.state().want_coverage(kinds);
        }
    }

    /// Takes in the recording until the calls come with their coverage of `kind` (the recorder
    /// said so at that point of the stream), or it has ended: the calls taken in before are
    /// then the ones whose coverage must be read from the trace.
    pub(super) fn wait_for_coverage(&mut self, kind: CoverageKind) -> Result<(), DebugError> {
        loop {
            let Some(live) = &self.live else {
                return Ok(());
            };
            if live.receiving.has(kind) || (live.feed.has_ended() && live.backlog.is_empty()) {
                return Ok(());
            }
            if self.pump_waiting(Some(VISIBLE_POLL))? == 0 {
                std::thread::sleep(VISIBLE_POLL);
            }
        }
    }

    /// Waits until `node` (complete, if `complete`) is in the trace, asking for a commit.
    fn wait_committed(&mut self, node: NodeId, complete: bool) -> Result<(), DebugError> {
        loop {
            self.open_reader()?;
            if let Some(reader) = &self.reader {
                if reader
                    .node(node)?
                    .is_some_and(|row| !complete || row.header.exit.is_some())
                {
                    return Ok(());
                }
            }
            let Some(live) = &self.live else {
                return Err(QuestionError::NoSuchCall(node).into());
            };
            if live.feed.has_ended() {
                return Err(QuestionError::NoSuchCall(node).into());
            }
            if self.options.pace == super::Pace::Ready {
                live.feed.state().request_commit();
                self.pump_waiting(Some(VISIBLE_POLL))?;
            } else {
                // A paced session waits for the store's own commit (each commit on demand costs
                // the store time it would spend catching up), looking less often.
                std::thread::sleep(STORE_POLL);
                self.pump()?;
            }
        }
    }
}

/// Whether `next` is the completion of the call `start` started, with nothing else changed.
fn completes(start: &NodeHeader, next: &FeedItem) -> bool {
    let FeedItem::Node(c) = next else {
        return false;
    };
    // Every field named: a field added to headers must be thought about here.
    let NodeHeader {
        id,
        parent,
        kind,
        method,
        thread,
        entry,
        exit,
        chained,
        frame_chained,
    } = c;
    start.exit.is_none()
        && exit.is_some()
        && *id == start.id
        && *parent == start.parent
        && *kind == start.kind
        && *method == start.method
        && *thread == start.thread
        && *entry == start.entry
        && *chained == start.chained
        && *frame_chained == start.frame_chained
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capture::{feed, LiveRecording};
    use crate::debugger::{DebugOptions, Debugger};
    use crate::glob::GlobSet;
    use crate::session::{Answer, Step, Verdict};
    use crate::strategy::StrategyName;
    use crate::trace::store::WriterConfig;
    use crate::trace::synthetic::StreamBuilder;
    use crate::trace::wire::Value;
    use std::io::Write;
    use std::os::unix::net::UnixStream;

    /// A live recording into a new trace (`live.htrace` of a temporary directory, kept as long
    /// as the directory is), a program connected to it (that has sent nothing yet), and the
    /// feed of `capacity` items a live session reads.
    pub(super) type Started = (
        tempfile::TempDir,
        std::path::PathBuf,
        LiveRecording,
        UnixStream,
        crate::capture::Feed,
    );

    pub(super) fn start_live(capacity: usize, config: WriterConfig) -> Started {
        let dir = tempfile::tempdir().unwrap();
        let trace = dir.path().join("live.htrace");
        let (sink, feed) = feed(capacity);
        let live = LiveRecording::start(&trace, config, sink.for_first_jvm()).unwrap();
        let client = UnixStream::connect(live.socket_path()).unwrap();
        (dir, trace, live, client, feed)
    }

    /// Every node below the root as a UI shows it, in preorder.
    pub(super) fn tree_view(d: &mut Debugger) -> Vec<crate::debugger::TreeNode> {
        let mut nodes = Vec::new();
        let mut stack = vec![NodeId::ROOT];
        while let Some(x) = stack.pop() {
            let page = d.children(x, 0, usize::MAX).unwrap();
            stack.extend(page.nodes.iter().rev().map(|n| NodeId(n.id)));
            nodes.extend(page.nodes);
        }
        nodes
    }

    /// `main` calls f(1) = 2 (right), g (trusted by pattern), h(3) = 10 (wrong). The stream up
    /// to f's return, then the whole stream.
    pub(super) fn streams() -> (Vec<u8>, Vec<u8>) {
        let build = |whole: bool| {
            let mut b = StreamBuilder::new();
            let c = b.class("p.Main", true);
            let main = b.method(c, "main", "([Ljava/lang/String;)V", true, &["args"]);
            let f = b.method(c, "f", "(I)I", true, &["x"]);
            let g = b.method(c, "g", "(I)I", true, &["x"]);
            let h = b.method(c, "h", "(I)I", true, &["x"]);
            let t = b.thread("main");
            b.call(t, main, &[Value::Null]);
            b.call(t, f, &[Value::Int(1)]);
            b.line(t, 3);
            b.ret(t, Value::Int(2));
            b.flush_all();
            if !whole {
                return b.killed();
            }
            b.call(t, g, &[Value::Int(2)]);
            b.ret(t, Value::Int(4));
            b.call(t, h, &[Value::Int(3)]);
            b.ret(t, Value::Int(10));
            b.ret(t, Value::Void);
            b.end(0)
        };
        (build(false), build(true))
    }

    #[test]
    fn asks_while_the_program_runs_and_goes_on_when_it_ends() {
        let (prefix, whole) = streams();
        assert_eq!(&whole[..prefix.len()], &prefix[..]);
        // No periodic commit: the question can only be rendered after a commit on demand.
        let config = WriterConfig {
            commit_interval: Duration::from_secs(3600),
            ..WriterConfig::default()
        };
        let (_dir, trace, live, mut client, feed) = start_live(16, config);
        client.write_all(&prefix).unwrap();
        let options = DebugOptions {
            trust: GlobSet::parse("p.Main.g"),
            ..DebugOptions::default()
        };
        let mut d = Debugger::live(feed, &trace, options).unwrap();

        // The rest of the stream is not sent yet: the first question comes before the end.
        let Step::Ask(f) = d.next_step().unwrap() else {
            panic!("f is complete and askable")
        };
        assert!(!d.is_sealed());
        let recording = d.recording().unwrap();
        assert!(
            !recording.store_may_fall_behind(),
            "the store keeps pace until then"
        );
        assert_eq!(d.question(f).unwrap().text, "Main.f(x=1) = 2");
        assert!(
            d.recording().unwrap().store_may_fall_behind(),
            "the question was shown"
        );
        let view = tree_view(&mut d);
        let main = view
            .iter()
            .find(|n| n.method.as_deref() == Some("p.Main.main"))
            .unwrap();
        assert!(!main.complete);
        assert_eq!(main.label, "p.Main.main (running)");
        assert!(view.iter().any(|n| n.id == f.0 && n.complete));
        assert!(d.session().suspicious().is_suspicious(f));
        d.answer(f, Answer::Valid).unwrap();
        assert_eq!(d.step().unwrap(), Step::Waiting, "main is still running");

        client.write_all(&whole[prefix.len()..]).unwrap();
        drop(client);
        // Until main's completion is taken in, top-down may look through it to h.
        while !d.is_sealed() {
            d.pump_waiting(Some(Duration::from_millis(20))).unwrap();
        }
        // main is complete now: top-down asks it; then, g being trusted by its pattern, h.
        let Step::Ask(main) = d.next_step().unwrap() else {
            panic!("main is askable")
        };
        assert_eq!(d.method_of(main).unwrap().as_deref(), Some("p.Main.main"));
        d.question(main).unwrap();
        // The logic cache: after main, only h is askable (f answered valid, g trusted).
        assert_eq!(d.prefetch().unwrap(), 1);
        assert!(
            d.questions.get(NodeId(main.0 + 3)).is_some(),
            "h rendered ahead"
        );
        d.answer(main, Answer::Invalid).unwrap();
        let Step::Ask(h) = d.next_step().unwrap() else {
            panic!("h is askable")
        };
        assert_eq!(d.method_of(h).unwrap().as_deref(), Some("p.Main.h"));
        assert_eq!(d.question(h).unwrap().text, "Main.h(x=3) = 10");
        d.answer(h, Answer::Invalid).unwrap();
        let Step::Done(verdict) = d.next_step().unwrap() else {
            panic!("the verdict")
        };
        assert_eq!(verdict, Verdict::Bug { node: h });
        while !d.is_sealed() {
            d.next_step().unwrap();
            d.pump().unwrap();
        }
        assert!(tree_view(&mut d).iter().all(|n| n.complete));
        assert_eq!(
            d.report(&verdict).unwrap().buggy_node.unwrap().method,
            "p.Main.h"
        );
        let traces = live.finish().unwrap();
        assert_eq!(
            traces[0].result.as_ref().unwrap().complete_nodes,
            6,
            "root, thread, main, f, g, h"
        );
    }

    /// A live session takes in the headers as they come (a leaf's start and completion as one
    /// complete node): its tree, sizes and weights are those of the finished trace's session.
    #[test]
    fn a_live_session_ends_with_the_tree_of_the_finished_trace() {
        let mut b = StreamBuilder::new();
        let c = b.class("p.Main", true);
        let main = b.method(c, "main", "([Ljava/lang/String;)V", true, &["args"]);
        let ms: Vec<_> = (0..4)
            .map(|i| b.method(c, &format!("m{i}"), "(I)I", true, &["x"]))
            .collect();
        let t = b.thread("main");
        b.call(t, main, &[Value::Null]);
        let (mut depth, mut rng) = (0, 0x2545_f491_4f6c_dd1du64);
        for k in 0..2000 {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            if depth < 6 && rng % 3 != 0 {
                b.call(t, ms[(rng % 4) as usize], &[Value::Int(k)]);
                b.line(t, 3);
                depth += 1;
            } else if depth > 0 {
                b.ret(t, Value::Int(k));
                depth -= 1;
            }
        }
        for _ in 0..depth {
            b.ret(t, Value::Int(0));
        }
        b.ret(t, Value::Void);
        let bytes = b.end(0);
        let (_dir, trace, live, mut client, feed) = start_live(64, WriterConfig::default());
        let options = DebugOptions {
            forest: crate::tree::ForestOptions::OFF,
            ..DebugOptions::default()
        };
        let mut d = Debugger::live(feed, &trace, options.clone()).unwrap();
        client.write_all(&bytes).unwrap();
        drop(client);
        while !d.is_sealed() {
            d.pump_waiting(Some(Duration::from_millis(20))).unwrap();
        }
        live.finish().unwrap();
        let finished = Debugger::new(TraceReader::open(&trace).unwrap(), options).unwrap();
        let (a, b) = (d.session().suspicious(), finished.session().suspicious());
        assert!(a.tree().len() > 1000);
        assert_eq!(a.tree().len(), b.tree().len());
        for x in a.tree().iter() {
            let facts = |s: &crate::session::SuspiciousSet| {
                let t = s.tree();
                (
                    t.parent(x),
                    t.is_complete(x),
                    t.subtree_size(x),
                    s.weight(x),
                )
            };
            assert_eq!(facts(a), facts(b), "{x}");
        }
    }

    #[test]
    fn catching_up_reaches_the_last_whole_frame_the_program_sent() {
        let (prefix, whole) = streams();
        // No periodic commit: only the catch-up's request makes f's events readable.
        let config = WriterConfig {
            commit_interval: Duration::from_secs(3600),
            ..WriterConfig::default()
        };
        let (_dir, trace, live, mut client, feed) = start_live(16, config);
        let mut d = Debugger::live(feed, &trace, DebugOptions::default()).unwrap();
        // The program is suspended while it writes its next frame: 3 bytes of it have come.
        client.write_all(&whole[..prefix.len() + 3]).unwrap();
        d.catch_up().unwrap();
        let bytes = d.recording().unwrap().stream_bytes().unwrap();
        assert_eq!(
            bytes.arrived,
            prefix.len() as u64,
            "the cut frame is not waited for"
        );
        assert_eq!(bytes.committed, prefix.len() as u64);
        let f = tree_view(&mut d)
            .into_iter()
            .find(|n| n.method.as_deref() == Some("p.Main.f"))
            .expect("f is in the session");
        assert!(f.complete);
        let events = d.node_events(NodeId(f.id), 0, 100, None).unwrap().events;
        assert!(!events.is_empty(), "f's events are readable");
        client.write_all(&whole[prefix.len() + 3..]).unwrap();
        drop(client);
        while !d.is_sealed() {
            d.pump_waiting(Some(Duration::from_millis(20))).unwrap();
        }
        live.finish().unwrap();
    }

    #[test]
    fn the_strategy_changes_and_methods_are_trusted_while_the_program_runs() {
        let (prefix, whole) = streams();
        let (_dir, trace, live, mut client, feed) = start_live(16, WriterConfig::default());
        client.write_all(&prefix).unwrap();
        let options = DebugOptions::default();
        let mut d = Debugger::live(feed, &trace, options).unwrap();
        let Step::Ask(f) = d.next_step().unwrap() else {
            panic!("f is complete and askable")
        };
        d.set_strategy(StrategyName::HeaviestFirst, None).unwrap();
        d.answer(f, Answer::Valid).unwrap();
        // A coverage strategy rebuilds the set: the answer about f is replayed.
        d.set_strategy(StrategyName::EdgeCoverage, Some(0.4))
            .unwrap();
        assert!(!d.is_sealed(), "switched while main runs");
        assert_eq!(d.strategy_name(), StrategyName::EdgeCoverage);
        assert_eq!(d.session().answers(), &[(f, Answer::Valid)]);
        assert_eq!(d.step().unwrap(), Step::Waiting, "main is still running");
        d.set_strategy(StrategyName::DivideAndQuery, None).unwrap();
        assert_eq!(d.session().strategy().name(), StrategyName::DivideAndQuery);
        // f was answered already: trusting its method still works, through that call.
        assert_eq!(d.trust("p.Main.f").unwrap(), vec![f]);
        assert!(matches!(
            d.trust("p.Main.f"),
            Err(DebugError::AlreadyTrusted(_))
        ));
        assert!(
            matches!(d.trust("p.Main.g"), Err(DebugError::NoCallOf(_))),
            "g has not been called yet"
        );

        client.write_all(&whole[prefix.len()..]).unwrap();
        drop(client);
        while !d.is_sealed() {
            d.pump_waiting(Some(Duration::from_millis(20))).unwrap();
        }
        let g = d.trust("p.Main.g").unwrap()[0];
        let mut asked = Vec::new();
        let verdict = loop {
            match d.next_step().unwrap() {
                Step::Ask(n) => {
                    let method = d.method_of(n).unwrap().unwrap();
                    asked.push(method.clone());
                    d.answer(n, Answer::Invalid).unwrap();
                }
                Step::Done(v) => break v,
                Step::Waiting => unreachable!("sealed"),
            }
        };
        assert!(
            !asked.iter().any(|m| m == "p.Main.f" || m == "p.Main.g"),
            "trusted methods are never asked: {asked:?}"
        );
        assert!(d.session().suspicious().is_trusted(g));
        let Verdict::Bug { node } = verdict else {
            panic!("{verdict:?}")
        };
        assert_eq!(d.method_of(node).unwrap().as_deref(), Some("p.Main.h"));
        live.finish().unwrap();
    }
}

#[cfg(test)]
mod pace_tests {
    use super::*;
    use crate::capture::{feed, spool, LiveRecording, SpoolReader, SpoolStats, STORE_BEHIND_BYTES};
    use crate::debugger::{DebugOptions, Debugger, Pace};
    use crate::session::{Answer, Step};
    use crate::trace::store::WriterConfig;
    use std::io::{Read, Write};
    use std::os::unix::net::UnixStream;

    /// A live session at `pace` over a recording that has been sent `bytes`, while the store
    /// reports a backlog: a spool holding `STORE_BEHIND_BYTES` that nothing has decoded yet
    /// (read from the returned reader to let the store catch up).
    struct Behind {
        _dir: tempfile::TempDir,
        live: LiveRecording,
        client: Option<UnixStream>,
        debugger: Debugger,
        backlog: SpoolReader,
    }

    fn behind(pace: Pace, bytes: &[u8]) -> Behind {
        let dir = tempfile::tempdir().unwrap();
        let trace = dir.path().join("live.htrace");
        let (sink, feed) = feed(16);
        let stats = Arc::new(SpoolStats::default());
        let pending = vec![0u8; STORE_BEHIND_BYTES as usize];
        let backlog = spool(
            std::io::Cursor::new(pending),
            dir.path(),
            Arc::clone(&stats),
        )
        .unwrap();
        while stats.received() < STORE_BEHIND_BYTES {
            std::thread::sleep(Duration::from_millis(1));
        }
        feed.state().watch_spool(stats);
        assert!(feed.state().store_is_behind());
        let live =
            LiveRecording::start(&trace, WriterConfig::default(), sink.for_first_jvm()).unwrap();
        let mut client = UnixStream::connect(live.socket_path()).unwrap();
        client.write_all(bytes).unwrap();
        let options = DebugOptions {
            pace,
            ..DebugOptions::default()
        };
        let debugger = Debugger::live(feed, &trace, options).unwrap();
        Behind {
            _dir: dir,
            live,
            client: Some(client),
            debugger,
            backlog,
        }
    }

    impl Behind {
        /// The program's stream ends and the recording finishes.
        fn end(mut self) {
            drop(self.client.take());
            self.live.finish().unwrap();
        }
    }

    /// Pumps until the session holds a complete call of `method`.
    fn wait_for_complete(d: &mut Debugger, method: &str) -> NodeId {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            d.pump_waiting(Some(Duration::from_millis(20))).unwrap();
            let view = super::tests::tree_view(d);
            if let Some(n) = view
                .iter()
                .find(|n| n.complete && n.method.as_deref() == Some(method))
            {
                return NodeId(n.id);
            }
            assert!(Instant::now() < deadline, "{method} never completed");
        }
    }

    #[test]
    fn an_automatic_session_asks_only_while_the_store_keeps_pace() {
        let (prefix, _) = super::tests::streams();
        let mut b = behind(Pace::BehindTheStore, &prefix);
        let d = &mut b.debugger;
        let f = wait_for_complete(d, "p.Main.f");
        // f is complete and would be asked (see the person's session below), but the store is
        // behind: the session holds it back however often it is asked for a step.
        for _ in 0..3 {
            assert_eq!(d.step().unwrap(), Step::Waiting);
        }
        assert!(!d.is_sealed());
        // A caller that waits only until something happens (the CLI: the program ended) gets
        // control back while the session waits, and only then.
        let polls = std::cell::Cell::new(0);
        let stop = || {
            polls.set(polls.get() + 1);
            polls.get() > 3
        };
        assert_eq!(d.next_step_unless(stop).unwrap(), None);
        assert_eq!(polls.get(), 4, "asked at each wait until it holds");
        // One byte decoded: the backlog is below the threshold, the store keeps pace.
        b.backlog.read_exact(&mut [0u8; 1]).unwrap();
        assert_eq!(d.next_step().unwrap(), Step::Ask(f));
        d.answer(f, Answer::Valid).unwrap();
        b.end();
    }

    #[test]
    fn a_person_is_asked_while_the_store_is_behind() {
        let (prefix, _) = super::tests::streams();
        let mut b = behind(Pace::Ready, &prefix);
        let d = &mut b.debugger;
        let f = wait_for_complete(d, "p.Main.f");
        assert_eq!(d.step().unwrap(), Step::Ask(f));
        assert_eq!(d.next_step().unwrap(), Step::Ask(f));
        assert!(!d.is_sealed());
        assert!(d.recording().unwrap().store_is_behind());
        assert_eq!(d.paced(), Duration::ZERO);
        b.end();
    }

    /// Once the recording has ended the session has the whole tree and asks, whatever the
    /// store's backlog (of another JVM, say): an automatic session never waits forever.
    #[test]
    fn an_automatic_session_asks_once_the_recording_has_ended() {
        let (_, whole) = super::tests::streams();
        let mut b = behind(Pace::BehindTheStore, &whole);
        drop(b.client.take());
        let d = &mut b.debugger;
        let Step::Ask(main) = d.next_step().unwrap() else {
            panic!("main is askable once the tree is complete")
        };
        assert!(d.is_sealed());
        assert!(d.recording().unwrap().store_is_behind());
        assert_eq!(d.method_of(main).unwrap().as_deref(), Some("p.Main.main"));
        b.end();
    }
}

#[cfg(test)]
mod coverage_tests {
    use super::tests::start_live;
    use super::*;
    use crate::debugger::DebugOptions;
    use crate::strategy::StrategyName;
    use crate::trace::recorder::tests_content_coverage::loop_program_ending;
    use crate::trace::store::WriterConfig;
    use crate::trace::synthetic::{block_def, StreamBuilder};
    use crate::trace::wire::Value;
    use crate::tree::ForestOptions;
    use std::io::Write;

    /// With a coverage strategy, the calls that completed while the program still runs carry
    /// their edges into the session's weights (not only once the trace is reopened).
    #[test]
    fn a_live_coverage_session_weighs_calls_before_the_recording_ends() {
        let (bytes, [main, twice, never]) = loop_program_ending(false);
        let (_dir, trace, live, mut client, feed) = start_live(64, WriterConfig::default());
        // Everything but the end of the recording: the program is still running.
        client.write_all(&bytes).unwrap();
        // The plain tree: the two calls of `count` would be one collapsed node on the forest.
        let options = DebugOptions {
            strategy: StrategyName::EdgeCoverage,
            forest: crate::tree::ForestOptions::OFF,
            ..DebugOptions::default()
        };
        let mut d = Debugger::live(feed, &trace, options).unwrap();
        let deadline = Instant::now() + Duration::from_secs(20);
        while d.session().suspicious().coverage_weight(never) == 0.0 {
            assert!(Instant::now() < deadline, "no coverage reached the session");
            d.pump_waiting(Some(Duration::from_millis(20))).unwrap();
        }
        assert!(!d.is_sealed());
        let set = d.session().suspicious();
        // count(2) covered 5 edges, count(0) 3; main (running, no block table) adds none of
        // its own to their sum.
        assert_eq!(set.coverage_weight(twice), 5.0);
        assert_eq!(set.coverage_weight(never), 3.0);
        assert_eq!(set.coverage_weight(main), 8.0);
        drop(client);
        drop(live);
    }

    /// `main` calling `m` `calls` times, each call covering one of two paths; the stream up to
    /// the first `prefix_calls` calls (a running program) and the whole.
    fn calls_stream(calls: i32, prefix_calls: i32) -> (Vec<u8>, Vec<u8>) {
        let build = |whole: bool| {
            let mut s = StreamBuilder::new();
            let c = s.class("p.Main", true);
            let main = s.method(c, "main", "([Ljava/lang/String;)V", true, &["args"]);
            let blocks = vec![
                block_def(0, 1, &[]),
                block_def(1, 2, &[]),
                block_def(2, 3, &[]),
            ];
            let m = s.method_with_blocks(c, "m", "(I)V", true, &["n"], blocks);
            let t = s.thread("main");
            s.call(t, main, &[Value::Null]);
            for k in 0..calls {
                if k == prefix_calls {
                    s.flush_all();
                    if !whole {
                        return s.killed();
                    }
                }
                s.call(t, m, &[Value::Int(k)]);
                s.block(t, 0);
                s.block(t, 1 + (k as u32 % 2));
                s.ret(t, Value::Void);
            }
            s.ret(t, Value::Void);
            s.end(0)
        };
        (build(false), build(true))
    }

    /// A session that keeps no coverage gets none from the recorder; switched to a coverage
    /// strategy while the program runs, it has every call's coverage: those taken in before the
    /// switch from the trace, the later ones from the recorder.
    #[test]
    fn a_switch_to_coverage_while_the_program_runs_misses_no_call() {
        let (prefix, whole) = calls_stream(600, 300);
        assert_eq!(&whole[..prefix.len()], &prefix[..]);
        // A small feed: the recorder waits for the session with calls it completed before the
        // switch still in its hands.
        let (_dir, trace, live, mut client, feed) = start_live(16, WriterConfig::default());
        client.write_all(&prefix).unwrap();
        let options = DebugOptions {
            forest: ForestOptions::OFF,
            ..DebugOptions::default()
        };
        let mut d = Debugger::live(feed, &trace, options).unwrap();
        // Some calls taken in, more completed and waiting in the feed and in the recorder.
        while d.session().tree().len() < 50 {
            d.pump_waiting(Some(Duration::from_millis(1))).unwrap();
        }
        assert!(!d.session().tree().has_coverage_of(CoverageKind::Edge));
        d.set_strategy(StrategyName::EdgeCoverage, None).unwrap();
        assert!(!d.is_sealed(), "switched while main runs");
        client.write_all(&whole[prefix.len()..]).unwrap();
        drop(client);
        while !d.is_sealed() {
            d.pump_waiting(Some(Duration::from_millis(20))).unwrap();
        }
        live.finish().unwrap();
        let reader = TraceReader::open(&trace).unwrap();
        let recorded = reader.all_coverage(CoverageKind::Edge).unwrap();
        assert_eq!(recorded.len(), 600);
        let tree = d.session().tree();
        for (node, ids) in &recorded {
            assert_eq!(
                tree.coverage(*node, CoverageKind::Edge),
                ids.as_slice(),
                "{node}"
            );
        }
        assert!(!tree.has_coverage_of(CoverageKind::DefUse), "not kept");
    }
}
