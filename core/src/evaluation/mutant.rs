//! The sessions of one mutant: its recorded run debugged by each strategy, the correct
//! program's run answering as the reference oracle; and the balanced-ET method on a run's tree.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::EvaluationError;
use crate::debugger::{DebugOptions, Debugger, Report};
use crate::oracle::{ReferenceOracle, ReplayStats, Replayer, TraceRun};
use crate::session::{Answer, Step, TrustPolicy};
use crate::strategy::eval::{askable_nodes, average_questions, Evaluation};
use crate::strategy::StrategyName;
use crate::tree::{CoverageKind, ExecutionTree, ForestOptions};

/// One session of one strategy on one mutant.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StrategyRun {
    pub strategy: StrategyName,
    /// Questions the oracle answered.
    pub questions: usize,
    /// `bug`, `no-bug` or `undecided`.
    pub result: String,
    /// The reported buggy node's method, `pkg.Class.method`; for an `undecided` verdict, the
    /// method of every candidate call when they all share one.
    pub reported_method: Option<String>,
    /// Whether the reported method is the mutated one.
    pub found: bool,
    /// For the coverage strategies: whether any node of the tree has coverage entities of the
    /// strategy's kind (without them the strategy cannot weigh and degenerates).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub coverage: Option<bool>,
    /// The questions in order: the asked node's method and the oracle's answer.
    pub dialogue: Vec<(String, Answer)>,
    /// How long the oracle took to answer each question, in milliseconds (an oracle shared by
    /// several strategies answers the later ones from memory).
    #[serde(default)]
    pub answer_ms: Vec<f64>,
}

impl StrategyRun {
    /// The questions the oracle answered "don't know".
    pub fn dont_know(&self) -> usize {
        self.dialogue
            .iter()
            .filter(|(_, a)| *a == Answer::DontKnow)
            .count()
    }
}

/// What one mutant's sessions found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MutantDebug {
    /// Calls in the mutant's execution tree (JDK calls included).
    pub calls: usize,
    /// The calls a strategy may ask about (not trusted, complete).
    pub askable: usize,
    pub runs: Vec<StrategyRun>,
    /// What the reference oracle's rule 3 did, when the correct program could be replayed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replay: Option<ReplayStats>,
}

/// Whether any node of `tree` covers an entity of `kind`.
pub fn has_coverage(tree: &ExecutionTree, kind: CoverageKind) -> bool {
    tree.iter().any(|x| tree.has_node_coverage(x, kind))
}

/// The method a verdict names: the buggy node's, or, when don't-know answers leave several
/// candidate calls, their method if they all share one (the call is then uncertain, the method
/// is not: the reference oracle cannot judge calls of the mutated method in states the correct
/// program never reached, so every candidate is such a call).
fn reported_method(report: &Report) -> Option<String> {
    match &report.buggy_node {
        Some(b) => Some(b.method.clone()),
        None => {
            let first = report.candidates.first()?.method.clone();
            report
                .candidates
                .iter()
                .all(|c| c.method == first)
                .then_some(first)
        }
    }
}

/// What the sessions are asked over: loops and iterations (`--no-loops` leaves them out) and
/// the execution forest (`--no-balance`: the plain tree).
#[derive(Clone, Copy, Debug)]
pub struct TreeShape {
    pub loops: bool,
    pub forest: ForestOptions,
}

impl Default for TreeShape {
    fn default() -> Self {
        TreeShape {
            loops: true,
            forest: ForestOptions::ON,
        }
    }
}

