//! Debugging while the program runs: a session fed by the recorder's headers, with questions
//! rendered from the trace as it is written.
//!
//! The recorder hands node headers over a bounded [`Feed`]; [`LiveDebugger::pump`] moves them
//! into the session between questions (front ends call it while a question waits for its
//! answer, so that the recording never waits for a person). Strategies see only complete nodes;
//! when the recorder of the first JVM finishes, the session is sealed and goes on over the whole
//! tree. A question is rendered only once its node is readable from the trace: the writer
//! commits every 200 ms, so the debugger asks it to commit at once and waits for that commit
//! (a few milliseconds), pumping headers meanwhile so that the recorder is never held up.

use std::collections::{HashMap, HashSet, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::{report, DebugError, DebugOptions, Question, QuestionError, Report};
use crate::omniscient::names::MethodNames;
use serde::Serialize;

use crate::capture::{Feed, FeedItem, Taken};
use crate::ids::{MethodId, NodeId};
use crate::scratch::ScratchFiles;
use crate::session::{Answer, Session, Step, TrustPolicy, Verdict, Walk};
use crate::strategy::{self, StrategyName};
use crate::trace::store::TraceReader;
use crate::tree::{CoverageKind, ExecutionTree};

/// The bounds of a live session's caches.
#[derive(Clone, Debug)]
pub struct LiveOptions {
    /// The logic cache: rendered questions kept (the nodes asked and the ones likely asked next).
    pub question_cache: usize,
    /// How many likely next questions [`LiveDebugger::prefetch`] renders ahead.
    pub prefetch: usize,
    /// The presentation cache: at most this many nodes in the view a UI shows
    /// ([`LiveDebugger::view`]).
    pub view_nodes: usize,
}

impl Default for LiveOptions {
    fn default() -> Self {
        LiveOptions {
            question_cache: 256,
            prefetch: 8,
            view_nodes: 10_000,
        }
    }
}

/// Headers moved from the feed per batch, and batches per pump: a pump does a bounded amount of
/// work, so a front end stays responsive however fast the program runs.
const BATCH: usize = 4096;
const BATCHES_PER_PUMP: usize = 16;

/// How long a wait for the recorder's commit sleeps between looks.
const VISIBLE_POLL: Duration = Duration::from_millis(1);

/// Rendered questions, evicted oldest first beyond the bound.
struct QuestionCache {
    bound: usize,
    map: HashMap<NodeId, Question>,
    order: VecDeque<NodeId>,
}

impl QuestionCache {
    fn get(&self, node: NodeId) -> Option<&Question> {
        self.map.get(&node)
    }

    fn insert(&mut self, q: Question) {
        if self.bound == 0 {
            return;
        }
        while self.map.len() >= self.bound {
            match self.order.pop_front() {
                Some(old) => {
                    self.map.remove(&old);
                }
                None => break,
            }
        }
        self.order.push_back(q.node);
        self.map.insert(q.node, q);
    }
}

/// A node of a UI's view of the tree ([`LiveDebugger::view`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ViewNode {
    pub id: NodeId,
    pub parent: Option<NodeId>,
    /// Below the view's root (0 for the root).
    pub depth: u32,
    /// `pkg.Class.method`, `None` for the root and thread nodes (`#id` while its definition is
    /// not committed yet).
    pub method: Option<String>,
    pub complete: bool,
    /// In the suspicious set now.
    pub suspicious: bool,
}

/// The key of the cached view: root, depth, and the session's state when it was built.
type ViewKey = (NodeId, u32, usize, usize, bool);

/// See the module documentation.
pub struct LiveDebugger {
    feed: Feed,
    trace: PathBuf,
    reader: Option<TraceReader>,
    session: Session,
    names: MethodNames,
    options: DebugOptions,
    live: LiveOptions,
    /// Methods trusted by `--trust` patterns, read by the session's trust policy.
    trusted: Arc<Mutex<HashSet<MethodId>>>,
    /// Methods whose names were matched against the patterns.
    resolved: HashSet<MethodId>,
    /// Headers taken from the feed and not yet in the session (waiting for a method's name).
    backlog: VecDeque<FeedItem>,
    taken: Vec<FeedItem>,
    questions: QuestionCache,
    last_asked: Option<NodeId>,
    sealed_at: Option<Instant>,
    view: Option<(ViewKey, Vec<ViewNode>)>,
}

