//! The balanced-ET paper's evaluation method (section 5): every askable node of a tree taken in
//! turn as the buggy one, a simulated oracle answering (the buggy node and its ancestors
//! invalid, every other node valid), and the number of questions averaged.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::{create, StrategyError, StrategyName};
use crate::ids::NodeId;
use crate::session::{Answer, Session, SessionError, Step, TrustPolicy, Verdict, Walk};
use crate::tree::ExecutionTree;

/// The oracle of a run whose only defect is in `buggy`'s method call: a node is invalid iff it
/// is `buggy` or one of its ancestors.
#[derive(Clone, Copy, Debug)]
pub struct SimulatedOracle {
    pub buggy: NodeId,
}

impl SimulatedOracle {
    pub fn answer(&self, tree: &ExecutionTree, node: NodeId) -> Answer {
        if tree.is_ancestor_or_self(node, self.buggy) {
            Answer::Invalid
        } else {
            Answer::Valid
        }
    }
}

#[derive(Debug, Error, PartialEq)]
pub enum EvalError {
    #[error(transparent)]
    Strategy(#[from] StrategyError),
    #[error("the strategy asked a node the session refused: {0}")]
    Session(#[from] SessionError),
    #[error("the session waits for more nodes; evaluate complete, sealed trees only")]
    Waiting,
    #[error("the session asked more than {0} questions without a verdict")]
    TooManyQuestions(usize),
}

/// Runs `session` to its verdict, asking `oracle`; returns the verdict and the questions asked.
pub fn run_to_verdict(
    session: &mut Session,
    mut oracle: impl FnMut(&ExecutionTree, NodeId) -> Answer,
) -> Result<(Verdict, usize), EvalError> {
    let limit = 2 * session.tree().len() + 2;
    let mut asked = 0;
    loop {
        match session.step() {
            Step::Ask(node) => {
                asked += 1;
                if asked > limit {
                    return Err(EvalError::TooManyQuestions(limit));
                }
                let answer = oracle(session.tree(), node);
                session.answer(node, answer)?;
            }
            Step::Waiting => return Err(EvalError::Waiting),
            Step::Done(verdict) => return Ok((verdict, asked)),
        }
    }
}

/// The result of evaluating one strategy on one tree.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Evaluation {
    pub strategy: StrategyName,
    /// Number of experiments: askable nodes of the tree, each taken as the buggy one.
    pub experiments: usize,
    /// Questions asked, averaged over the experiments.
    pub average_questions: f64,
    /// Experiments whose verdict named the buggy node.
    pub found: usize,
}

/// The nodes a strategy can ask at the start of a session: each may be the buggy one.
pub fn askable_nodes(session: &Session) -> Vec<NodeId> {
    let set = session.suspicious();
    let mut nodes = Vec::new();
    set.walk(|x| {
        if set.is_askable(x) {
            nodes.push(x);
        }
        Walk::Descend
    });
    nodes
}

/// Average number of questions of `strategy` on `tree` over every possible buggy node.
pub fn average_questions(
    tree: &ExecutionTree,
    strategy: StrategyName,
    p: Option<f64>,
    trust: TrustPolicy,
) -> Result<Evaluation, EvalError> {
    let mut tree = tree.clone();
    tree.seal();
    let mut session = Session::new(tree, create(strategy, p)?, trust);
    let candidates = askable_nodes(&session);
    let (mut questions, mut found) = (0usize, 0usize);
    for &buggy in &candidates {
        session.reset();
        let oracle = SimulatedOracle { buggy };
        let (verdict, asked) = run_to_verdict(&mut session, |t, n| oracle.answer(t, n))?;
        questions += asked;
        found += usize::from(verdict == Verdict::Bug { node: buggy });
    }
    Ok(Evaluation {
        strategy,
        experiments: candidates.len(),
        average_questions: if candidates.is_empty() {
            0.0
        } else {
            questions as f64 / candidates.len() as f64
        },
        found,
    })
}

/// Questions of one strategy over a set of experiments, on the plain tree and on the forest.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ForestQuestions {
    /// Average questions on the plain tree and on the forest.
    pub tree: f64,
    pub forest: f64,
    /// The most questions one experiment took, on each.
    pub worst_tree: u64,
    pub worst_forest: u64,
    /// Experiments whose forest verdict named the buggy call's image.
    pub found: usize,
}

