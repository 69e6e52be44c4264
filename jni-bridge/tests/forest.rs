//! The bridge's sessions over the execution forest and loop nodes, as the plugin opens them with
//! its preferences: the generalized-AD paper's sumNumbers and the balanced-ET paper's castling
//! (`tests/programs/`) recorded live, every query that takes a node id asked about loops,
//! iterations, collapsed and projected nodes, and answered to the verdict.

use std::path::{Path, PathBuf};

use hindsight_core::debugger::TreeNode;
use hindsight_core::tree::{NodeKind, FOREST_BASE};
use hindsight_jni::session::{Bounds, BridgeSession, TreeOptions};

mod support;
use support::{agent_jar, java_with_agent, javac};

/// Compiles `tests/programs/NAME/buggy` into `dir`; the agent's jar beside it.
fn compile(dir: &Path, name: &str) -> PathBuf {
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/programs")
        .join(name)
        .join("buggy");
    let package = src.join(name);
    let sources: Vec<PathBuf> = std::fs::read_dir(&package)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "java"))
        .collect();
    javac(dir, &sources);
    agent_jar(dir)
}

/// A live session, shaped by `tree`, over a run of `main` (compiled from the program `name`)
/// that has ended and been taken in whole.
fn recorded(dir: &Path, name: &str, main: &str, tree: TreeOptions) -> BridgeSession {
    let jar = compile(dir, name);
    let mut session =
        BridgeSession::start_live_with(&dir.join("run.htrace"), "", Bounds::default(), tree)
            .unwrap();
    let socket = session.socket_path().unwrap().to_path_buf();
    let out = java_with_agent(&jar, &socket, dir, main)
        .output()
        .expect("running java");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for _ in 0..1000 {
        if session.status().unwrap().state != "recording" {
            return session;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    panic!("the recording did not end");
}

/// Every node of the tree as the Computation Tree reads it, page by page, in preorder.
fn walk(session: &mut BridgeSession) -> Vec<TreeNode> {
    let mut out = Vec::new();
    let mut todo = vec![0i64];
    while let Some(node) = todo.pop() {
        let page = session.children(node, 0, 1000).unwrap();
        assert_eq!(page.total as usize, page.nodes.len(), "one page holds them");
        for child in page.nodes.iter().rev() {
            todo.push(child.id as i64);
        }
        out.extend(page.nodes);
    }
    out.sort_by_key(|n| n.entry);
    out
}

fn of_kind(nodes: &[TreeNode], kind: NodeKind) -> Vec<&TreeNode> {
    nodes.iter().filter(|n| n.kind == kind).collect()
}

/// The answers a person gives (`tests/programs/*/answers.txt`): the calls in `wrong` are
/// invalid; loops and iterations compute what they should from where they start (the bug is
/// before the loop); everything else is right.
fn oracle(node: &TreeNode, wrong: &[&str]) -> &'static str {
    let method = node.method.as_deref().unwrap_or("");
    if node.kind.is_call() && wrong.contains(&method) {
        "invalid"
    } else {
        "valid"
    }
}

/// Answers with `oracle` until the verdict; the answers given.
fn answer_to_the_end(
    session: &mut BridgeSession,
    wrong: &[&str],
) -> (Vec<String>, hindsight_core::debugger::NextQuestion) {
    let mut asked = Vec::new();
    loop {
        let q = session.next_question().unwrap();
        if q.kind != "ask" {
            return (asked, q);
        }
        let node = q.node.unwrap();
        let answer = oracle(&node, wrong);
        asked.push(format!("{:?} {} {answer}", node.kind, node.label));
        session.answer(node.id as i64, answer).unwrap();
        assert!(asked.len() < 40, "no verdict after {asked:#?}");
    }
}

#[test]
fn sumnumbers_with_the_defaults_asks_about_its_loop_and_finds_the_code_before_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut session = recorded(
        dir.path(),
        "sumnumbers",
        "sumnumbers.SumNumbers",
        TreeOptions::default(),
    );
    let nodes = walk(&mut session);
    let loops = of_kind(&nodes, NodeKind::Loop);
    let iterations = of_kind(&nodes, NodeKind::Iteration);
    let projected = of_kind(&nodes, NodeKind::Projected);
    assert_eq!((loops.len(), iterations.len()), (1, 3), "{nodes:#?}");
    assert_eq!(projected.len(), 1, "isEven then add in one iteration");
    // Each kind has its own question as its label.
    let the_loop = loops[0].clone();
    assert!(
        the_loop
            .label
            .starts_with("SumNumbers.sumNumbers: loop at SumNumbers.java:12, 3 iterations"),
        "{}",
        the_loop.label
    );
    assert_eq!(
        the_loop.method.as_deref(),
        Some("sumnumbers.SumNumbers.sumNumbers")
    );
    assert!(iterations[1].label.contains("iteration 2 of 3"));
    let chain = projected[0].clone();
    assert!(
        chain.id >= FOREST_BASE,
        "a projected node has the forest's own id"
    );
    assert!(chain.label.starts_with("2 calls"), "{}", chain.label);
    assert!(
        chain.entry > 0 && chain.entry < chain.exit,
        "a projected node runs from its first call's entry to its last call's exit: {chain:?}"
    );

    // The way to the projected node, for the tree to reveal it.
    let path = session.path_to(chain.id as i64).unwrap();
    assert_eq!((path[0].id, path.last().unwrap().id), (0, chain.id));
    assert_eq!(
        path.len(),
        7,
        "run, thread, main, sumNumbers, loop, iteration, it"
    );

    // The Node view: the loop shows its frame between its entry and exit.
    let state = session.node_state(the_loop.id as i64, -1, &[]).unwrap();
    let var = |s: &hindsight_core::omniscient::NodeState, name: &str| {
        let v = s.variables.iter().find(|v| v.name == name);
        let v = v.unwrap_or_else(|| panic!("{name} in {:?}", s.variables));
        (v.entry.clone(), v.value.clone())
    };
    assert_eq!(var(&state, "sum"), (Some("0".into()), Some("3".into())));
    assert_eq!(var(&state, "i"), (Some("1".into()), Some("3".into())));
    assert_eq!(
        (state.entry_ts, state.exit_ts),
        (the_loop.entry, Some(the_loop.exit))
    );
    let second = session
        .node_state(iterations[1].id as i64, -1, &[])
        .unwrap();
    assert_eq!(var(&second, "i"), (Some("2".into()), Some("3".into())));
    // The projected chain: what it works on (this) and its calls' results.
    let chained = session.node_state(chain.id as i64, -1, &[]).unwrap();
    assert_eq!(chained.node.0, chain.id);
    assert_eq!(
        chained.result.as_deref(),
        Some("false, 3"),
        "isEven(3), add(0, 3)"
    );
    assert!(
        chained.variables.iter().any(|v| v.name == "this"),
        "{chained:?}"
    );
    assert!(
        session
            .node_state(chain.id as i64, chain.entry as i64 - 1, &[])
            .is_err(),
        "a moment before the chain is refused"
    );

    // The Event List: the projected chain's events are its calls, in its span only.
    let events = session.events(chain.id as i64, None, 0, 100).unwrap();
    let calls = events.events.iter().filter(|e| e.kind == "call").count();
    assert_eq!(calls, 2, "{:#?}", events.events);
    assert!(events
        .events
        .iter()
        .all(|e| (chain.entry..=chain.exit).contains(&e.timestamp)));
    assert_eq!(events.next, None);
    let page = session.events(chain.id as i64, None, 0, 1).unwrap();
    let rest = session
        .events(chain.id as i64, None, page.next.unwrap() as i64, 100)
        .unwrap();
    assert_eq!(
        page.events.len() + rest.events.len(),
        events.events.len(),
        "in pages"
    );
    let loop_events = session.events(the_loop.id as i64, None, 0, 1000).unwrap();
    assert!(loop_events.events.len() > events.events.len());

    // A history from the loop's state, as Show in History from the Node view asks it.
    let sum = state.variables.iter().find(|v| v.name == "sum").unwrap();
    let history = session.history(&sum.path, 0, -1).unwrap();
    let values: Vec<&str> = history.entries.iter().map(|e| e.value.as_str()).collect();
    assert_eq!(values, ["0", "3"], "history of {}", sum.path);

    // A made-up forest id is an error, not a crash.
    let unknown = (FOREST_BASE + 1000) as i64;
    for err in [
        session
            .node_state(unknown, -1, &[])
            .err()
            .map(|e| e.to_string()),
        session
            .events(unknown, None, 0, 10)
            .err()
            .map(|e| e.to_string()),
        session
            .answer(unknown, "valid")
            .err()
            .map(|e| e.to_string()),
        session.path_to(unknown).err().map(|e| e.to_string()),
    ] {
        let err = err.expect("an error");
        assert!(err.contains(&unknown.to_string()), "{err}");
    }

    // Answered as the paper does: the loop is right, so the verdict is sumNumbers' code
    // outside it (Lemma 1).
    let (asked, end) = answer_to_the_end(
        &mut session,
        &[
            "sumnumbers.SumNumbers.main",
            "sumnumbers.SumNumbers.sumNumbers",
        ],
    );
    assert_eq!(end.kind, "buggy", "{asked:#?}");
    assert!(
        asked.iter().any(|a| a.starts_with("Loop ")),
        "a loop was asked about: {asked:#?}"
    );
    let bug = end.report.unwrap().buggy_node.unwrap();
    assert_eq!(
        (bug.kind, bug.method.as_str()),
        (NodeKind::Routine, "sumnumbers.SumNumbers.sumNumbers")
    );
    assert_eq!(
        bug.lines,
        [11, 12, 18],
        "the initialisations and the return"
    );
    // The tree shows the answers on the loop's nodes.
    let nodes = walk(&mut session);
    assert!(
        nodes
            .iter()
            .any(|n| n.kind == NodeKind::Loop && n.answer.as_deref() == Some("valid")),
        "the loop carries its answer: {nodes:#?}"
    );
    session.close();
}

