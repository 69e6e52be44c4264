//! `hindsight bench session`: how long each strategy takes to choose the next question after
//! an answer, on a random execution tree.

use anyhow::{bail, Result};
use hindsight_core::scratch::ScratchFiles;
use hindsight_core::session::{Session, TrustPolicy};
use hindsight_core::strategy::bench::{answer_latency, LatencyStats};
use hindsight_core::strategy::{create, eval, StrategyName};
use hindsight_core::tree::synthetic::{
    random_recording, random_tree, Event as SyntheticEvent, Rng, Shape,
};
use hindsight_core::tree::ExecutionTree;
use serde::Serialize;

use super::{parse_strategy, strategies_or_all};
use crate::output;

/// How long each strategy takes to choose the next question after an answer, on a random
/// execution tree (issue 4 item 5).
#[derive(clap::Args)]
pub struct SessionArgs {
    /// Calls in the random tree
    #[arg(long, default_value_t = 1_000_000)]
    pub calls: usize,
    /// Sessions per strategy, each with another buggy node
    #[arg(long, default_value_t = 5)]
    pub sessions: usize,
    /// The strategies to run, separated by commas (default: every available one)
    #[arg(long, value_name = "NAMES", value_delimiter = ',', value_parser = parse_strategy)]
    pub strategies: Vec<StrategyName>,
    /// Nodes the session keeps in memory (the persistence bound); the others are spilled to
    /// scratch files, as a live session beyond the bound does (default: all in memory)
    #[arg(long, value_name = "N")]
    pub resident_nodes: Option<usize>,
    /// Print one JSON object on stdout
    #[arg(long)]
    pub json: bool,
}

#[derive(Serialize)]
struct LatencyJson {
    strategy: StrategyName,
    questions_per_session: f64,
    step: LatencyStats,
    answer: LatencyStats,
}

#[derive(Serialize)]
struct SessionJson {
    nodes: usize,
    sessions: usize,
    strategies: Vec<LatencyJson>,
}

fn ms(d: std::time::Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

pub(super) fn run(args: SessionArgs) -> Result<u8> {
    if args.calls == 0 || args.sessions == 0 {
        bail!("--calls and --sessions must be at least 1");
    }
    let strategies = strategies_or_all(&args.strategies);
    let shape = Shape {
        calls: args.calls,
        methods: 400,
        external: 0.1,
        coverage: true,
        threads: 1,
        ..Shape::default()
    };
    let tree = match args.resident_nodes {
        None => random_tree(42, &shape),
        Some(n) => {
            let mut tree = ExecutionTree::new();
            tree.set_persistence_bound(Some(ScratchFiles::bound(n)));
            random_recording(42, &shape, |e| match e {
                SyntheticEvent::Header(h) => {
                    let _ = tree.push(&h);
                }
                SyntheticEvent::Coverage(node, kind, entities) => {
                    let _ = tree.set_coverage(node, kind, &entities);
                }
            });
            tree.seal();
            tree
        }
    };
    let probe = Session::new(
        tree.clone(),
        create(StrategyName::TopDown, None)?,
        TrustPolicy::none(),
    );
    let askable = eval::askable_nodes(&probe);
    drop(probe);
    if askable.is_empty() {
        bail!("the random tree has no askable node; give more --calls");
    }
    let mut rng = Rng::new(7);
    let buggy: Vec<_> = (0..args.sessions)
        .map(|_| askable[rng.below(askable.len() as u64) as usize])
        .collect();
    if !args.json {
        println!(
            "random tree of {} nodes, {} sessions per strategy (each with another buggy node)",
            tree.len(),
            args.sessions
        );
        println!(
            "{:<18} {:>9} {:>11} {:>11} {:>11} {:>12} {:>12}",
            "strategy", "questions", "step med", "step p95", "step max", "answer med", "answer p95"
        );
    }
    let mut rows = Vec::new();
    for s in strategies {
        let (step, answer) = answer_latency(tree.clone(), s, None, &buggy)?;
        let per_session = step.questions as f64 / args.sessions as f64;
        if !args.json {
            println!(
                "{:<18} {:>9.1} {:>8.3} ms {:>8.3} ms {:>8.3} ms {:>9.3} ms {:>9.3} ms",
                s.as_str(),
                per_session,
                ms(step.median),
                ms(step.p95),
                ms(step.max),
                ms(answer.median),
                ms(answer.p95)
            );
        }
        rows.push(LatencyJson {
            strategy: s,
            questions_per_session: per_session,
            step,
            answer,
        });
    }
    if args.json {
        output::print_json(&SessionJson {
            nodes: tree.len(),
            sessions: args.sessions,
            strategies: rows,
        })?;
    }
    Ok(0)
}
