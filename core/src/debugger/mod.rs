//! The debugger as the front ends use it (the command line and the JNI bridge): one session
//! type, [`Debugger`], over a trace, its execution tree, a session with a strategy, questions
//! rendered for people, and the verdict with the buggy code's lines.
//!
//! A `Debugger` is either over a finished trace ([`Debugger::open`]) or fed by a recording in
//! progress ([`Debugger::live`], the VET paper's incomplete execution tree). Both are states of
//! the same type: every operation works on both, and the live-only work (taking in what the
//! recorder sent, waiting until a node is committed) does nothing once the recording is over, so
//! a front end never asks which kind it holds.

mod cache;
mod forest;
mod fragment;
mod frames;
mod inspect;
mod live;
mod options;
mod question;
mod report;
mod splice;
mod status;
#[cfg(test)]
mod tests_inspect;
#[cfg(test)]
mod tests_loops;
mod view;

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

pub use frames::{match_frames, FrameNode};
pub use options::{DebugOptions, Pace, DEFAULT_RESIDENT_NODES};
pub use question::{Question, QuestionError, Shown};
pub use report::{BuggyNode, Report};
pub use status::RecordingStatus;
pub use view::{ChildPage, NextQuestion, PathStep, TreeNode};

use cache::QuestionCache;
use live::Live;

use crate::capture::{CoverageKinds, Feed, FeedState};
use crate::ids::{MethodId, NodeId};
use crate::omniscient::names::{self, MethodNames};
use crate::omniscient::RenderLimits;
use crate::scratch::ScratchFiles;
use crate::session::{Answer, Session, SessionError, Step, TrustPolicy, Verdict, Walk};
use crate::strategy::{self, StrategyError, StrategyName};
use crate::trace::store::{StoreError, TraceReader};
use crate::tree::{CoverageKind, ExecutionTree, TreeError};