#[test]
fn castling_without_loops_collapses_the_moves_and_bounds_the_chains() {
    let dir = tempfile::tempdir().unwrap();
    let no_loops = TreeOptions::new(true, false, 0);
    let mut session = recorded(dir.path(), "castling", "castling.Chess", no_loops);
    let nodes = walk(&mut session);
    assert!(of_kind(&nodes, NodeKind::Loop).is_empty(), "no loop nodes");
    let collapsed = of_kind(&nodes, NodeKind::Collapsed);
    assert_eq!(collapsed.len(), 2, "{nodes:#?}");
    let right = collapsed[0].clone();
    assert!(
        right.label.starts_with("3 calls Position.right"),
        "{}",
        right.label
    );
    assert_eq!(right.method.as_deref(), Some("castling.Position.right"));

    // The Node view: the moved tower, from before the first move to after the last.
    let state = session.node_state(right.id as i64, -1, &[]).unwrap();
    let this = state.variables.iter().find(|v| v.name == "this").unwrap();
    assert_eq!(
        (this.entry.as_deref(), this.value.as_deref()),
        (Some("Position{x=8, y=1}"), Some("Position{x=11, y=1}"))
    );
    assert_eq!(state.exit_ts, Some(right.exit));
    // Its fields expand at any moment of the chain, each compared with the chain's entry.
    let fields = session
        .variable_children(&this.path, right.entry as i64, right.exit as i64, 0, 10)
        .unwrap();
    let x = fields.children.iter().find(|f| f.name == "x").unwrap();
    assert_eq!(
        (x.entry.as_deref(), x.value.as_deref()),
        (Some("8"), Some("11"))
    );
    // Its events: the three calls, each a row for its call and one for its return.
    let events = session.events(right.id as i64, None, 0, 100).unwrap();
    let kinds: Vec<&str> = events.events.iter().map(|e| e.kind.as_str()).collect();
    assert_eq!(
        kinds.iter().filter(|k| **k == "call").count(),
        3,
        "{kinds:?}"
    );
    // All on castling's line 18 (`for (...) {t.right();}`), the first call's row too.
    let lines: Vec<Option<u32>> = events.events.iter().map(|e| e.line).collect();
    assert!(lines.iter().all(|l| *l == Some(18)), "{lines:?}");
    // A history of the tower's x from there: every move.
    let history = session.history(&format!("{}.x", this.path), 0, -1).unwrap();
    let values: Vec<&str> = history.entries.iter().map(|e| e.value.as_str()).collect();
    assert_eq!(
        values,
        ["8", "9", "10", "11"],
        "locate, then the three moves"
    );
    // Each move's write leads to the collapsed node, which shows the calls it absorbed.
    for entry in &history.entries[1..] {
        let writer = entry.node.expect("a writer").0 as i64;
        let path = session.path_to(writer).unwrap();
        assert_eq!(
            path.last().unwrap().id,
            right.id,
            "write at {}",
            entry.timestamp
        );
    }

    // Trust by the collapsed node's method trusts the moves: never asked again.
    session.trust("castling.Position.left").unwrap();
    let (asked, end) = answer_to_the_end(
        &mut session,
        &["castling.Chess.main", "castling.Chess.castling"],
    );
    assert!(
        asked
            .iter()
            .any(|a| a.starts_with("Collapsed 3 calls Position.right")),
        "{asked:#?}"
    );
    assert!(
        !asked.iter().any(|a| a.contains("Position.left")),
        "{asked:#?}"
    );
    let bug = end.report.unwrap().buggy_node.unwrap();
    assert_eq!(
        (bug.kind, bug.method.as_str()),
        (NodeKind::Routine, "castling.Chess.castling")
    );
    assert!(bug.lines.contains(&14), "the condition: {:?}", bug.lines);
    session.close();

    // At most two calls per forest node: the three moves right are a projected node over a
    // collapsed pair and the third move.
    let dir = tempfile::tempdir().unwrap();
    let two = TreeOptions::new(true, false, 2);
    let mut session = recorded(dir.path(), "castling", "castling.Chess", two);
    let nodes = walk(&mut session);
    let collapsed = of_kind(&nodes, NodeKind::Collapsed);
    assert!(!collapsed.is_empty());
    assert!(
        collapsed.iter().all(|n| n.label.starts_with("2 calls")),
        "{collapsed:#?}"
    );
    assert_eq!(of_kind(&nodes, NodeKind::Projected).len(), 1, "{nodes:#?}");
    session.close();
}

