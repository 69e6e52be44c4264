//! What a UI reads of every kind of node (`inspect`, `view`): the kind and span of a node of the
//! execution forest, its state and its events. Over a hand-made run whose main calls
//! `acc.inc()`, `acc.dbl()` (a chain: the second starts where the first left `acc`), `b.inc()`
//! and `c.inc()`: the forest projects the chain of two under a new node. Loops over the paper's
//! `sumNumbers` (`trace::recorder::tests_loops`).

use super::*;
use crate::omniscient::{frame_state, node_state, RenderLimits};
use crate::trace::recorder::tests_loops::{record_stream, sum_numbers};
use crate::trace::synthetic::StreamBuilder;
use crate::trace::wire::Value;
use crate::tree::{NodeKind, FOREST_BASE};

/// Node ids of `chain_run`: 2 main, 3 `acc.inc()`, 4 `acc.dbl()`, 5 and 6 the other `inc`s;
/// the projected node over 3 and 4.
const MAIN: NodeId = NodeId(2);
const CHAIN: NodeId = NodeId(FOREST_BASE);

fn chain_run() -> Vec<u8> {
    let mut s = StreamBuilder::new();
    let app = s.class("Main", true);
    let acc = s.class("Acc", true);
    let n = s.field(acc, "n", "I", false);
    let main = s.method(app, "main", "([Ljava/lang/String;)V", true, &["args"]);
    let inc = s.method(acc, "inc", "()V", false, &["this"]);
    let dbl = s.method(acc, "dbl", "()I", false, &["this"]);
    let t = s.thread("main");
    s.call(t, main, &[Value::Null]);
    let objects = [
        s.new_object(t, acc),
        s.new_object(t, acc),
        s.new_object(t, acc),
    ];
    s.call(t, inc, &[Value::Object(objects[0])]);
    s.field_write(t, objects[0], n, Value::Int(1));
    s.ret(t, Value::Void);
    s.call(t, dbl, &[Value::Object(objects[0])]);
    s.field_write(t, objects[0], n, Value::Int(2));
    s.ret(t, Value::Int(2));
    for &o in &objects[1..] {
        s.call(t, inc, &[Value::Object(o)]);
        s.field_write(t, o, n, Value::Int(1));
        s.ret(t, Value::Void);
    }
    s.ret(t, Value::Void);
    s.end(0)
}

fn open(options: DebugOptions) -> (tempfile::TempDir, Debugger) {
    let (dir, _reader, _) = record_stream(&chain_run());
    let d = Debugger::open(&dir.path().join("run.htrace"), options).unwrap();
    (dir, d)
}

#[test]
fn every_node_names_its_kind_and_a_forest_node_spans_its_calls() {
    let (_dir, mut d) = open(DebugOptions::default());
    let children: Vec<NodeId> = d.session().tree().children(MAIN).collect();
    assert_eq!(
        children,
        [CHAIN, NodeId(5), NodeId(6)],
        "the chain projected"
    );
    let chain = d.tree_node(CHAIN).unwrap();
    assert_eq!(chain.kind, NodeKind::Projected);
    assert!(
        chain.label.starts_with("2 calls Acc.inc, Acc.dbl"),
        "{}",
        chain.label
    );
    let (first, last) = (
        d.tree_node(NodeId(3)).unwrap(),
        d.tree_node(NodeId(4)).unwrap(),
    );
    assert_eq!(first.kind, NodeKind::Routine);
    assert_eq!((chain.entry, chain.exit), (first.entry, last.exit));
    assert!(chain.entry < chain.exit);
    assert_eq!(d.tree_node(NodeId(0)).unwrap().kind, NodeKind::Root);
    assert_eq!(d.tree_node(NodeId(1)).unwrap().kind, NodeKind::Thread);
    assert_eq!(
        d.path_to(CHAIN).unwrap().last().map(|s| s.id),
        Some(CHAIN.0)
    );
    // Loops and iterations, over sumNumbers.
    let (dir, _reader, _) = record_stream(&sum_numbers(1));
    let mut d = Debugger::open(&dir.path().join("run.htrace"), DebugOptions::default()).unwrap();
    assert_eq!(d.tree_node(NodeId(4)).unwrap().kind, NodeKind::Loop);
    assert_eq!(d.tree_node(NodeId(7)).unwrap().kind, NodeKind::Iteration);
}

