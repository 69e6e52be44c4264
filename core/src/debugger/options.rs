//! How a debugging session is set up: the strategy, trust, rendering limits, the bounds of
//! what it keeps in memory and the pace of its questions while the program runs.

use crate::glob::GlobSet;
use crate::omniscient::RenderLimits;
use crate::session::TrustPolicy;
use crate::strategy::StrategyName;
use crate::tree::{CoverageKind, ForestOptions};

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
    /// The logic cache: rendered questions kept (the nodes asked and the ones likely asked next).
    pub question_cache: usize,
    /// How many likely next questions [`super::Debugger::prefetch`] renders ahead.
    pub prefetch: usize,
    /// Ask about loops and iterations (recorded always); `false` (`--no-loops`) looks through
    /// them, as on a tree of calls alone.
    pub loops: bool,
    /// The execution forest (collapsed and projected nodes, balanced as nodes complete): on by
    /// default, `ForestOptions::OFF` for the plain tree (`--no-balance`).
    pub forest: ForestOptions,
    /// When a live session asks its next question.
    pub pace: Pace,
}

/// When a live session asks its next question while the program runs (over a finished trace,
/// or once the recording has ended, every session asks at once).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Pace {
    /// As soon as a question is ready: a person is waiting for it (and thinks between
    /// questions, which leaves the CPU to the program and the store).
    #[default]
    Ready,
    /// Only while the store keeps pace with the program
    /// ([`FeedState::store_is_behind`](crate::capture::FeedState::store_is_behind) false): for
    /// an oracle that answers at once (answer rules, a reference trace), whose questions would
    /// otherwise take, one after the other, the CPU that the store (running behind the program,
    /// `capture::STORE_NICENESS`) needs, and delay the complete tree. Meanwhile the session
    /// still takes in the recording.
    BehindTheStore,
}

impl Pace {
    pub fn as_str(self) -> &'static str {
        match self {
            Pace::Ready => "ready",
            Pace::BehindTheStore => "behind-the-store",
        }
    }
}

impl std::str::FromStr for Pace {
    type Err = String;

    fn from_str(s: &str) -> Result<Pace, String> {
        match s {
            "ready" => Ok(Pace::Ready),
            "behind-the-store" => Ok(Pace::BehindTheStore),
            _ => Err(format!("unknown pace `{s}`: use ready or behind-the-store")),
        }
    }
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

    /// `policy`, leaving loops out when they are switched off.
    pub fn policy(&self, policy: TrustPolicy) -> TrustPolicy {
        if self.loops {
            policy
        } else {
            policy.without_loops()
        }
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
            question_cache: 256,
            prefetch: 8,
            loops: true,
            forest: ForestOptions::ON,
            pace: Pace::Ready,
        }
    }
}