impl LiveDebugger {
    /// A session over the recording that `feed` comes from, written into `trace`.
    pub fn new(
        feed: Feed,
        trace: &Path,
        options: DebugOptions,
        live: LiveOptions,
    ) -> Result<LiveDebugger, DebugError> {
        let strategy = strategy::create(options.strategy, options.p)?;
        let trusted: Arc<Mutex<HashSet<MethodId>>> = Arc::default();
        let policy = if options.trust.is_empty() {
            TrustPolicy::none()
        } else {
            let set = Arc::clone(&trusted);
            TrustPolicy::from_fn(move |m| {
                set.lock().unwrap_or_else(|p| p.into_inner()).contains(&m)
            })
        };
        let mut tree = ExecutionTree::new();
        tree.set_persistence_bound(options.resident_nodes.map(ScratchFiles::bound));
        tree.set_forest_options(options.forest);
        let session = Session::new(tree, strategy, policy);
        let questions = QuestionCache {
            bound: live.question_cache,
            map: HashMap::new(),
            order: VecDeque::new(),
        };
        Ok(LiveDebugger {
            feed,
            trace: trace.to_path_buf(),
            reader: None,
            session,
            names: MethodNames::default(),
            options,
            live,
            trusted,
            resolved: HashSet::new(),
            backlog: VecDeque::new(),
            taken: Vec::new(),
            questions,
            last_asked: None,
            sealed_at: None,
            view: None,
        })
    }

    pub fn session(&self) -> &Session {
        &self.session
    }

    pub fn feed(&self) -> &Feed {
        &self.feed
    }

    /// The trace being written, once it can be opened.
    pub fn reader(&mut self) -> Result<Option<&TraceReader>, DebugError> {
        self.open_reader()?;
        Ok(self.reader.as_ref())
    }

    /// Whether the recording has ended and the session has every node.
    pub fn is_sealed(&self) -> bool {
        self.sealed_at.is_some()
    }

    /// When the session got the whole tree.
    pub fn sealed_at(&self) -> Option<Instant> {
        self.sealed_at
    }

    /// Moves the headers that have arrived into the session, without waiting; seals the session
    /// when the recording has ended. Returns how many headers went in.
    pub fn pump(&mut self) -> Result<usize, DebugError> {
        self.pump_waiting(None)
    }

    /// `pump`, first waiting up to `wait` for a header when none is there.
    fn pump_waiting(&mut self, mut wait: Option<Duration>) -> Result<usize, DebugError> {
        let mut applied = 0;
        for _ in 0..BATCHES_PER_PUMP {
            let taken = self.feed.take(&mut self.taken, BATCH, wait.take());
            self.backlog.extend(self.taken.drain(..));
            applied += self.apply_backlog()?;
            if taken != Taken::Headers(BATCH) {
                break;
            }
        }
        if self.feed.has_ended() && self.backlog.is_empty() && self.sealed_at.is_none() {
            self.session.seal();
            self.sealed_at = Some(Instant::now());
        }
        Ok(applied)
    }

