//! `hindsight bench forest`: the balanced-ET paper's Table 1 for recorded traces: the tree of
//! calls, what the execution forest inserted (loop and iteration nodes, then balancing's
//! projected and collapsed nodes), how long balancing took, and the questions before and after
//! (every call taken as the buggy one, sampled with a fixed seed above `SAMPLE` calls).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result};
use hindsight_core::capture::cpu_ms;
use hindsight_core::debugger::{DebugOptions, Debugger};
use hindsight_core::ids::NodeId;
use hindsight_core::session::{Session, TrustPolicy};
use hindsight_core::strategy::{create, eval, StrategyName};
use hindsight_core::tree::synthetic::Rng;
use hindsight_core::tree::{forest, ExecutionTree, ForestOptions, NodeKind};
use serde::Serialize;

use crate::output;

/// Experiments per trace at most: above, a sample drawn with a fixed seed.
const SAMPLE: usize = 10_000;

/// Balance each trace's execution tree into an execution forest and compare the questions
/// (the balanced-ET paper's Table 1).
#[derive(clap::Args)]
pub struct ForestArgs {
    /// Traces written by `hindsight record`
    #[arg(value_name = "TRACE", required = true)]
    pub traces: Vec<PathBuf>,
    /// The strategies compared, separated by commas
    #[arg(long, value_name = "NAMES", value_delimiter = ',',
          default_values_t = [StrategyName::TopDown, StrategyName::DivideAndQuery, StrategyName::Optimal])]
    pub strategies: Vec<StrategyName>,
    /// The most calls one collapsed or projected node may stand for
    #[arg(long, value_name = "N")]
    pub max_chain: Option<u32>,
    /// A forest without loop and iteration nodes (balancing the tree of calls alone, as the
    /// balanced-ET paper measured)
    #[arg(long)]
    pub no_loops: bool,
    /// Experiments per trace at most (a sample with a fixed seed above it)
    #[arg(long, value_name = "N", default_value_t = SAMPLE)]
    pub sample: usize,
    /// Print one JSON object: {"traces": [{"trace", "nodes", "inserted": {"projected",
    /// "collapsed", "loops", "iterations"}, "balance_ms", "balance_cpu_ms", "questions": {STRATEGY: {"tree",
    /// "forest", ...}}}]}
    #[arg(long)]
    pub json: bool,
}

#[derive(Serialize)]
struct Inserted {
    projected: usize,
    collapsed: usize,
    /// Loop and iteration nodes (none with `--no-loops`).
    #[serde(skip_serializing_if = "Option::is_none")]
    loops: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    iterations: Option<usize>,
}

#[derive(Serialize)]
struct Questions {
    tree: f64,
    forest: f64,
    /// The most questions one experiment took, on the tree and on the forest.
    worst_tree: u64,
    worst_forest: u64,
    /// Experiments: every call for top-down (counted in one pass), a sample for the others.
    experiments: usize,
    /// Experiments whose session on the forest named the buggy call's node.
    found: usize,
}

#[derive(Serialize)]
struct TraceRow {
    trace: String,
    /// Nodes of the execution tree (calls, root and thread nodes excluded).
    nodes: usize,
    inserted: Inserted,
    /// Calls placed under a projected node, and calls absorbed into collapsed nodes (with
    /// each collapsed node's first call).
    placed: Inserted,
    balance_ms: f64,
    /// The process's CPU time while balancing (10 ms ticks): what the wall time is on an idle
    /// machine, and what it is not on a loaded one.
    #[serde(skip_serializing_if = "Option::is_none")]
    balance_cpu_ms: Option<u64>,
    questions: BTreeMap<String, Questions>,
}

pub fn run(args: ForestArgs) -> Result<u8> {
    let mut rows = Vec::new();
    for trace in &args.traces {
        // The tree of calls (what the questions were asked over before the forest), and the
        // tree the forest is balanced from: with loop and iteration nodes unless --no-loops.
        let tree_of = |loops: bool| -> Result<ExecutionTree> {
            let options = DebugOptions {
                forest: ForestOptions::OFF,
                loops,
                resident_nodes: None,
                ..Default::default()
            };
            let debugger = Debugger::open(trace, options)
                .with_context(|| format!("reading {}", trace.display()))?;
            Ok(debugger.session().tree().clone())
        };
        let plain = tree_of(false)?;
        let base = if args.no_loops {
            plain.clone()
        } else {
            tree_of(true)?
        };
        rows.push(measure(trace, &plain, base, &args)?);
        if !args.json {
            print_row(rows.last().expect("just pushed"));
        }
    }
    if args.json {
        output::print_json(&serde_json::json!({ "traces": rows }))?;
    }
    Ok(0)
}

