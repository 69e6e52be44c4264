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

use super::names::MethodNames;
use super::{question, report, DebugError, DebugOptions, Question, QuestionError, Report};
use crate::ids::{MethodId, NodeId};
use crate::recording::{Feed, Taken};
use crate::session::{Answer, Session, Step, TrustPolicy, Verdict, Walk};
use crate::strategy;
use crate::trace::store::TraceReader;
use crate::tree::{ExecutionTree, NodeHeader};

/// The bounds of a live session's caches.
#[derive(Clone, Debug)]
pub struct LiveOptions {
    /// The logic cache: rendered questions kept (the nodes asked and the ones likely asked next).
    pub question_cache: usize,
    /// How many likely next questions [`LiveDebugger::prefetch`] renders ahead.
    pub prefetch: usize,
}

impl Default for LiveOptions {
    fn default() -> Self {
        LiveOptions {
            question_cache: 256,
            prefetch: 8,
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
    backlog: VecDeque<NodeHeader>,
    taken: Vec<NodeHeader>,
    questions: QuestionCache,
    last_asked: Option<NodeId>,
    sealed_at: Option<Instant>,
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
        let session = Session::new(ExecutionTree::new(), strategy, policy);
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
        while let Some(h) = self.backlog.front() {
            if let Some(m) = h.method {
                if !self.options.trust.is_empty()
                    && !self.resolved.contains(&m)
                    && !self.resolve_trust(m)?
                {
                    self.feed.state().request_commit();
                    break;
                }
            }
            let h = self.backlog.pop_front().expect("front exists");
            self.session.push(&h)?;
            n += 1;
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
        loop {
            self.open_reader()?;
            if let Some(reader) = &self.reader {
                if reader
                    .node(node)?
                    .is_some_and(|row| row.header.exit.is_some())
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
        let q = question(reader, &mut self.names, node, self.options.limits)?;
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
                let q = question(reader, &mut self.names, x, self.options.limits)?;
                self.questions.insert(q);
                n += 1;
            }
        }
        Ok(n)
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
            Some(reader) => report::report(reader, &mut self.names, verdict),
            None => Ok(Report {
                result: "no-bug",
                buggy_node: None,
                candidates: Vec::new(),
            }),
        }
    }
}
