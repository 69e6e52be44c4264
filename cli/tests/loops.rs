//! Loop and iteration nodes on real javac output: `tests/java17/Loops.java` recorded with the
//! agent, its tree read with `tree --json`.

mod common;

use std::collections::BTreeMap;

use common::{hindsight_json, javac, javac_mutant, record, repo};
use serde_json::Value;

/// For each method of `Loops`: each of its loop nodes (in order) as the iteration count, with
/// nested loops after their parent's.
fn loops_by_method(nodes: &[Value]) -> BTreeMap<String, Vec<usize>> {
    let kind = |n: &Value| n["kind"].as_str().unwrap().to_string();
    let by_id: BTreeMap<u64, &Value> = nodes
        .iter()
        .map(|n| (n["id"].as_u64().unwrap(), n))
        .collect();
    let mut out: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for n in nodes.iter().filter(|n| kind(n) == "loop") {
        let id = n["id"].as_u64().unwrap();
        let iterations: Vec<&Value> = nodes
            .iter()
            .filter(|c| c["parent"].as_u64() == Some(id))
            .collect();
        assert!(iterations.iter().all(|c| kind(c) == "iteration"), "{n}");
        // The loop's parent is its call or an iteration of an enclosing loop of the same call.
        let parent = by_id[&n["parent"].as_u64().unwrap()];
        assert!(
            ["routine", "iteration"].contains(&kind(parent).as_str()),
            "{parent}"
        );
        assert_eq!(parent["method"], n["method"]);
        let method = n["method"].as_str().unwrap().to_string();
        out.entry(method).or_default().push(iterations.len());
    }
    out
}

#[test]
fn javac_loops_become_loop_and_iteration_nodes() {
    let work = tempfile::tempdir().unwrap();
    let src = work.path().join("src");
    std::fs::create_dir(&src).unwrap();
    std::fs::copy(
        repo().join("tests/java17/Loops.java"),
        src.join("Loops.java"),
    )
    .unwrap();
    let classes = work.path().join("classes");
    javac(&src, &classes);
    let trace = work.path().join("loops.htrace");
    record(&classes, "Loops", &trace);
    let tree = hindsight_json(&["tree", "--json", trace.to_str().unwrap()]);
    let nodes = tree["nodes"].as_array().unwrap();
    let loops = loops_by_method(nodes);
    let expected: BTreeMap<String, Vec<usize>> = [
        ("Loops.forLoop", vec![4]),
        ("Loops.whileLoop", vec![9]),
        ("Loops.doWhile", vec![3]),
        // The outer loop, then the inner one at i = 1 and i = 2 (at i = 0 its test fails at
        // once and it calls nothing: no node).
        ("Loops.nested", vec![4, 2, 3]),
        ("Loops.breakContinue", vec![4]),
        // Found at the second element, then at the third.
        ("Loops.returnInside", vec![2, 3]),
        ("Loops.catchInside", vec![4]),
        ("Loops.throwsOut", vec![2]),
        ("Loops.overList", vec![3]),
    ]
    .into_iter()
    .map(|(m, v)| (m.to_string(), v))
    .collect();
    assert_eq!(loops, expected);
    // Calls made in an iteration hang below it: every call of twice, check and parseInt.
    for callee in ["Loops.twice", "Loops.check", "java.lang.Integer.parseInt"] {
        let calls: Vec<&Value> = nodes.iter().filter(|n| n["method"] == callee).collect();
        assert!(!calls.is_empty(), "{callee}");
        for c in calls {
            let parent = nodes.iter().find(|n| n["id"] == c["parent"]).unwrap();
            assert_eq!(parent["kind"], "iteration", "{callee}: {c}");
        }
    }
    // Everything completed, the iteration the exception ended included.
    assert!(nodes.iter().all(|n| n["complete"] == true));
}

/// The iterations of `for (String w : words)` read the words through javac's hidden array and
/// index, which the trace does not record (they have no name): an iteration that starts with
/// `w` at a word met again later reads, as far as the trace sees, what a later one read. The
/// reference oracle must not blame `main`'s loop for that; it finds the mutated method.
#[test]
fn the_reference_oracle_does_not_blame_a_for_each_loop_for_its_hidden_index() {
    let work = tempfile::tempdir().unwrap();
    let src = repo().join("tests/corpus/hashtable/src");
    let fixed = work.path().join("fixed");
    javac(&src, &fixed);
    let buggy = work.path().join("buggy");
    javac_mutant(
        &src,
        "hashtable",
        (
            "HashTable.java",
            "if (e.value >= min) {",
            "if (e.value > min) {",
        ),
        &work.path().join("buggy-src"),
        &buggy,
    );
    let (fixed_trace, buggy_trace) = (
        work.path().join("fixed.htrace"),
        work.path().join("buggy.htrace"),
    );
    record(&fixed, "hashtable.Main", &fixed_trace);
    record(&buggy, "hashtable.Main", &buggy_trace);
    let reference = format!("reference:{}", fixed_trace.display());
    for strategy in ["top-down", "divide-and-query"] {
        let report = hindsight_json(&[
            "debug",
            buggy_trace.to_str().unwrap(),
            "--oracle",
            &reference,
            "--strategy",
            strategy,
            "--json",
        ]);
        assert_eq!(report["result"], "bug", "{strategy}: {report:#}");
        assert_eq!(
            report["buggy_node"]["method"], "hashtable.HashTable.keysAtLeast",
            "{strategy}: {report:#}"
        );
    }
}

/// A run judged against itself has nothing wrong in it. javac's for-each keeps its array and
/// index in locals the trace does not record; an iteration's footprint counts which iteration
/// it is, so the word-count loop's last pass (the test that ends it, with `w` = "end") does not
/// match the earlier pass that started at the word "end", and no pass is judged wrong.
#[test]
fn no_loop_or_iteration_of_a_run_is_wrong_against_the_same_run() {
    use hindsight_core::ids::NodeId;
    use hindsight_core::oracle::{ReferenceOracle, TraceRun};
    use hindsight_core::session::Answer;

    let work = tempfile::tempdir().unwrap();
    let classes = work.path().join("classes");
    javac(&repo().join("tests/corpus/hashtable/src"), &classes);
    let trace = work.path().join("run.htrace");
    record(&classes, "hashtable.Main", &trace);
    let tree = hindsight_json(&["tree", "--json", trace.to_str().unwrap()]);
    let fragments: Vec<u64> = tree["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| ["loop", "iteration"].contains(&n["kind"].as_str().unwrap()))
        .map(|n| n["id"].as_u64().unwrap())
        .collect();
    assert!(fragments.len() > 50, "{}", fragments.len());
    let (run, same) = (
        TraceRun::open(&trace).unwrap(),
        TraceRun::open(&trace).unwrap(),
    );
    let mut oracle = ReferenceOracle::new(&run, &same);
    for id in fragments {
        let answer = oracle.answer(NodeId(id as u32)).unwrap();
        assert_ne!(answer, Answer::Invalid, "node {id}");
    }
}
