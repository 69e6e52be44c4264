//! A debugging session: a strategy choosing questions over the suspicious set, the answers
//! given so far, undo, and the verdict.
//!
//! The session works while the tree grows: push headers (and coverage) into it between
//! questions; only complete nodes are asked, and a node that completes inside the current region
//! joins the suspicious set. `step` says what to do next: ask a node, wait for more of the
//! recording, or stop with a verdict.

mod answer;
mod children;
mod paths;
mod selection;
mod suspicious;
mod trust;

pub use answer::{Answer, UnknownAnswer};
pub use children::ChildView;
pub use selection::{Strategy, StrategyName};
pub use suspicious::{SuspiciousSet, Walk, Weighting, COVERAGE_TOLERANCE};
pub use trust::TrustPolicy;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::ids::{MethodId, NodeId};
use crate::tree::{CoverageKind, ExecutionTree, NodeHeader, TreeError};

/// Where the search ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "result", rename_all = "kebab-case")]
pub enum Verdict {
    /// An invalid node whose children are all valid or trusted: its method holds the bug.
    Bug { node: NodeId },
    /// The answers leave no buggy node (e.g. every top-level call is valid).
    NoBug,
    /// Don't-know answers leave several nodes that may be buggy.
    Undecided { candidates: Vec<NodeId> },
}

/// What the session needs next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// Ask the oracle about this node.
    Ask(NodeId),
    /// Nothing can be asked until more of the recording arrives (or it is sealed).
    Waiting,
    /// The search is over.
    Done(Verdict),
}

