//! The debugger as the front ends use it (the command line now, the JNI bridge later): a trace,
//! its execution tree, a session with a strategy, questions rendered for people, and the
//! verdict with the buggy code's lines.

mod forest;
mod live;
mod question;
mod report;

use std::collections::HashSet;
use std::path::Path;

pub use live::{LiveDebugger, LiveOptions, ViewNode};
pub use question::{question, Question, QuestionError, Shown};
pub use report::{BuggyNode, Report};

use crate::glob::GlobSet;
use crate::ids::{MethodId, NodeId};
use crate::omniscient::names::{self, MethodNames};
use crate::omniscient::RenderLimits;
use crate::scratch::ScratchFiles;
use crate::session::{Answer, Session, SessionError, Step, TrustPolicy, Verdict};
use crate::strategy::{self, StrategyError, StrategyName};
use crate::trace::store::{StoreError, TraceReader};
use crate::tree::{CoverageKind, ExecutionTree, ForestOptions, TreeError};

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
    #[error("no call of `{0}` is in the execution tree (yet): nothing to trust; give the qualified name, e.g. pkg.Class.method")]
    NoCallOf(String),
    #[error("`{0}` is trusted already")]
    AlreadyTrusted(String),
}

/// Trusts every call of the methods named `qualified` (every overload that has a call): see
/// [`Session::trust`]. Returns the calls the answers were logged against.
fn trust_named(
    session: &mut Session,
    reader: &TraceReader,
    qualified: &str,
) -> Result<Vec<NodeId>, DebugError> {
    let methods: Vec<MethodId> = names::methods_named(reader, qualified)?
        .into_iter()
        .filter(|&m| session.tree().calls_of(m).next().is_some())
        .collect();
    if methods.is_empty() {
        return Err(DebugError::NoCallOf(qualified.to_string()));
    }
    let mut logged = Vec::new();
    for m in methods {
        if !session.is_trusted_by_answer(m) {
            logged.push(session.trust(m)?);
        }
    }
    if logged.is_empty() {
        return Err(DebugError::AlreadyTrusted(qualified.to_string()));
    }
    Ok(logged)
}

/// How a debugging session is set up.
#[derive(Clone, Debug)]
pub struct DebugOptions {
    pub strategy: StrategyName,
    /// The p of a coverage strategy; its default when `None`.
    pub p: Option<f64>,
    /// Methods trusted from the start (`pkg.*`, `pkg.Class.method`); calls into
    /// uninstrumented code are always trusted.
    pub trust: GlobSet,
    pub limits: RenderLimits,
    /// The persistence bound: nodes of the execution tree (and of the suspicious set) kept in
    /// memory; the others are spilled to scratch files. `None` keeps every node in memory.
    pub resident_nodes: Option<usize>,
    /// Keep both kinds of coverage in the tree. By default only the kind the strategy weighs by
    /// is kept (none for the others): the resident part of a second kind would take memory the
    /// budget leaves to SQLite and the recorder. A switch to a strategy of the other kind reads
    /// it from the trace.
    pub all_coverage: bool,
    /// The execution forest (collapsed and projected nodes, balanced as nodes complete): on by
    /// default, `ForestOptions::OFF` for the plain tree (`--no-balance`).
    pub forest: ForestOptions,
}

/// The default persistence bound. Per resident node: the skeleton and the calls of its method 29
/// bytes, the suspicious set 6 (22 with coverage weights), its coverage (one kind, for a coverage
/// strategy) 8 plus 12 per entity position with one position per node resident: at most 71
/// bytes, 213 MB for 3 * 10^6 nodes, which leaves the rest of the 512 MiB budget to SQLite, the
/// feed and the recorder (kxml2 size 6, 5.6 * 10^6 nodes, edge coverage: see docs/benchmarks.md).
pub const DEFAULT_RESIDENT_NODES: usize = 3_000_000;

impl DebugOptions {
    /// Whether the session keeps coverage of `kind`.
    pub fn keeps_coverage(&self, kind: CoverageKind) -> bool {
        self.all_coverage || self.strategy.coverage_kind() == Some(kind)
    }

    /// The persistence bound a front end's number gives: 0 keeps every node in memory.
    pub fn resident_bound(nodes: usize) -> Option<usize> {
        (nodes > 0).then_some(nodes)
    }
}

impl Default for DebugOptions {
    fn default() -> Self {
        DebugOptions {
            strategy: StrategyName::TopDown,
            p: None,
            trust: GlobSet::parse(""),
            limits: RenderLimits::default(),
            resident_nodes: Some(DEFAULT_RESIDENT_NODES),
            all_coverage: false,
            forest: ForestOptions::ON,
        }
    }
}