fn measure(
    trace: &std::path::Path,
    plain: &ExecutionTree,
    base: ExecutionTree,
    args: &ForestArgs,
) -> Result<TraceRow> {
    let mut forest_tree = base;
    forest_tree.set_forest_options(ForestOptions {
        balance: true,
        max_chain: args.max_chain.unwrap_or(u32::MAX),
    });
    let (t, cpu) = (Instant::now(), cpu_ms());
    forest::balance_all(&mut forest_tree);
    let balance_ms = t.elapsed().as_secs_f64() * 1e3;
    let balance_cpu_ms = cpu.zip(cpu_ms()).map(|(a, b)| b.saturating_sub(a));
    let count = |kind: NodeKind| {
        forest_tree
            .iter()
            .filter(|&x| forest_tree.kind(x) == kind)
            .count()
    };
    let mut inserted = Inserted {
        projected: forest_tree.forest_bound(),
        collapsed: 0,
        loops: (!args.no_loops).then(|| count(NodeKind::Loop)),
        iterations: (!args.no_loops).then(|| count(NodeKind::Iteration)),
    };
    let mut placed = Inserted {
        projected: 0,
        collapsed: 0,
        loops: None,
        iterations: None,
    };
    for x in forest_tree.iter() {
        match forest_tree.kind(x) {
            NodeKind::Collapsed => {
                inserted.collapsed += 1;
                placed.collapsed += forest_tree.calls_in(x).len();
            }
            NodeKind::Projected => placed.projected += forest_tree.children(x).count(),
            _ => {}
        }
    }
    let nodes = plain.iter().filter(|&x| plain.kind(x).is_call()).count();
    // The experiments: every call the plain session can ask, each taken as the buggy one (on
    // the forest: the call, or the collapsed node holding it; the loops and iterations around
    // it are its ancestors, so invalid).
    let mut probe = plain.clone();
    probe.seal();
    let session = Session::new(
        probe,
        create(StrategyName::TopDown, None)?,
        TrustPolicy::none(),
    );
    let all: Vec<NodeId> = eval::askable_nodes(&session);
    drop(session);
    let mut buggy = all.clone();
    if buggy.len() > args.sample {
        let mut rng = Rng::new(13);
        for i in 0..args.sample {
            let j = i + rng.below((buggy.len() - i) as u64) as usize;
            buggy.swap(i, j);
        }
        buggy.truncate(args.sample);
    }
    let mut questions = BTreeMap::new();
    for &s in &args.strategies {
        let experiments = if s == StrategyName::TopDown {
            &all
        } else {
            &buggy
        };
        let q = eval::forest_questions(plain, &forest_tree, s, experiments)?;
        questions.insert(
            s.as_str().to_string(),
            Questions {
                tree: q.tree,
                forest: q.forest,
                worst_tree: q.worst_tree,
                worst_forest: q.worst_forest,
                experiments: experiments.len(),
                found: q.found,
            },
        );
    }
    Ok(TraceRow {
        trace: trace.display().to_string(),
        nodes,
        inserted,
        placed,
        balance_ms,
        balance_cpu_ms,
        questions,
    })
}

fn print_row(r: &TraceRow) {
    let loops = match (r.inserted.loops, r.inserted.iterations) {
        (Some(l), Some(i)) => format!(", {l} loops / {i} iterations"),
        _ => String::new(),
    };
    let cpu = r
        .balance_cpu_ms
        .map(|c| format!(" ({c} ms CPU)"))
        .unwrap_or_default();
    println!(
        "{}: {} calls, inserted {} projected / {} collapsed{loops}, placed {} / {} calls, balanced in {:.1} ms{cpu}",
        r.trace,
        r.nodes,
        r.inserted.projected,
        r.inserted.collapsed,
        r.placed.projected,
        r.placed.collapsed,
        r.balance_ms
    );
    for (name, q) in &r.questions {
        let change = if q.tree > 0.0 {
            100.0 * (q.tree - q.forest) / q.tree
        } else {
            0.0
        };
        println!(
            "  {name:<18} {:>8.2} questions on the tree, {:>8.2} on the forest ({change:+.1} % fewer; worst {} / {}; {} experiments, {} found)",
            q.tree, q.forest, q.worst_tree, q.worst_forest, q.experiments, q.found
        );
    }
}
