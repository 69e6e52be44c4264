//! Answer latency of every strategy on random execution trees of 10^6 nodes.
//!
//! Run: `cargo bench -p hindsight-core --bench strategies` (optionally `-- CALLS SESSIONS
//! [STRATEGY...]`, the strategies by name; all by default).
//! Prints, per strategy, the median / p95 / max time to choose the next question (`step`) and
//! to apply an answer (`answer`, the incremental weight updates), over SESSIONS sessions, each
//! with a different buggy node answered by the simulated oracle. Then, on smaller random trees,
//! the balanced-ET paper's evaluation: every node taken as the buggy one, questions averaged.

use std::time::{Duration, Instant};

use hindsight_core::capture::cpu_ms;
use hindsight_core::session::{Session, TrustPolicy};
use hindsight_core::strategy::eval::average_questions;
use hindsight_core::strategy::{bench::answer_latency, create, eval, StrategyName};
use hindsight_core::tree::forest;
use hindsight_core::tree::synthetic::{random_tree, Rng, Shape};
use hindsight_core::tree::ForestOptions;

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let calls = args.first().copied().unwrap_or(1_000_000);
    let sessions = args.get(1).copied().unwrap_or(5);
    let named: Vec<StrategyName> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let strategies = if named.is_empty() {
        StrategyName::ALL.to_vec()
    } else {
        named
    };
    let shape = Shape {
        calls,
        methods: 400,
        external: 0.1,
        coverage: true,
        threads: 1,
        ..Shape::default()
    };
    let t = Instant::now();
    let tree = random_tree(42, &shape);
    println!(
        "tree: {} nodes, built in {:.0} ms",
        tree.len(),
        ms(t.elapsed())
    );
    // Shape: depth and fan-out, so that readers can judge how realistic the tree is.
    let (mut max_depth, mut depth_sum, mut max_fan) = (0usize, 0usize, 0usize);
    let mut depth = vec![0usize; tree.id_bound()];
    for x in tree.iter() {
        let d = tree.parent(x).map_or(0, |p| depth[p.0 as usize] + 1);
        depth[x.0 as usize] = d;
        max_depth = max_depth.max(d);
        depth_sum += d;
        max_fan = max_fan.max(tree.children(x).count());
    }
    println!(
        "shape: mean depth {:.1}, max depth {}, max fan-out {}",
        depth_sum as f64 / tree.len() as f64,
        max_depth,
        max_fan
    );
    let probe = Session::new(
        tree.clone(),
        create(StrategyName::TopDown, None).expect("top-down exists"),
        TrustPolicy::none(),
    );
    let askable = eval::askable_nodes(&probe);
    drop(probe);
    let mut rng = Rng::new(7);
    let buggy: Vec<_> = (0..sessions)
        .map(|_| askable[rng.below(askable.len() as u64) as usize])
        .collect();
    first_questions(&tree, &strategies);
    println!(
        "{:<18} {:>9} {:>11} {:>11} {:>11} {:>12} {:>12}",
        "strategy", "questions", "step med", "step p95", "step max", "answer med", "answer p95"
    );
    for &name in &strategies {
        match answer_latency(tree.clone(), name, None, &buggy) {
            Ok((step, answer)) => println!(
                "{:<18} {:>9.1} {:>8.3} ms {:>8.3} ms {:>8.3} ms {:>9.3} ms {:>9.3} ms",
                name.as_str(),
                step.questions as f64 / sessions as f64,
                ms(step.median),
                ms(step.p95),
                ms(step.max),
                ms(answer.median),
                ms(answer.p95),
            ),
            Err(e) => println!("{name}: {e}"),
        }
    }

    // The execution forest: the same shape with chains (a call repeats its previous sibling's
    // method as a link with probability 0.5), balanced whole, then the sessions on it.
    let chained = Shape {
        chains: 0.5,
        ..shape.clone()
    };
    let plain = random_tree(42, &chained);
    let mut forest = plain.clone();
    forest.set_forest_options(ForestOptions::ON);
    let t = Instant::now();
    let reshape = forest::balance_all(&mut forest);
    println!(
        "\nforest of a tree of {} nodes with chains: balanced in {:.0} ms ({} collapsed, {} projected nodes, {} calls absorbed)",
        plain.len(),
        ms(t.elapsed()),
        reshape.collapsed.len(),
        reshape.projected.len(),
        reshape.absorbed.len()
    );
    first_questions(&forest, &strategies);
    let probe = Session::new(
        forest.clone(),
        create(StrategyName::TopDown, None).expect("top-down exists"),
        TrustPolicy::none(),
    );
    let askable = eval::askable_nodes(&probe);
    drop(probe);
    let buggy: Vec<_> = (0..sessions)
        .map(|_| askable[rng.below(askable.len() as u64) as usize])
        .collect();
    for &name in &strategies {
        match answer_latency(forest.clone(), name, None, &buggy) {
            Ok((step, answer)) => println!(
                "{:<18} {:>9.1} {:>8.3} ms {:>8.3} ms {:>8.3} ms {:>9.3} ms {:>9.3} ms",
                name.as_str(),
                step.questions as f64 / sessions as f64,
                ms(step.median),
                ms(step.p95),
                ms(step.max),
                ms(answer.median),
                ms(answer.p95),
            ),
            Err(e) => println!("{name}: {e}"),
        }
    }

    let small = Shape {
        calls: 2_000,
        ..shape
    };
    println!("\naverage questions, every node taken as the buggy one (balanced-ET method), random trees of {} calls:", small.calls);
    print!("{:<18}", "strategy");
    let seeds = [1u64, 2, 3];
    for seed in seeds {
        print!(" {:>9}", format!("seed {seed}"));
    }
    println!();
    let trees: Vec<_> = seeds.iter().map(|&s| random_tree(s, &small)).collect();
    for &name in &strategies {
        print!("{:<18}", name.as_str());
        for tree in &trees {
            match average_questions(tree, name, None, TrustPolicy::none()) {
                Ok(e) => print!(" {:>9.2}", e.average_questions),
                Err(e) => print!(" {e}"),
            }
        }
        println!();
    }
}

/// The time to the first question of a fresh session, per strategy, wall and CPU (the machine
/// is shared): what a strategy that works over the whole suspicious set (`optimal` ranks it)
/// costs before its first question.
fn first_questions(tree: &hindsight_core::tree::ExecutionTree, strategies: &[StrategyName]) {
    let times: Vec<String> = strategies
        .iter()
        .map(|&name| {
            let mut session = Session::new(
                tree.clone(),
                create(name, None).expect("every strategy exists"),
                TrustPolicy::none(),
            );
            let (t, cpu) = (Instant::now(), cpu_ms());
            session.step();
            let cpu = cpu_ms()
                .zip(cpu)
                .map_or(String::new(), |(b, a)| format!(" ({} ms CPU)", b - a));
            format!("{} {:.1} ms{cpu}", name.as_str(), ms(t.elapsed()))
        })
        .collect();
    println!("first question: {}", times.join(", "));
}