#[test]
fn castling_with_the_defaults_projects_iterations_and_the_plain_tree_has_calls_only() {
    let dir = tempfile::tempdir().unwrap();
    let mut session = recorded(
        dir.path(),
        "castling",
        "castling.Chess",
        TreeOptions::default(),
    );
    let nodes = walk(&mut session);
    let projected = of_kind(&nodes, NodeKind::Projected);
    assert_eq!(projected.len(), 2, "{nodes:#?}");
    // A projected run of iterations shows its frame over the run.
    let run = projected[0].clone();
    assert!(
        run.label.contains("iterations 1 to 2 of 4"),
        "{}",
        run.label
    );
    // Don't know, then undo, on a projected node.
    session.answer(run.id as i64, "dont-know").unwrap();
    let shown = |s: &mut BridgeSession| {
        walk(s)
            .into_iter()
            .find(|n| n.id == run.id)
            .and_then(|n| n.answer)
    };
    assert_eq!(shown(&mut session).as_deref(), Some("dont-know"));
    session.undo().unwrap();
    assert_eq!(shown(&mut session), None, "undone");
    let state = session.node_state(run.id as i64, -1, &[]).unwrap();
    let i = state.variables.iter().find(|v| v.name == "i").unwrap();
    assert_eq!(
        (i.entry.as_deref(), i.value.as_deref()),
        (Some("1"), Some("3"))
    );
    assert_eq!(state.result, None, "a loop's code returns nothing");
    let t = state.variables.iter().find(|v| v.name == "t").unwrap();
    assert_eq!(t.value.as_deref(), Some("Position{x=10, y=1}"));
    let (asked, end) = answer_to_the_end(
        &mut session,
        &["castling.Chess.main", "castling.Chess.castling"],
    );
    assert_eq!(end.kind, "buggy", "{asked:#?}");
    let bug = end.report.unwrap().buggy_node.unwrap();
    assert_eq!(bug.method, "castling.Chess.castling");
    assert!(
        bug.lines.contains(&14) && !bug.lines.contains(&15),
        "the condition, not the loops' bodies: {:?}",
        bug.lines
    );
    session.close();

    let dir = tempfile::tempdir().unwrap();
    let mut session = recorded(dir.path(), "castling", "castling.Chess", TreeOptions::PLAIN);
    let kinds: std::collections::BTreeSet<String> = walk(&mut session)
        .iter()
        .map(|n| format!("{:?}", n.kind))
        .collect();
    assert_eq!(
        kinds.into_iter().collect::<Vec<_>>(),
        ["External", "Routine", "Thread"]
    );
    session.close();
}