#[derive(Debug, Error, PartialEq, Eq)]
pub enum SessionError {
    #[error("node {node} cannot be answered now: {reason}")]
    NotAskable { node: NodeId, reason: &'static str },
    #[error("there is no answer to undo")]
    NothingToUndo,
    #[error("method {0} has no call in the execution tree (yet): nothing to trust")]
    NoCallOf(MethodId),
    #[error(transparent)]
    Tree(#[from] TreeError),
}

/// See the module documentation.
pub struct Session {
    set: SuspiciousSet,
    strategy: Box<dyn Strategy>,
    log: Vec<(NodeId, Answer)>,
}

impl Session {
    /// A session over `tree` (possibly still growing) with a strategy and the methods trusted
    /// from the start.
    pub fn new(tree: ExecutionTree, strategy: Box<dyn Strategy>, trust: TrustPolicy) -> Self {
        let set = SuspiciousSet::new(tree, trust, strategy.weighting());
        Session {
            set,
            strategy,
            log: Vec::new(),
        }
    }

    pub fn tree(&self) -> &ExecutionTree {
        self.set.tree()
    }

    pub fn suspicious(&self) -> &SuspiciousSet {
        &self.set
    }

    pub fn strategy(&self) -> &dyn Strategy {
        self.strategy.as_ref()
    }

    /// Asks the next questions with another strategy, at any time (also while the tree grows).
    /// The answers given so far are kept; when the new strategy needs another aggregate, the set
    /// is rebuilt with it and the answers replayed.
    pub fn set_strategy(&mut self, strategy: Box<dyn Strategy>) {
        let weighting = strategy.weighting();
        self.strategy = strategy;
        if weighting != self.set.weighting() {
            self.set.set_weighting(weighting);
            for &(node, answer) in &self.log {
                self.set.apply(node, answer);
            }
        }
    }

    /// The share of the region's coverage weight the coverage weights may be off by
    /// ([`SuspiciousSet::set_coverage_tolerance`]).
    pub fn set_coverage_tolerance(&mut self, share: f64) {
        self.set.set_coverage_tolerance(share);
    }

    /// The answers given so far, oldest first.
    pub fn answers(&self) -> &[(NodeId, Answer)] {
        &self.log
    }

    /// Adds a node of the growing recording (at its start or its completion).
    pub fn push(&mut self, header: &NodeHeader) -> Result<(), TreeError> {
        self.set.push(header)
    }

    /// Records the coverage entities a node covers itself.
    pub fn set_coverage(
        &mut self,
        node: NodeId,
        kind: CoverageKind,
        entities: &[u32],
    ) -> Result<(), TreeError> {
        self.set.set_coverage(node, kind, entities)
    }

    /// Forgets the tree's coverage of `kind`, unless the strategy weighs by it.
    pub fn clear_coverage(&mut self, kind: CoverageKind) {
        self.set.clear_coverage(kind);
    }

    /// The recording is over: no node will arrive or complete any more.
    pub fn seal(&mut self) {
        self.set.seal();
    }

    /// The next thing to do: a question, waiting, or the verdict.
    pub fn step(&mut self) -> Step {
        if let Some(node) = self.strategy.select(&self.set) {
            return Step::Ask(node);
        }
        let root = self.set.region_root();
        let root_is_call =
            self.set.tree().contains(root) && self.set.tree().kind(root).is_askable();
        if !root_is_call && !self.set.tree().is_sealed() {
            // Top-level calls may still arrive or complete.
            return Step::Waiting;
        }
        // No askable node is left: what remains suspicious besides the root are don't-knows.
        let mut rest = Vec::new();
        self.set.walk(|x| {
            if x != root && self.set.is_member(x) {
                rest.push(x);
            }
            Walk::Descend
        });
        let root_buggy = root_is_call && self.set.is_member(root);
        // Don't-know loops and iterations of the root's own frame leave the node uncertain but
        // not its method: they are its method's code, and every call below them is cleared.
        let only_own_loops = root_buggy && rest.iter().all(|&x| self.in_frame_of(root, x));
        Step::Done(match (rest.is_empty() || only_own_loops, root_buggy) {
            (true, true) => Verdict::Bug { node: root },
            (true, false) => Verdict::NoBug,
            (false, _) => {
                let mut candidates = Vec::with_capacity(rest.len() + 1);
                if root_buggy {
                    candidates.push(root);
                }
                candidates.extend(rest);
                Verdict::Undecided { candidates }
            }
        })
    }

    /// Whether `x` is a loop or iteration of `node`'s frame: below it through loops and
    /// iterations only.
    fn in_frame_of(&self, node: NodeId, x: NodeId) -> bool {
        let tree = self.set.tree();
        let mut y = x;
        while y != node {
            if !tree.is_frame_fragment(y) {
                return false;
            }
            match tree.parent(y) {
                Some(p) => y = p,
                None => return false,
            }
        }
        x != node
    }

    /// Whether `node` is *traceable* (generalized-AD paper, Definition 9 (iii)): every node
    /// above it is wrong, so its wrong result shows at the root. `Some(true)` when every
    /// ancestor was answered invalid (root and thread nodes are assumed wrong, and loops are
    /// skipped when the session leaves them out), `Some(false)` when one was answered valid,
    /// `None` when some were never judged (a strategy that jumps, trusted calls: trust says
    /// the method's code is right, not its result).
    pub fn traceable(&self, node: NodeId) -> Option<bool> {
        let tree = self.set.tree();
        let mut known = true;
        let mut x = tree.parent(node);
        while let Some(a) = x {
            let kind = tree.kind(a);
            let skipped = kind.is_loop() && self.set.skips_loops();
            if kind.is_askable() && !skipped {
                match self.set.mark(a) {
                    Some(Answer::Invalid) => {}
                    Some(Answer::Valid) => return Some(false),
                    _ => known = false,
                }
            }
            x = tree.parent(a);
        }
        known.then_some(true)
    }

    /// The loops and iterations of `node`'s own frame that are still suspicious (answered
    /// don't know, or never asked; all of them when the session leaves loops out): a verdict
    /// on `node` keeps their code among the buggy code, since only children known to be right
    /// take theirs away (Lemma 1).
    pub fn open_loops(&self, node: NodeId) -> Vec<NodeId> {
        let mut out = Vec::new();
        if !self.set.tree().contains(node) {
            return out;
        }
        self.set.walk_from(node, |x| {
            if x == node {
                return Walk::Descend;
            }
            let tree = self.set.tree();
            if !tree.is_frame_fragment(x) {
                return Walk::Skip;
            }
            // A projected run of iterations is the session's: the iterations in it name lines.
            if tree.kind(x).is_loop() && (self.set.is_suspicious(x) || self.set.skips_loops()) {
                out.push(x);
            }
            Walk::Descend
        });
        out
    }

    /// Why `node` cannot be answered now, if it cannot.
    fn check_askable(&self, node: NodeId, answer: Answer) -> Result<(), &'static str> {
        let tree = self.set.tree();
        if !tree.contains(node) {
            return Err("it is not in the tree");
        }
        if !tree.kind(node).is_askable() {
            return Err("root and thread nodes are never asked");
        }
        if tree.kind(node).is_loop() && self.set.skips_loops() {
            return Err("loops are left out of this session");
        }
        if answer == Answer::Trusted {
            // Trust is about the method: any call of it stands for all of them, answered,
            // running or outside the region alike.
            return if self.set.is_trusted(node) {
                Err("its method is trusted already")
            } else {
                Ok(())
            };
        }
        if !tree.is_complete(node) {
            return Err("it has not returned yet");
        }
        if self.set.is_trusted(node) {
            return Err("its method is trusted");
        }
        if !self.set.in_region(node) {
            return Err("it is outside the suspicious set");
        }
        match self.set.mark(node) {
            Some(Answer::Valid) | Some(Answer::Invalid) => Err("it was already answered"),
            _ => Ok(()),
        }
    }

    /// Records an answer about `node` (usually the node `step` asked, but any suspicious,
    /// unanswered node may be answered; a don't-know may be replaced).
    pub fn answer(&mut self, node: NodeId, answer: Answer) -> Result<(), SessionError> {
        self.check_askable(node, answer)
            .map_err(|reason| SessionError::NotAskable { node, reason })?;
        self.set.apply(node, answer);
        self.log.push((node, answer));
        Ok(())
    }

    /// Trusts every call of `method`, those in the tree and those still to arrive: the answer
    /// `trusted`, logged against its first call (so undo takes it back like any answer).
    /// Returns that call.
    pub fn trust(&mut self, method: MethodId) -> Result<NodeId, SessionError> {
        let node = self
            .set
            .tree()
            .calls_of(method)
            .next()
            .ok_or(SessionError::NoCallOf(method))?;
        self.answer(node, Answer::Trusted)?;
        Ok(node)
    }

    /// Whether every call of `method` is trusted by an answer.
    pub fn is_trusted_by_answer(&self, method: MethodId) -> bool {
        self.set.trusted_by_answer(method)
    }

    /// Takes back the last answer, restoring the state before it exactly (trust included).
    pub fn undo(&mut self) -> Result<(NodeId, Answer), SessionError> {
        let last = self.log.pop().ok_or(SessionError::NothingToUndo)?;
        self.replay();
        Ok(last)
    }

    /// Forgets every answer.
    pub fn reset(&mut self) {
        self.log.clear();
        self.replay();
    }

    fn replay(&mut self) {
        self.set.rebuild();
        for &(node, answer) in &self.log {
            self.set.apply(node, answer);
        }
    }
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_loops;