/// Questions of `strategy` over the experiments `buggy` (recorded calls of `plain`), on the
/// plain tree and on `forest` (the same tree with its `ForestOptions`, balanced when its
/// session is made): the balanced-ET paper's Table 1 columns *Quest.* and *Q. bal.*, and the
/// worst case of each. On the forest a node is invalid when it is an ancestor of the buggy
/// call's image (the call itself, or the collapsed node that absorbed it).
pub fn forest_questions(
    plain: &ExecutionTree,
    forest: &ExecutionTree,
    strategy: StrategyName,
    buggy: &[NodeId],
) -> Result<ForestQuestions, EvalError> {
    let mut plain = plain.clone();
    plain.seal();
    let mut forest = forest.clone();
    forest.seal();
    let mut out = ForestQuestions::default();
    let (mut on_tree, mut on_forest) = (0u64, 0u64);
    if strategy == StrategyName::TopDown {
        // One pass each instead of a session per experiment (equal: see `top_down_questions`).
        let tree_counts: std::collections::HashMap<NodeId, u64> =
            top_down_questions(&plain).into_iter().collect();
        let mut balanced = forest.clone();
        crate::tree::forest::balance_all(&mut balanced);
        let forest_counts: std::collections::HashMap<NodeId, u64> =
            top_down_questions(&balanced).into_iter().collect();
        for &b in buggy {
            let t = tree_counts.get(&b).copied().unwrap_or(0);
            on_tree += t;
            out.worst_tree = out.worst_tree.max(t);
            if let Some(&f) = balanced.image(b).and_then(|i| forest_counts.get(&i)) {
                on_forest += f;
                out.worst_forest = out.worst_forest.max(f);
                out.found += 1;
            }
        }
    } else {
        let mut tree_session = Session::new(plain, create(strategy, None)?, TrustPolicy::none());
        let mut forest_session = Session::new(forest, create(strategy, None)?, TrustPolicy::none());
        for &b in buggy {
            tree_session.reset();
            let oracle = SimulatedOracle { buggy: b };
            let t = run_to_verdict(&mut tree_session, |t, n| oracle.answer(t, n))?.1 as u64;
            on_tree += t;
            out.worst_tree = out.worst_tree.max(t);
            forest_session.reset();
            let Some(image) = forest_session.tree().image(b) else {
                continue;
            };
            let oracle = SimulatedOracle { buggy: image };
            let (verdict, asked) = run_to_verdict(&mut forest_session, |t, n| oracle.answer(t, n))?;
            on_forest += asked as u64;
            out.worst_forest = out.worst_forest.max(asked as u64);
            out.found += usize::from(verdict == Verdict::Bug { node: image });
        }
    }
    let n = buggy.len().max(1) as f64;
    out.tree = on_tree as f64 / n;
    out.forest = on_forest as f64 / n;
    Ok(out)
}

/// Top-down's questions for every buggy node at once, without running a session: with the
/// simulated oracle, top-down asks, below each region root, the askable nodes of its frontier
/// in call order up to the one holding the buggy node, then every frontier node of the buggy
/// node itself. So the count for `b` is the sum, over its askable ancestors-or-self `x`, of
/// x's position among its frontier siblings plus one, plus the size of b's frontier: one
/// preorder pass. Returns (node, questions) for every askable node, in preorder. Equal to what
/// sessions ask (checked by a test), and what the benchmark uses on trees of millions of nodes.
pub fn top_down_questions(tree: &ExecutionTree) -> Vec<(NodeId, u64)> {
    let mut sealed = tree.clone();
    sealed.seal();
    let probe = Session::new(sealed, Box::new(super::TopDown), TrustPolicy::none());
    let set = probe.suspicious();
    let tree = set.tree();
    let mut out: Vec<(NodeId, u64)> = Vec::new();
    // Per askable ancestor on the current path (index 0: the run, never asked): the questions
    // to reach it and how many of its frontier nodes were met so far.
    let mut chain: Vec<(u64, u64)> = vec![(0, 0)];
    // DFS: (node, chain index of its nearest askable ancestor, whether leaving it).
    let mut stack = vec![(NodeId::ROOT, 0usize, false)];
    let mut pending: Vec<(usize, usize)> = Vec::new(); // (out index, chain index) of open nodes
    while let Some((x, anc, leaving)) = stack.pop() {
        if leaving {
            let (slot, own) = pending.pop().expect("pushed when entered");
            let (acc, frontier) = chain[own];
            out[slot].1 = acc + frontier;
            chain.truncate(own);
            continue;
        }
        let mut below = anc;
        if x != NodeId::ROOT && set.is_askable(x) {
            let pos = chain[anc].1;
            chain[anc].1 += 1;
            let acc = chain[anc].0 + pos + 1;
            chain.push((acc, 0));
            below = chain.len() - 1;
            pending.push((out.len(), below));
            out.push((x, 0));
            stack.push((x, anc, true));
        }
        let children: Vec<NodeId> = tree.children(x).collect();
        for &c in children.iter().rev() {
            stack.push((c, below, false));
        }
    }
    out
}
