//! Answer latency: how long a strategy takes to choose the next question after each answer.
//! IO-free so that a benchmark target or a CLI command can print the figures.

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::eval::{EvalError, SimulatedOracle};
use super::{create, StrategyName};
use crate::ids::NodeId;
use crate::session::{Session, Step, TrustPolicy};
use crate::tree::ExecutionTree;

/// Time to choose each question of one or more sessions.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LatencyStats {
    pub strategy: StrategyName,
    /// Number of timed choices (one per question, plus the final verdict).
    pub samples: usize,
    pub median: Duration,
    pub p95: Duration,
    pub max: Duration,
    /// Questions asked in total.
    pub questions: usize,
}

impl LatencyStats {
    fn from_samples(strategy: StrategyName, mut samples: Vec<Duration>, questions: usize) -> Self {
        samples.sort_unstable();
        let at = |q: f64| {
            samples
                .get(((samples.len() as f64 - 1.0) * q).round() as usize)
                .copied()
                .unwrap_or_default()
        };
        LatencyStats {
            strategy,
            samples: samples.len(),
            median: at(0.5),
            p95: at(0.95),
            max: samples.last().copied().unwrap_or_default(),
            questions,
        }
    }
}

/// Runs one session per buggy node on `tree`, answered by [`SimulatedOracle`], and returns two
/// distributions: the time of each `step` (choosing the next question, or the verdict) and the
/// time of each `answer` (applying it: the incremental weight updates).
pub fn answer_latency(
    tree: ExecutionTree,
    strategy: StrategyName,
    p: Option<f64>,
    buggy: &[NodeId],
) -> Result<(LatencyStats, LatencyStats), EvalError> {
    let mut session = Session::new(tree, create(strategy, p)?, TrustPolicy::none());
    let mut choose = Vec::new();
    let mut update = Vec::new();
    let mut questions = 0;
    for &b in buggy {
        session.reset();
        let oracle = SimulatedOracle { buggy: b };
        loop {
            let t = Instant::now();
            let step = session.step();
            choose.push(t.elapsed());
            match step {
                Step::Ask(node) => {
                    questions += 1;
                    let answer = oracle.answer(session.tree(), node);
                    let t = Instant::now();
                    session.answer(node, answer)?;
                    update.push(t.elapsed());
                }
                Step::Waiting => return Err(EvalError::Waiting),
                Step::Done(_) => break,
            }
        }
    }
    Ok((
        LatencyStats::from_samples(strategy, choose, questions),
        LatencyStats::from_samples(strategy, update, questions),
    ))
}