#[test]
fn a_chain_shows_what_it_works_on_from_its_first_entry_to_its_last_exit() {
    let (_dir, mut d) = open(DebugOptions::default());
    let s = d.node_state(CHAIN, None, &[]).unwrap();
    assert_eq!(s.node, CHAIN);
    assert_eq!(
        s.result.as_deref(),
        Some("2"),
        "dbl's result; inc returns nothing"
    );
    let names: Vec<&str> = s.variables.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(names, ["this"], "the calls' receiver");
    let this = &s.variables[0];
    assert_eq!(this.path, "3:this", "named by the first call's paths");
    assert_eq!(
        (this.entry.as_deref(), this.value.as_deref()),
        (Some("Acc{n=0}"), Some("Acc{n=2}"))
    );
    let chain = d.tree_node(CHAIN).unwrap();
    assert_eq!((s.entry_ts, s.exit_ts), (chain.entry, Some(chain.exit)));
    // At a moment inside the chain, before its last call returned: no result yet.
    let between = d.node_state(CHAIN, Some(chain.entry + 1), &[]).unwrap();
    assert_eq!(between.result, None);
    let err = d.node_state(CHAIN, Some(chain.exit + 1), &[]).unwrap_err();
    assert!(err.to_string().contains("outside node"), "{err}");
    // A recorded node reads as the trace has it.
    let call = d.node_state(NodeId(4), None, &[]).unwrap();
    let direct = node_state(
        d.reader().unwrap(),
        NodeId(4),
        None,
        &[],
        RenderLimits::default(),
    );
    assert_eq!(call, direct.unwrap());
}

#[test]
fn a_chain_lists_its_calls_events_only() {
    let (_dir, mut d) = open(DebugOptions::default());
    let chain = d.tree_node(CHAIN).unwrap();
    let page = d.node_events(CHAIN, 0, 100, None).unwrap();
    assert_eq!(page.node, CHAIN);
    assert_eq!(page.next, None);
    let kinds: Vec<&str> = page.events.iter().map(|e| e.kind.as_str()).collect();
    assert_eq!(
        kinds.iter().filter(|k| **k == "call").count(),
        2,
        "{kinds:?}"
    );
    assert!(page
        .events
        .iter()
        .all(|e| (chain.entry..=chain.exit).contains(&e.timestamp)));
    assert_eq!(page.events.first().map(|e| e.timestamp), Some(chain.entry));
    // In pages, the last one ending with the chain.
    let first = d.node_events(CHAIN, 0, 1, None).unwrap();
    let next = first.next.expect("more than one event");
    let rest = d.node_events(CHAIN, next, 100, None).unwrap();
    assert_eq!(first.events.len() + rest.events.len(), page.events.len());
    assert_eq!(rest.next, None);
    // Its parent has more: the chain's span only is listed.
    let main = d.node_events(MAIN, 0, 100, None).unwrap();
    assert!(
        main.events.len() > page.events.len() + 4,
        "{:?}",
        main.events
    );
}

#[test]
fn a_run_of_iterations_shows_its_frame_over_the_run() {
    // sumNumbers' first two iterations (nodes 5 and 7), as a projected node shows them.
    let (dir, reader, _) = record_stream(&sum_numbers(1));
    let s = frame_state(
        &reader,
        NodeId(FOREST_BASE + 7),
        NodeId(5),
        NodeId(7),
        None,
        &[],
        RenderLimits::default(),
    )
    .unwrap();
    let var = |name: &str| {
        let v = s.variables.iter().find(|v| v.name == name).unwrap();
        (v.entry.as_deref(), v.value.as_deref())
    };
    assert_eq!(var("i"), (Some("1"), Some("3")));
    assert_eq!(var("sum"), (Some("0"), Some("3")));
    assert_eq!(s.node, NodeId(FOREST_BASE + 7));
    assert_eq!(s.result, None);
    drop(dir);
}

#[test]
fn nodes_the_session_does_not_have_are_errors() {
    // The plain tree has no forest nodes; a made-up id is unknown everywhere.
    let (_dir, mut d) = open(DebugOptions {
        forest: crate::tree::ForestOptions::OFF,
        ..Default::default()
    });
    for err in [
        d.node_state(CHAIN, None, &[]).map(|_| ()).unwrap_err(),
        d.node_events(CHAIN, 0, 10, None).map(|_| ()).unwrap_err(),
        d.tree_node(CHAIN).map(|_| ()).unwrap_err(),
    ] {
        assert!(
            matches!(err, DebugError::UnknownNode(n) if n == CHAIN),
            "{err}"
        );
    }
}