/// Gives `session` the strategy `name` and records it in `options`; the answers are kept. The
/// coverage the new strategy weighs by is read from `reader` first when the tree does not have
/// it (for the calls the session has), and the coverage no longer needed is dropped.
fn switch_strategy(
    session: &mut Session,
    options: &mut DebugOptions,
    name: StrategyName,
    p: Option<f64>,
    reader: Option<&TraceReader>,
) -> Result<(), DebugError> {
    let strategy = strategy::create(name, p)?;
    if let (Some(kind), Some(reader)) = (name.coverage_kind(), reader) {
        if !session.tree().has_coverage_of(kind) {
            load_coverage(session, reader, kind)?;
        }
    }
    session.set_strategy(strategy);
    options.strategy = name;
    options.p = p;
    for kind in [CoverageKind::Edge, CoverageKind::DefUse] {
        if !options.keeps_coverage(kind) {
            session.clear_coverage(kind);
        }
    }
    Ok(())
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

/// A session over a recorded trace.
pub struct Debugger {
    reader: TraceReader,
    session: Session,
    names: MethodNames,
    options: DebugOptions,
}

impl Debugger {
    /// Opens a trace and builds its execution tree.
    pub fn open(trace: &Path, options: DebugOptions) -> Result<Debugger, DebugError> {
        Self::new(TraceReader::open(trace)?, options)
    }

    pub fn new(reader: TraceReader, options: DebugOptions) -> Result<Debugger, DebugError> {
        let mut names = MethodNames::default();
        let mut tree = ExecutionTree::new();
        tree.set_persistence_bound(options.resident_nodes.map(ScratchFiles::bound));
        tree.set_forest_options(options.forest);
        let mut seen: HashSet<MethodId> = HashSet::new();
        let mut trusted: HashSet<MethodId> = HashSet::new();
        for row in reader.preorder() {
            let row = row?;
            tree.push(&row.header)?;
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
        let mut session = Session::new(tree, strategy, TrustPolicy::methods(trusted));
        // The entities each call covered itself, as the recorder computed them.
        for kind in [CoverageKind::Edge, CoverageKind::DefUse] {
            if options.keeps_coverage(kind) {
                load_coverage(&mut session, &reader, kind)?;
            }
        }
        Ok(Debugger {
            reader,
            session,
            names,
            options,
        })
    }

    pub fn reader(&self) -> &TraceReader {
        &self.reader
    }

    pub fn session(&self) -> &Session {
        &self.session
    }

    pub fn strategy_name(&self) -> StrategyName {
        self.options.strategy
    }

    /// Asks the next questions with another strategy (`p` for the coverage ones, their default
    /// when `None`); the answers given so far are kept.
    pub fn set_strategy(&mut self, name: StrategyName, p: Option<f64>) -> Result<(), DebugError> {
        switch_strategy(
            &mut self.session,
            &mut self.options,
            name,
            p,
            Some(&self.reader),
        )
    }

    /// Trusts every call of the method `qualified` (`pkg.Class.method`, all its overloads).
    pub fn trust(&mut self, qualified: &str) -> Result<Vec<NodeId>, DebugError> {
        trust_named(&mut self.session, &self.reader, qualified)
    }

    /// The next question, or the verdict.
    pub fn step(&mut self) -> Step {
        self.session.step()
    }

    /// A node rendered as a question.
    pub fn question(&mut self, node: NodeId) -> Result<Question, DebugError> {
        Ok(forest::question_in(
            &self.reader,
            &mut self.names,
            self.session.tree(),
            node,
            self.options.limits,
        )?)
    }

    /// The fully qualified method of a node.
    pub fn method_of(&mut self, node: NodeId) -> Result<Option<String>, DebugError> {
        match self.session.tree().method(node) {
            Some(m) => Ok(Some(self.names.qualified(&self.reader, m)?)),
            None => Ok(None),
        }
    }

    pub fn answer(&mut self, node: NodeId, answer: Answer) -> Result<(), DebugError> {
        Ok(self.session.answer(node, answer)?)
    }

    pub fn undo(&mut self) -> Result<(NodeId, Answer), DebugError> {
        Ok(self.session.undo()?)
    }

    /// The verdict with the buggy node's method, file and lines.
    pub fn report(&mut self, verdict: &Verdict) -> Result<Report, DebugError> {
        report::report(&self.reader, &mut self.names, self.session.tree(), verdict)
    }
}