#[derive(Debug, thiserror::Error)]
pub enum DebugError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Tree(#[from] TreeError),
    #[error(transparent)]
    Strategy(#[from] StrategyError),
    #[error(transparent)]
    Session(#[from] SessionError),
    #[error(transparent)]
    Question(#[from] QuestionError),
    #[error(transparent)]
    Omni(#[from] crate::omniscient::OmniError),
    #[error("no call of `{0}` is in the execution tree (yet): nothing to trust; give the qualified name, e.g. pkg.Class.method")]
    NoCallOf(String),
    #[error("`{0}` is trusted already")]
    AlreadyTrusted(String),
    #[error("node {0} is not in the execution tree (yet)")]
    UnknownNode(NodeId),
    #[error("the trace cannot be read yet: the program has not sent any event")]
    NotReadable,
    #[error("the recording has not caught up with the program within {waited:?}: {bytes} bytes of its stream are still to be stored; ask again in a moment")]
    Behind {
        waited: std::time::Duration,
        bytes: u64,
    },
}

/// Renders node `node` of `reader` as a question: a call (`question`), or a loop or an
/// iteration (`fragment`).
pub fn question(
    reader: &TraceReader,
    names: &mut MethodNames,
    node: NodeId,
    limits: RenderLimits,
) -> Result<Question, QuestionError> {
    match reader.node(node)? {
        Some(row) if row.header.kind.is_loop() => fragment::question(reader, names, &row, limits),
        _ => question::call_question(reader, names, node, limits),
    }
}

/// A debugging session: see the module documentation.
pub struct Debugger {
    session: Session,
    /// The trace; a live one is opened once the recorder has created it.
    trace: PathBuf,
    reader: Option<TraceReader>,
    /// The recording that fills the session; `None` over a finished trace.
    live: Option<Live>,
    names: MethodNames,
    options: DebugOptions,
    questions: QuestionCache,
    last_asked: Option<NodeId>,
    /// When the session got the whole tree.
    sealed_at: Option<Instant>,
    /// Leaves loop and iteration nodes out of the session (`DebugOptions::loops` false).
    splice: Option<splice::LoopSplice>,
    /// How long `next_step` held a question back while the store was behind
    /// (`Pace::BehindTheStore`).
    paced: Duration,
}

impl Debugger {
    /// Opens a finished trace and builds its execution tree.
    pub fn open(trace: &Path, options: DebugOptions) -> Result<Debugger, DebugError> {
        let mut d = Self::new(TraceReader::open_finished(trace)?, options)?;
        d.trace = trace.to_path_buf();
        Ok(d)
    }

    /// A session over a finished trace already open.
    pub fn new(reader: TraceReader, options: DebugOptions) -> Result<Debugger, DebugError> {
        let mut names = MethodNames::default();
        let mut tree = ExecutionTree::new();
        tree.set_persistence_bound(options.resident_nodes.map(ScratchFiles::bound));
        tree.set_forest_options(options.forest);
        let mut seen: HashSet<MethodId> = HashSet::new();
        let mut trusted: HashSet<MethodId> = HashSet::new();
        let mut splice = (!options.loops).then(splice::LoopSplice::default);
        for row in reader.preorder() {
            let row = row?;
            match &mut splice {
                Some(s) => match s.header(&row.header) {
                    Some(h) => {
                        tree.push(&h)?;
                    }
                    None => continue,
                },
                None => {
                    tree.push(&row.header)?;
                }
            }
            if let Some(m) = row.header.method {
                if seen.insert(m)
                    && !options.trust.is_empty()
                    && options.trust.matches(&names.qualified(&reader, m)?)
                {
                    trusted.insert(m);
                }
            }
        }
        tree.seal();
        let strategy = strategy::create(options.strategy, options.p)?;
        let mut session = Session::new(
            tree,
            strategy,
            options.policy(TrustPolicy::methods(trusted)),
        );
        // The entities each call covered itself, as the recorder computed them.
        for kind in [CoverageKind::Edge, CoverageKind::DefUse] {
            if options.keeps_coverage(kind) {
                load_coverage(&mut session, &reader, kind)?;
            }
        }
        Ok(Debugger {
            session,
            trace: PathBuf::new(),
            reader: Some(reader),
            live: None,
            names,
            questions: QuestionCache::new(options.question_cache),
            options,
            last_asked: None,
            sealed_at: Some(Instant::now()),
            splice,
            paced: Duration::ZERO,
        })
    }

    /// A session over the recording that `feed` comes from, written into `trace`: it asks while
    /// the program runs and goes on over the whole tree once the recording has ended.
    pub fn live(feed: Feed, trace: &Path, options: DebugOptions) -> Result<Debugger, DebugError> {
        let strategy = strategy::create(options.strategy, options.p)?;
        let (live, policy) = Live::new(feed, !options.trust.is_empty());
        // Only the coverage the strategy weighs by crosses from the recorder.
        live.feed
            .state()
            .want_coverage(CoverageKinds::kept(|k| options.keeps_coverage(k)));
        let mut tree = ExecutionTree::new();
        tree.set_persistence_bound(options.resident_nodes.map(ScratchFiles::bound));
        tree.set_forest_options(options.forest);
        Ok(Debugger {
            session: Session::new(tree, strategy, options.policy(policy)),
            trace: trace.to_path_buf(),
            reader: None,
            live: Some(live),
            names: MethodNames::default(),
            questions: QuestionCache::new(options.question_cache),
            splice: (!options.loops).then(splice::LoopSplice::default),
            options,
            last_asked: None,
            sealed_at: None,
            paced: Duration::ZERO,
        })
    }

    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The trace, once it can be read (a live one: once the program has sent its first event).
    pub fn reader(&mut self) -> Result<&TraceReader, DebugError> {
        self.open_reader()?;
        self.reader.as_ref().ok_or(DebugError::NotReadable)
    }

    /// The state the recorder shares with a live session (its progress, when the first call
    /// completed); `None` over a finished trace.
    pub fn recording(&self) -> Option<&FeedState> {
        self.live.as_ref().map(|l| &**l.feed.state())
    }

    /// Whether the session has every node: always over a finished trace, once the recording
    /// has ended and been taken in for a live one.
    pub fn is_sealed(&self) -> bool {
        self.sealed_at.is_some()
    }

    /// When the session got the whole tree.
    pub fn sealed_at(&self) -> Option<Instant> {
        self.sealed_at
    }

    pub fn strategy_name(&self) -> StrategyName {
        self.options.strategy
    }

    /// What to do next, without waiting: a question, `Waiting` for more of the recording (or,
    /// with `Pace::BehindTheStore`, for the store to catch up), or the verdict.
    pub fn step(&mut self) -> Result<Step, DebugError> {
        self.pump()?;
        if self.held_back() {
            return Ok(Step::Waiting);
        }
        let step = self.session.step();
        if let (Step::Done(_), Some(live)) = (&step, &self.live) {
            // A verdict without a question: nobody waits for the store any more.
            live.feed.state().question_shown();
        }
        Ok(step)
    }

    /// Like [`step`](Self::step), but waits for the recording while nothing can be asked yet
    /// (and, with `Pace::BehindTheStore`, while the store is behind): returns a question or the
    /// verdict.
    pub fn next_step(&mut self) -> Result<Step, DebugError> {
        // Never stopped, it returns a step.
        Ok(self.next_step_unless(|| false)?.unwrap_or(Step::Waiting))
    }

    /// [`next_step`](Self::next_step), or `None` as soon as `stop` holds while it waits.
    pub fn next_step_unless(
        &mut self,
        stop: impl Fn() -> bool,
    ) -> Result<Option<Step>, DebugError> {
        loop {
            match self.step()? {
                Step::Waiting if stop() => return Ok(None),
                Step::Waiting if self.held_back() => self.wait_for_store()?,
                Step::Waiting if !self.is_sealed() => self.wait_for_more()?,
                step => return Ok(Some(step)),
            }
        }
    }

    /// Whether the next question waits for the store (`Pace::BehindTheStore`).
    fn held_back(&self) -> bool {
        self.options.pace == Pace::BehindTheStore
            && !self.is_sealed()
            && self
                .live
                .as_ref()
                .is_some_and(|l| l.feed.state().store_is_behind())
    }

    /// How long `next_step` held questions back while the store was behind.
    pub fn paced(&self) -> Duration {
        self.paced
    }

    pub fn pace(&self) -> Pace {
        self.options.pace
    }

    /// A node rendered as a question (from the logic cache, or read once it is committed).
    pub fn question(&mut self, node: NodeId) -> Result<Question, DebugError> {
        self.last_asked = Some(node);
        if let Some(q) = self.questions.get(node) {
            return Ok(q.clone());
        }
        self.wait_visible(node)?;
        let reader = self.reader.as_ref().ok_or(DebugError::NotReadable)?;
        let q = forest::question_in(
            reader,
            &mut self.names,
            self.session.tree(),
            node,
            self.options.limits,
        )?;
        self.questions.insert(q.clone());
        if let Some(live) = &self.live {
            // The store may now run behind the program (`trace::priority`).
            live.feed.state().question_shown();
        }
        Ok(q)
    }

    /// Renders into the logic cache the questions likely asked after the last one (the askable
    /// nodes that follow it in the suspicious region, its own subtree first), as far as they are
    /// committed. Returns how many it rendered.
    pub fn prefetch(&mut self) -> Result<usize, DebugError> {
        let Some(last) = self.last_asked else {
            return Ok(0);
        };
        let want = self
            .options
            .prefetch
            .min(self.options.question_cache.saturating_sub(1));
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
                let q = forest::question_in(
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

    /// Work for a front end to do while a person thinks: take in the recording, render the
    /// likely next questions.
    pub fn idle(&mut self) -> Result<(), DebugError> {
        self.pump()?;
        self.prefetch()?;
        Ok(())
    }

    /// The fully qualified method of a node (a running one's too: its method's definition is
    /// committed with the node's start).
    pub fn method_of(&mut self, node: NodeId) -> Result<Option<String>, DebugError> {
        let Some(m) = self.session.tree().method(node) else {
            return Ok(None);
        };
        // A forest node is the session's: wait for the recorded node it ends with.
        self.wait_started(forest::visible_after(self.session.tree(), node))?;
        let reader = self.reader.as_ref().ok_or(DebugError::NotReadable)?;
        Ok(Some(self.names.qualified(reader, m)?))
    }

    pub fn answer(&mut self, node: NodeId, answer: Answer) -> Result<(), DebugError> {
        self.pump()?;
        Ok(self.session.answer(node, answer)?)
    }

    pub fn undo(&mut self) -> Result<(NodeId, Answer), DebugError> {
        Ok(self.session.undo()?)
    }

    /// Asks the next questions with another strategy (`p` for the coverage ones, their default
    /// when `None`), while the program runs or after; the answers given so far are kept. The
    /// coverage the new strategy weighs by is read from the trace when the tree does not have it
    /// (a live recording sends it with the calls still to come), and the coverage no longer
    /// needed is dropped.
    pub fn set_strategy(&mut self, name: StrategyName, p: Option<f64>) -> Result<(), DebugError> {
        let strategy = strategy::create(name, p)?;
        let before = (self.options.strategy, self.options.p);
        self.options.strategy = name;
        self.options.p = p;
        if let Err(e) = self.coverage_for(name) {
            (self.options.strategy, self.options.p) = before;
            self.want_kept_coverage();
            return Err(e);
        }
        self.session.set_strategy(strategy);
        for kind in [CoverageKind::Edge, CoverageKind::DefUse] {
            if !self.options.keeps_coverage(kind) {
                self.session.clear_coverage(kind);
            }
        }
        self.want_kept_coverage();
        Ok(())
    }

    /// Gives the tree the coverage strategy `name` weighs by, when it does not have it.
    fn coverage_for(&mut self, name: StrategyName) -> Result<(), DebugError> {
        let Some(kind) = name.coverage_kind() else {
            return Ok(());
        };
        if self.session.tree().has_coverage_of(kind) {
            return Ok(());
        }
        // From some call on, a live recording sends it; the calls before are read from the
        // trace once it holds them all.
        self.want_kept_coverage();
        self.wait_for_coverage(kind)?;
        self.wait_for_last_node()?;
        if let Some(reader) = &self.reader {
            load_coverage(&mut self.session, reader, kind)?;
        }
        Ok(())
    }

    /// Trusts every call of the method `qualified` (`pkg.Class.method`, all its overloads): the
    /// calls recorded so far and, while the program runs, those still to come. Returns the calls
    /// the answers were logged against.
    pub fn trust(&mut self, qualified: &str) -> Result<Vec<NodeId>, DebugError> {
        // The definitions of every method called so far are committed with the last node.
        self.wait_for_last_node()?;
        let Some(reader) = &self.reader else {
            return Err(DebugError::NoCallOf(qualified.to_string()));
        };
        let methods: Vec<MethodId> = names::methods_named(reader, qualified)?
            .into_iter()
            .filter(|&m| self.session.tree().calls_of(m).next().is_some())
            .collect();
        if methods.is_empty() {
            return Err(DebugError::NoCallOf(qualified.to_string()));
        }
        let mut logged = Vec::new();
        for m in methods {
            if !self.session.is_trusted_by_answer(m) {
                logged.push(self.session.trust(m)?);
            }
        }
        if logged.is_empty() {
            return Err(DebugError::AlreadyTrusted(qualified.to_string()));
        }
        Ok(logged)
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
            Some(reader) => report::report(
                reader,
                &mut self.names,
                verdict,
                &self.session,
                self.splice.is_some(),
            ),
            None => Ok(Report {
                result: "no-bug",
                buggy_node: None,
                candidates: Vec::new(),
                traceable: None,
            }),
        }
    }

    /// Takes in the rest of a live recording and waits until it has ended (at once over a
    /// finished trace): a verdict may come before the program ends, and the recorder must never
    /// wait for a session that stopped listening.
    pub fn finish_recording(&mut self) -> Result<(), DebugError> {
        while !self.is_sealed() {
            if self.pump()? == 0 {
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
        }
        Ok(())
    }
}

/// Gives the session's calls their coverage of `kind` from the trace.
fn load_coverage(
    session: &mut Session,
    reader: &TraceReader,
    kind: CoverageKind,
) -> Result<(), DebugError> {
    for (node, ids) in reader.all_coverage(kind)? {
        // A live trace may hold calls the session has not taken in yet: they bring their own.
        if session.tree().contains(node) && !session.tree().has_node_coverage(node, kind) {
            session.set_coverage(node, kind, &ids)?;
        }
    }
    Ok(())
}