/// Debugs the run recorded in `buggy` with each strategy, the run in `reference` answering
/// (with rule 3 when `replayer` runs the correct program); `mutated` is the mutated method,
/// `pkg.Class.method`. Overloads share that name, so the comparison ignores descriptors, as
/// the corpus does.
pub fn debug_mutant(
    buggy: &Path,
    reference: &Path,
    strategies: &[StrategyName],
    mutated: &str,
    replayer: Option<&mut dyn Replayer>,
    shape: TreeShape,
) -> Result<MutantDebug, EvaluationError> {
    let buggy_run = TraceRun::open(buggy)?;
    let reference_run = TraceRun::open(reference)?;
    let replaying = replayer.is_some();
    // The oracle's answers do not depend on the strategy: one oracle memoises them for all.
    let mut oracle = ReferenceOracle::new(&buggy_run, &reference_run);
    if let Some(r) = replayer {
        oracle = oracle.with_replayer(r);
    }
    let mut runs = Vec::with_capacity(strategies.len());
    let (mut calls, mut askable) = (0, 0);
    for &strategy in strategies {
        let options = DebugOptions {
            strategy,
            loops: shape.loops,
            forest: shape.forest,
            ..Default::default()
        };
        let mut debugger = Debugger::open(buggy, options)?;
        let nodes = debugger.session().tree().len();
        let tree = debugger.session().tree();
        calls = tree.iter().filter(|&x| tree.kind(x).is_call()).count();
        askable = askable_nodes(debugger.session()).len();
        let coverage = strategy
            .coverage_kind()
            .map(|k| has_coverage(debugger.session().tree(), k));
        // Every answer removes a node or marks a don't-know: more questions than this is a loop.
        let limit = 2 * nodes + 10;
        let mut dialogue = Vec::new();
        let mut answer_ms = Vec::new();
        let verdict = loop {
            match debugger.step()? {
                Step::Ask(node) => {
                    if dialogue.len() > limit {
                        return Err(EvaluationError::TooManyQuestions {
                            strategy,
                            questions: dialogue.len(),
                            nodes,
                        });
                    }
                    let started = std::time::Instant::now();
                    let tree = debugger.session().tree();
                    let answer =
                        crate::oracle::forest::judge(tree, node, &mut |c| oracle.answer(c))?;
                    answer_ms.push(started.elapsed().as_secs_f64() * 1e3);
                    debugger.answer(node, answer)?;
                    dialogue.push((debugger.method_of(node)?.unwrap_or_default(), answer));
                }
                Step::Done(verdict) => break verdict,
                Step::Waiting => return Err(EvaluationError::Waiting),
            }
        };
        let report = debugger.report(&verdict)?;
        let reported_method = reported_method(&report);
        runs.push(StrategyRun {
            strategy,
            questions: dialogue.len(),
            result: report.result.to_string(),
            found: reported_method.as_deref() == Some(mutated),
            reported_method,
            coverage,
            dialogue,
            answer_ms,
        });
    }
    Ok(MutantDebug {
        calls,
        askable,
        replay: replaying.then(|| oracle.replay_stats().clone()),
        runs,
    })
}

/// The balanced-ET paper's method on the tree of the run in `trace`: for each strategy, every
/// askable node taken in turn as the buggy one, questions averaged. Also says whether any node of
/// the tree has coverage entities (of either kind). Without `loops`, loop and iteration
/// nodes are looked through (`--no-loops`).
pub fn balanced(
    trace: &Path,
    strategies: &[StrategyName],
    shape: TreeShape,
) -> Result<(Vec<Evaluation>, bool), EvaluationError> {
    let options = DebugOptions {
        all_coverage: true,
        loops: shape.loops,
        forest: shape.forest,
        ..Default::default()
    };
    let debugger = Debugger::open(trace, options)?;
    let tree = debugger.session().tree();
    let coverage =
        has_coverage(tree, CoverageKind::Edge) || has_coverage(tree, CoverageKind::DefUse);
    let evaluations = strategies
        .iter()
        .map(|&s| {
            Ok(average_questions(
                tree,
                s,
                None,
                options_policy(shape.loops),
            )?)
        })
        .collect::<Result<_, EvaluationError>>()?;
    Ok((evaluations, coverage))
}

fn options_policy(loops: bool) -> TrustPolicy {
    if loops {
        TrustPolicy::none()
    } else {
        TrustPolicy::none().without_loops()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::debugger::BuggyNode;
    use crate::ids::NodeId;

    fn node(id: u32, method: &str) -> BuggyNode {
        BuggyNode {
            id: NodeId(id),
            kind: crate::tree::NodeKind::Routine,
            method: method.into(),
            file: None,
            lines: Vec::new(),
        }
    }

    #[test]
    fn a_bug_verdict_names_its_node_s_method() {
        let report = Report {
            result: "bug",
            buggy_node: Some(node(3, "p.A.f")),
            candidates: Vec::new(),
            traceable: None,
        };
        assert_eq!(reported_method(&report).as_deref(), Some("p.A.f"));
    }

    #[test]
    fn undecided_candidates_name_a_method_only_when_they_share_it() {
        let same = Report {
            result: "undecided",
            buggy_node: None,
            candidates: vec![node(3, "p.A.f"), node(5, "p.A.f")],
            traceable: None,
        };
        assert_eq!(reported_method(&same).as_deref(), Some("p.A.f"));
        let mixed = Report {
            result: "undecided",
            buggy_node: None,
            candidates: vec![node(3, "p.A.f"), node(5, "p.A.g")],
            traceable: None,
        };
        assert_eq!(reported_method(&mixed), None);
        let none = Report {
            result: "no-bug",
            buggy_node: None,
            candidates: Vec::new(),
            traceable: None,
        };
        assert_eq!(reported_method(&none), None);
    }
}
