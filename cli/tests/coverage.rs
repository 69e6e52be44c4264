//! Coverage from a real recording: the agent's block tables and BLOCK events give the calls of
//! the jhyde MergeSort (tests/programs/mergesort, buggy) their CFG edges.

mod common;

use common::{javac, record, repo};
use hindsight_core::debugger::{DebugOptions, Debugger};
use hindsight_core::tree::subtree_weights;
use hindsight_core::tree::CoverageKind;

#[test]
fn mergesort_calls_cover_edges() {
    let dir = repo().join("tests/programs/mergesort");
    let work = tempfile::tempdir().unwrap();
    let classes = work.path().join("buggy");
    javac(&dir.join("buggy"), &classes);
    let trace = work.path().join("buggy.htrace");
    record(&classes, "mergesort.MergeSort", &trace);
    // A session keeps the coverage its strategy weighs by.
    let options = DebugOptions {
        strategy: hindsight_core::strategy::StrategyName::EdgeCoverage,
        ..Default::default()
    };
    let debugger = Debugger::open(&trace, options).unwrap();
    let tree = debugger.session().tree();
    let root = hindsight_core::ids::NodeId::ROOT;
    let weights: std::collections::HashMap<_, _> = subtree_weights(tree, root, CoverageKind::Edge)
        .into_iter()
        .collect();
    // main -> sort -> distribute, merge, merge, distribute, merge (the paper's figure 1).
    let main = tree
        .children(tree.children(root).next().unwrap())
        .next()
        .unwrap();
    let sort = tree.children(main).next().unwrap();
    // sort's calls, through the loop and iterations they run in.
    let mut calls = Vec::new();
    let mut todo: Vec<_> = tree.children(sort).collect();
    todo.reverse();
    while let Some(x) = todo.pop() {
        if tree.kind(x).is_loop() {
            let mut c: Vec<_> = tree.children(x).collect();
            c.reverse();
            todo.extend(c);
        } else {
            calls.push(x);
        }
    }
    assert_eq!(calls.len(), 5);
    let w: Vec<u64> = calls.iter().map(|c| weights[c]).collect();
    eprintln!(
        "main {} sort {} calls {w:?}",
        weights[&main], weights[&sort]
    );
    // Every call covered edges of its own; the calls into the JDK (toString, println) none.
    assert!(w.iter().all(|&x| x > 0), "{w:?}");
    for jdk in tree.children(main).skip(1) {
        assert_eq!(weights[&jdk], 0);
    }
    // The last merge also runs the loop that copies a's rest: it covers more than the others.
    assert!(w[4] > w[1] && w[4] > w[2], "{w:?}");
    // A parent weighs its own edges plus its children's.
    assert!(weights[&sort] > w.iter().sum::<u64>());
    assert!(weights[&main] > weights[&sort]);
}