    /// Pushes the backlog into the session, stopping at a header whose method must be matched
    /// against the trust patterns before its name is readable.
    fn apply_backlog(&mut self) -> Result<usize, DebugError> {
        let mut n = 0;
        while let Some(item) = self.backlog.front() {
            // A node whose method must first be matched against the trust patterns.
            let unresolved = match item {
                FeedItem::Node(h) => h
                    .method
                    .filter(|m| !self.options.trust.is_empty() && !self.resolved.contains(m)),
                FeedItem::Coverage(..) => None,
            };
            if let Some(m) = unresolved {
                if !self.resolve_trust(m)? {
                    self.feed.state().request_commit();
                    break;
                }
            }
            match self.backlog.pop_front() {
                Some(FeedItem::Node(h)) => {
                    self.session.push(&h)?;
                    n += 1;
                }
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
        let ended = self.feed.has_ended();
        let Some(reader) = &self.reader else {
            return Ok(false);
        };
        if reader.method(m)?.is_none() && !ended {
            return Ok(false);
        }
        let name = self.names.qualified(reader, m)?;
        if self.options.trust.matches(&name) {
            self.trusted
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .insert(m);
        }
        self.resolved.insert(m);
        Ok(true)
    }

    /// Opens the trace once the recorder has created it.
    fn open_reader(&mut self) -> Result<(), DebugError> {
        if self.reader.is_some() {
            return Ok(());
        }
        match TraceReader::open(&self.trace) {
            Ok(r) => self.reader = Some(r),
            // Not created (or not initialised) yet.
            Err(_) if !self.feed.has_ended() => {}
            Err(e) => return Err(e.into()),
        }
        Ok(())
    }

    /// What to do next, without waiting: a question, `Waiting` for more of the recording, or
    /// the verdict.
    pub fn step(&mut self) -> Result<Step, DebugError> {
        self.pump()?;
        Ok(self.session.step())
    }

    /// Like [`step`](Self::step), but waits for the recording while nothing can be asked yet:
    /// returns a question or the verdict.
    pub fn next_step(&mut self) -> Result<Step, DebugError> {
        loop {
            match self.step()? {
                Step::Waiting if !self.is_sealed() => {
                    self.pump_waiting(Some(Duration::from_millis(20)))?;
                }
                step => return Ok(step),
            }
        }
    }

    /// Waits until `node` is complete in the trace (and with it everything the question shows),
    /// asking the recorder to commit now.
    pub fn wait_visible(&mut self, node: NodeId) -> Result<(), DebugError> {
        // A forest node is readable once its last call is.
        let node = super::forest::visible_after(self.session.tree(), node);
        self.wait_committed(node, true)
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
            if self.feed.has_ended() {
                return Err(QuestionError::NoSuchCall(node).into());
            }
            self.feed.state().request_commit();
            self.pump_waiting(Some(VISIBLE_POLL))?;
        }
    }

    /// A node rendered as a question (from the logic cache, or read once it is committed).
    pub fn question(&mut self, node: NodeId) -> Result<Question, DebugError> {
        self.last_asked = Some(node);
        if let Some(q) = self.questions.get(node) {
            return Ok(q.clone());
        }
        self.wait_visible(node)?;
        let reader = self
            .reader
            .as_ref()
            .expect("wait_visible opened the reader");
        let q = super::forest::question_in(
            reader,
            &mut self.names,
            self.session.tree(),
            node,
            self.options.limits,
        )?;
        self.questions.insert(q.clone());
        Ok(q)
    }

    /// Renders into the logic cache the questions likely asked after the last one (the askable
    /// nodes that follow it in the suspicious region, its own subtree first), as far as they are
    /// committed; for a front end to call while a person thinks. Returns how many it rendered.
    pub fn prefetch(&mut self) -> Result<usize, DebugError> {
        let Some(last) = self.last_asked else {
            return Ok(0);
        };
        let want = self
            .live
            .prefetch
            .min(self.live.question_cache.saturating_sub(1));
        let set = self.session.suspicious();
        let mut next = Vec::new();
        let mut seen_last = false;
        set.walk(|x| {
            if x == last {
                seen_last = true;
            } else if seen_last && set.is_askable(x) && self.questions.get(x).is_none() {
                next.push(x);
            }
            if next.len() >= want {
                Walk::Stop
            } else {
                Walk::Descend
            }
        });
        self.open_reader()?;
        let Some(reader) = &self.reader else {
            return Ok(0);
        };
        let rows = reader.nodes(&next)?;
        let mut n = 0;
        for (x, row) in next.into_iter().zip(rows) {
            if row.is_some_and(|r| r.header.exit.is_some()) {
                let q = super::forest::question_in(
                    reader,
                    &mut self.names,
                    self.session.tree(),
                    x,
                    self.options.limits,
                )?;
                self.questions.insert(q);
                n += 1;
            }
        }
        Ok(n)
    }

    /// The presentation cache: the subtree of `root` down to `depth` levels below it (preorder,
    /// at most `view_nodes` nodes), rebuilt only when the tree or the answers changed since.
    pub fn view(&mut self, root: NodeId, depth: u32) -> Result<&[ViewNode], DebugError> {
        let key = (
            root,
            depth,
            self.session.tree().len(),
            self.session.answers().len(),
            self.is_sealed(),
        );
        if self.view.as_ref().is_some_and(|(k, _)| *k == key) {
            return Ok(&self.view.as_ref().expect("checked").1);
        }
        self.open_reader()?;
        let tree = self.session.tree();
        let set = self.session.suspicious();
        let mut nodes = Vec::new();
        if tree.contains(root) {
            let mut stack = vec![(root, 0u32)];
            while let Some((x, d)) = stack.pop() {
                if nodes.len() >= self.live.view_nodes {
                    break;
                }
                let method = match (tree.method(x), &self.reader) {
                    (Some(m), Some(reader)) if reader.method(m)?.is_some() => {
                        Some(self.names.qualified(reader, m)?)
                    }
                    (Some(m), _) => Some(format!("#{m}")),
                    (None, _) => None,
                };
                nodes.push(ViewNode {
                    id: x,
                    parent: tree.parent(x),
                    depth: d,
                    method,
                    complete: tree.is_complete(x),
                    suspicious: set.is_suspicious(x),
                });
                if d < depth {
                    let children: Vec<NodeId> = tree.children(x).collect();
                    stack.extend(children.into_iter().rev().map(|c| (c, d + 1)));
                }
            }
        }
        Ok(&self.view.insert((key, nodes)).1)
    }

    /// The fully qualified method of a node.
    pub fn method_of(&mut self, node: NodeId) -> Result<Option<String>, DebugError> {
        let Some(m) = self.session.tree().method(node) else {
            return Ok(None);
        };
        self.wait_visible(node)?;
        let reader = self
            .reader
            .as_ref()
            .expect("wait_visible opened the reader");
        Ok(Some(self.names.qualified(reader, m)?))
    }

    pub fn answer(&mut self, node: NodeId, answer: Answer) -> Result<(), DebugError> {
        Ok(self.session.answer(node, answer)?)
    }

    pub fn strategy_name(&self) -> StrategyName {
        self.options.strategy
    }

    /// Asks the next questions with another strategy, while the program runs or after; the
    /// answers given so far are kept.
    pub fn set_strategy(&mut self, name: StrategyName, p: Option<f64>) -> Result<(), DebugError> {
        if name.coverage_kind().is_some() {
            // The coverage of the calls taken in so far is read from the trace: wait until it
            // holds them all.
            self.pump()?;
            if let Some(last) = self.session.tree().id_bound().checked_sub(1) {
                self.wait_committed(NodeId(last as u32), false)?;
            }
        }
        super::switch_strategy(
            &mut self.session,
            &mut self.options,
            name,
            p,
            self.reader.as_ref(),
        )
    }

    /// Trusts every call of the method `qualified` (`pkg.Class.method`, all its overloads): the
    /// calls recorded so far and those still to come.
    pub fn trust(&mut self, qualified: &str) -> Result<Vec<NodeId>, DebugError> {
        self.pump()?;
        // The definitions of every method called so far are committed with the last node.
        if let Some(last) = self.session.tree().id_bound().checked_sub(1) {
            self.wait_committed(NodeId(last as u32), false)?;
        }
        let Some(reader) = &self.reader else {
            return Err(DebugError::NoCallOf(qualified.to_string()));
        };
        super::trust_named(&mut self.session, reader, qualified)
    }

    pub fn undo(&mut self) -> Result<(NodeId, Answer), DebugError> {
        Ok(self.session.undo()?)
    }

    /// The verdict with the buggy node's method, file and lines.
    pub fn report(&mut self, verdict: &Verdict) -> Result<Report, DebugError> {
        let nodes: Vec<NodeId> = match verdict {
            Verdict::Bug { node } => vec![*node],
            Verdict::NoBug => Vec::new(),
            Verdict::Undecided { candidates } => candidates.clone(),
        };
        for node in nodes {
            self.wait_visible(node)?;
        }
        self.open_reader()?;
        match &self.reader {
            Some(reader) => report::report(reader, &mut self.names, self.session.tree(), verdict),
            None => Ok(Report {
                result: "no-bug",
                buggy_node: None,
                candidates: Vec::new(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capture::{feed, LiveRecording};
    use crate::glob::GlobSet;
    use crate::trace::store::WriterConfig;
    use crate::trace::synthetic::StreamBuilder;
    use crate::trace::wire::Value;
    use std::io::Write;
    use std::os::unix::net::UnixStream;

    /// `main` calls f(1) = 2 (right), g (trusted by pattern), h(3) = 10 (wrong). The stream up
    /// to f's return, then the whole stream.
    fn streams() -> (Vec<u8>, Vec<u8>) {
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
        let dir = tempfile::tempdir().unwrap();
        let trace = dir.path().join("live.htrace");
        // No periodic commit: the question can only be rendered after a commit on demand.
        let config = WriterConfig {
            commit_interval: Duration::from_secs(3600),
            ..WriterConfig::default()
        };
        let (sink, feed) = feed(16);
        let live = LiveRecording::start(&trace, config, sink.for_first_jvm()).unwrap();
        let mut client = UnixStream::connect(live.socket_path()).unwrap();
        client.write_all(&prefix).unwrap();
        let options = DebugOptions {
            trust: GlobSet::parse("p.Main.g"),
            ..DebugOptions::default()
        };
        let mut d = LiveDebugger::new(feed, &trace, options, LiveOptions::default()).unwrap();

        // The rest of the stream is not sent yet: the first question comes before the end.
        let Step::Ask(f) = d.next_step().unwrap() else {
            panic!("f is complete and askable")
        };
        assert!(!d.is_sealed());
        assert_eq!(d.question(f).unwrap().text, "Main.f(x=1) = 2");
        let view = d.view(NodeId::ROOT, 3).unwrap().to_vec();
        let main = view
            .iter()
            .find(|n| n.method.as_deref() == Some("p.Main.main"))
            .unwrap();
        assert!(!main.complete);
        assert!(view.iter().any(|n| n.id == f && n.complete && n.suspicious));
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
        assert!(d.view(NodeId::ROOT, 3).unwrap().iter().all(|n| n.complete));
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

    #[test]
    fn the_strategy_changes_and_methods_are_trusted_while_the_program_runs() {
        let (prefix, whole) = streams();
        let dir = tempfile::tempdir().unwrap();
        let trace = dir.path().join("live.htrace");
        let (sink, feed) = feed(16);
        let live =
            LiveRecording::start(&trace, WriterConfig::default(), sink.for_first_jvm()).unwrap();
        let mut client = UnixStream::connect(live.socket_path()).unwrap();
        client.write_all(&prefix).unwrap();
        let options = DebugOptions::default();
        let mut d = LiveDebugger::new(feed, &trace, options, LiveOptions::default()).unwrap();
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
mod coverage_tests {
    use super::*;
    use crate::capture::{feed, LiveRecording};
    use crate::strategy::StrategyName;
    use crate::trace::recorder::tests_content_coverage::loop_program_ending;
    use crate::trace::store::WriterConfig;
    use std::io::Write;
    use std::os::unix::net::UnixStream;

    /// With a coverage strategy, the calls that completed while the program still runs carry
    /// their edges into the session's weights (not only once the trace is reopened).
    #[test]
    fn a_live_coverage_session_weighs_calls_before_the_recording_ends() {
        let (bytes, [main, twice, never]) = loop_program_ending(false);
        let dir = tempfile::tempdir().unwrap();
        let trace = dir.path().join("live.htrace");
        let (sink, feed) = feed(64);
        let live =
            LiveRecording::start(&trace, WriterConfig::default(), sink.for_first_jvm()).unwrap();
        let mut client = UnixStream::connect(live.socket_path()).unwrap();
        // Everything but the end of the recording: the program is still running.
        client.write_all(&bytes).unwrap();
        let options = DebugOptions {
            strategy: StrategyName::EdgeCoverage,
            ..DebugOptions::default()
        };
        let mut d = LiveDebugger::new(feed, &trace, options, LiveOptions::default()).unwrap();
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
}