/// A program held inside a call made in nested loops (reading its standard input in the last
/// one), with the defaults: the Java debugger's frames lead to the running calls through the
/// loops and iterations they run in, whatever the forest made of the completed ones.
#[test]
fn a_suspended_frame_inside_loops_leads_to_its_running_call() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let jar = compile(dir.path(), "sumnumbers");
    let src = dir.path().join("Nest.java");
    std::fs::write(
        &src,
        "public class Nest {\n  int n;\n  void step(int i, int j) throws Exception {\n    \
         n += i * j;\n    if (i == 2 && j == 1) n += System.in.read();\n  }\n  \
         void sort() throws Exception {\n    for (int i = 1; i <= 2; i++) {\n      step(i, 0);\n      \
         for (int j = 0; j < 2; j++) step(i, j);\n    }\n  }\n  \
         public static void main(String[] a) throws Exception {\n    Nest x = new Nest();\n    \
         x.sort();\n    System.out.println(x.n);\n  }\n}\n",
    )
    .unwrap();
    javac(dir.path(), &[src]);
    let mut session = BridgeSession::start_live_with(
        &dir.path().join("nest.htrace"),
        "",
        Bounds::default(),
        TreeOptions::default(),
    )
    .unwrap();
    let socket = session.socket_path().unwrap().to_path_buf();
    let mut child = java_with_agent(&jar, &socket, dir.path(), "Nest")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let frames: Vec<String> = [
        "java.io.FileInputStream.read",
        "java.io.BufferedInputStream.read",
        "Nest.step",
        "Nest.sort",
        "Nest.main",
    ]
    .map(String::from)
    .to_vec();
    let mut found = None;
    for _ in 0..1000 {
        // The Computation Tree reads the tree meanwhile, as the plugin does.
        let _ = session.next_question().unwrap();
        let _ = walk(&mut session);
        found = session.frame_node(1, &frames, 2).unwrap();
        if found.is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let step = found.expect("the frame of Nest.step is its running call");
    assert_eq!(step.node.method.as_deref(), Some("Nest.step"));
    assert!(!step.node.complete);
    let sort = session.frame_node(1, &frames, 3).unwrap().expect("sort");
    assert_eq!(sort.node.kind, NodeKind::Routine);
    assert_eq!(sort.node.method.as_deref(), Some("Nest.sort"));
    let history = session
        .history(&format!("{}:j", step.node.id), 0, -1)
        .unwrap();
    let values: Vec<&str> = history.entries.iter().map(|e| e.value.as_str()).collect();
    assert_eq!(values, ["1"], "the argument j of step(2, 1)");
    child.stdin.take().unwrap().write_all(b"\n").unwrap();
    assert!(child.wait().unwrap().success());
    session.close();
}
