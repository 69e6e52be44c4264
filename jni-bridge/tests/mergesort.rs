//! The bridge's session over a live recording of the jhyde paper's MergeSort, driven the way
//! the plugin drives it: start the recording, run the JVM with the agent on the socket, answer
//! until the bug is found, then look at `c[2]` of the buggy merge.

use std::path::Path;

use hindsight_jni::session::{Bounds, BridgeSession, TreeOptions};

mod support;
use support::{agent_jar, java_with_agent, javac};

fn java(dir: &Path) -> std::path::PathBuf {
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../eclipse-plugin-tests/resources/MergeSort.java");
    javac(dir, &[src]);
    agent_jar(dir)
}

/// The answers a person gives: main, sort and the last merge are wrong, the rest right.
fn oracle(method: &str, merges_seen: &mut u32) -> &'static str {
    match method {
        "MergeSort.main" | "MergeSort.sort" => "invalid",
        "MergeSort.merge" => {
            *merges_seen += 1;
            if *merges_seen == 3 {
                "invalid"
            } else {
                "valid"
            }
        }
        _ => "valid",
    }
}

/// A live session over a run of MergeSort that has ended; methods matching `trust` trusted.
/// The plain tree of calls (the dialogues below are the jhyde paper's, about calls; the
/// execution forest and loops are `forest.rs`'s).
fn recorded_mergesort(dir: &Path, trust: &str) -> BridgeSession {
    let jar = java(dir);
    let session = BridgeSession::start_live_with(
        &dir.join("run.htrace"),
        trust,
        Bounds::default(),
        TreeOptions::PLAIN,
    )
    .unwrap();
    let socket = session.socket_path().unwrap().to_path_buf();
    let out = java_with_agent(&jar, &socket, dir, "MergeSort")
        .output()
        .expect("running java");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "[1, 4, 9, 7]");
    session
}

#[test]
fn live_mergesort_session_finds_the_bug_in_merge() {
    let dir = tempfile::tempdir().unwrap();
    let mut session = recorded_mergesort(dir.path(), "");
    let mut merges = 0;
    let mut asked = Vec::new();
    let buggy = loop {
        let q = session.next_question().unwrap();
        match q.kind {
            "ask" => {
                let node = q.node.unwrap();
                let method = node.method.clone().unwrap();
                let answer = oracle(&method, &mut merges);
                asked.push(format!("{method} {answer}"));
                session.answer(node.id as i64, answer).unwrap();
            }
            "buggy" => {
                // The end carries the report the editor's annotation and marker show.
                assert_eq!(q.answers, asked.len(), "answers counted");
                let report = q.report.expect("a report with the verdict");
                let bug = report.buggy_node.expect("the buggy node in the report");
                assert_eq!(bug.method, "MergeSort.merge");
                assert_eq!(bug.file.as_deref(), Some("MergeSort.java"));
                assert!(
                    bug.lines.contains(&12),
                    "merge ran line 12: {:?}",
                    bug.lines
                );
                break q.node.unwrap();
            }
            // The recording has ended, but its last headers may still be on their way.
            _ => std::thread::sleep(std::time::Duration::from_millis(10)),
        }
        assert!(asked.len() < 20, "no verdict after {asked:?}");
    };
    assert_eq!(
        buggy.method.as_deref(),
        Some("MergeSort.merge"),
        "asked {asked:?}"
    );
    assert_eq!(buggy.answer.as_deref(), Some("invalid"));

    let state = session
        .node_state(buggy.id as i64, -1, &[format!("{}:c", buggy.id)])
        .unwrap();
    let c = state
        .variables
        .iter()
        .find(|v| v.name == "c")
        .expect("c in the state");
    assert_eq!(c.value.as_deref(), Some("[1, 4, 9, 7]"));
    let c2 = c
        .children
        .iter()
        .find(|v| v.name == "[2]")
        .expect("c[2] among c's elements");
    let history = session.history(&c2.path, 0, -1).unwrap();
    let values: Vec<&str> = history.entries.iter().map(|e| e.value.as_str()).collect();
    assert_eq!(values, ["1", "1", "7", "9"], "history of {}", c2.path);
    let last = history.entries.last().unwrap();
    assert_eq!(last.line, Some(12), "the last write is c[lb++] = a[la++]");

    let paged = session.history(&c2.path, 1, 2).unwrap();
    let values: Vec<&str> = paged.entries.iter().map(|e| e.value.as_str()).collect();
    assert_eq!((paged.total, paged.offset, values), (4, 1, vec!["1", "7"]));

    let events = session
        .events(buggy.id as i64, Some(&c2.path), 0, 100_000)
        .unwrap();
    assert!(
        events.events.iter().any(|e| e.mark.is_some()),
        "the write of c[2] is marked"
    );
    // In pages: the second page starts where the first said.
    let first = session.events(buggy.id as i64, None, 0, 3).unwrap();
    assert_eq!(first.events.len(), 3);
    let next = first.next.expect("more than 3 events in merge");
    let second = session
        .events(buggy.id as i64, None, next as i64, 3)
        .unwrap();
    assert_eq!(
        second.events[0].timestamp, events.events[3].timestamp,
        "the pages follow each other"
    );

    // The recording ended complete (once its last headers are taken in), its one JVM too; the
    // thread is named as in Java.
    let mut status = session.status().unwrap();
    for _ in 0..1000 {
        if status.state != "recording" {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
        status = session.status().unwrap();
    }
    assert_eq!(status.state, "complete", "{status:?}");
    assert!(status.events > 0 && status.nodes > 3, "{status:?}");
    let jvms = session.jvms();
    assert_eq!(jvms.len(), 1, "{jvms:?}");
    assert_eq!(jvms[0].state, "complete", "{jvms:?}");
    let thread = session.children(0, 0, 10).unwrap().nodes.remove(0);
    assert_eq!(thread.label, "Thread [main]");
    assert!(session.undo().is_ok());
    let page = session.children(0, 0, 10).unwrap();
    assert!(page.total >= 1);
    session.close();
}

#[test]
fn a_missing_trace_is_an_error_with_its_path() {
    let err = match BridgeSession::open(Path::new("/nonexistent/run.htrace"), "") {
        Ok(_) => panic!("opened a missing trace"),
        Err(e) => e.to_string(),
    };
    assert!(err.contains("/nonexistent/run.htrace"), "{err}");
}

#[test]
fn a_closed_handle_is_an_error() {
    let err = hindsight_jni::registry::with(123_456, |_| Ok(())).unwrap_err();
    assert!(err.to_string().contains("123456"), "{err}");
}

#[test]
fn a_live_session_before_its_first_event_has_an_empty_root() {
    let dir = tempfile::tempdir().unwrap();
    let mut session = BridgeSession::start_live(&dir.path().join("run.htrace"), "").unwrap();
    let page = session.children(0, 0, 10).unwrap();
    assert_eq!((page.total, page.nodes.len()), (0, 0));
    assert_eq!(session.next_question().unwrap().kind, "waiting");
    assert_eq!(session.status().unwrap().state, "recording");
    assert!(session.jvms().is_empty(), "no JVM connected yet");
    assert!(
        session.children(5, 0, 10).is_err(),
        "node 5 does not exist yet"
    );
    session.close();
}

/// The preferences' persistence bound reaches the core: a number bounds the tree, 0 keeps
/// every node in memory, none (a negative number from Java) is the core's default.
#[test]
fn a_session_keeps_the_persistence_bound_it_was_given() {
    let dir = tempfile::tempdir().unwrap();
    for (i, (given, kept)) in [
        (Some(70_000), Some(70_000)),
        (Some(0), None),
        (None, Some(hindsight_core::debugger::DEFAULT_RESIDENT_NODES)),
    ]
    .into_iter()
    .enumerate()
    {
        let bounds = Bounds {
            resident_nodes: given,
            question_cache: Some(16),
        };
        let session = BridgeSession::start_live_with(
            &dir.path().join(format!("run{i}.htrace")),
            "",
            bounds,
            TreeOptions::default(),
        )
        .unwrap();
        assert_eq!(session.resident_nodes(), kept, "given {given:?}");
        session.close();
    }
}

/// Asks until the session asks something (the recording's last headers may still be on their
/// way); the node and its method.
fn next_asked(session: &mut BridgeSession) -> Option<(i64, String)> {
    for _ in 0..500 {
        let q = session.next_question().unwrap();
        match q.kind {
            "ask" => {
                let node = q.node.unwrap();
                return Some((node.id as i64, node.method.unwrap()));
            }
            "buggy" => return None,
            _ => std::thread::sleep(std::time::Duration::from_millis(10)),
        }
    }
    panic!("no question within 5 s");
}

#[test]
fn live_session_switches_strategy_trusts_methods_reveals_and_expands() {
    let dir = tempfile::tempdir().unwrap();
    let mut session = recorded_mergesort(dir.path(), "");
    session.set_strategy("top-down", f64::NAN).unwrap();
    let (main, method) = next_asked(&mut session).unwrap();
    assert_eq!(method, "MergeSort.main");
    session.answer(main, "invalid").unwrap();
    // Another strategy in the live session, then top-down again: main's answer is kept, so
    // top-down goes on below it.
    session.set_strategy("edge-coverage", 0.4).unwrap();
    session.set_strategy("heaviest-first", f64::NAN).unwrap();
    session.set_strategy("top-down", f64::NAN).unwrap();
    let (sort, method) = next_asked(&mut session).unwrap();
    assert_eq!(
        method, "MergeSort.sort",
        "main's answer survived the switches"
    );
    assert!(session.set_strategy("no-such-strategy", f64::NAN).is_err());

    // Trusting distribute trusts both its calls: the tree shows both trusted.
    session.trust("MergeSort.distribute").unwrap();
    let calls = session.children(sort, 0, 100).unwrap().nodes;
    let answers = |name: &str| -> Vec<Option<String>> {
        calls
            .iter()
            .filter(|n| n.method.as_deref() == Some(name))
            .map(|n| n.answer.clone())
            .collect()
    };
    assert_eq!(
        answers("MergeSort.distribute"),
        vec![Some("trusted".to_string()); 2]
    );
    assert_eq!(answers("MergeSort.merge"), vec![None, None, None]);
    assert!(
        session.trust("MergeSort.distribute").is_err(),
        "trusted already"
    );
    assert!(session.trust("MergeSort.nothing").is_err());
    session.answer(sort, "invalid").unwrap();
    let mut asked = Vec::new();
    while let Some((n, m)) = next_asked(&mut session) {
        asked.push(m.clone());
        session
            .answer(n, if asked.len() == 3 { "invalid" } else { "valid" })
            .unwrap();
    }
    assert_eq!(asked, ["MergeSort.merge"; 3], "distribute is never asked");

    // The way to the last merge, from the root.
    let last_merge = calls.last().unwrap();
    let path = session.path_to(last_merge.id as i64).unwrap();
    assert_eq!(path.first().map(|p| p.id), Some(0));
    assert_eq!(path.last().map(|p| p.id), Some(last_merge.id));
    assert_eq!(path.last().map(|p| p.index), Some(calls.len() as u32 - 1));
    for pair in path.windows(2) {
        let page = session
            .children(pair[0].id as i64, pair[1].index as i32, 1)
            .unwrap();
        assert_eq!(page.nodes[0].id, pair[1].id, "step {:?}", pair[1]);
    }
    assert!(session.path_to(1_000_000).is_err());

    // c of the last merge, a page of its elements at a time, compared with its entry.
    let c = format!("{}:c", last_merge.id);
    let page = session
        .variable_children(&c, last_merge.entry as i64, last_merge.exit as i64, 1, 2)
        .unwrap();
    assert_eq!(page.size, Some(4));
    assert_eq!(page.offset, 1);
    let shown: Vec<(&str, Option<&str>)> = page
        .children
        .iter()
        .map(|v| (v.name.as_str(), v.value.as_deref()))
        .collect();
    assert_eq!(shown, [("[1]", Some("4")), ("[2]", Some("9"))]);
    assert!(session
        .variable_children(&c, 5, -1, 0, 10)
        .unwrap_err()
        .to_string()
        .contains("negative"));
    session.close();
}

#[test]
fn methods_matching_the_trust_patterns_are_never_asked() {
    let dir = tempfile::tempdir().unwrap();
    let mut session = recorded_mergesort(dir.path(), "java.*, MergeSort.distribute");
    session.set_strategy("top-down", f64::NAN).unwrap();
    let mut merges = 0;
    let mut asked = Vec::new();
    while let Some((node, method)) = next_asked(&mut session) {
        let answer = oracle(&method, &mut merges);
        asked.push(format!("{method} {answer}"));
        session.answer(node, answer).unwrap();
    }
    assert_eq!(
        asked,
        [
            "MergeSort.main invalid",
            "MergeSort.sort invalid",
            "MergeSort.merge valid",
            "MergeSort.merge valid",
            "MergeSort.merge invalid"
        ]
    );
    session.close();
}

/// A program held inside a call (reading its standard input): the Java debugger's stack of its
/// main thread, with frames of the JDK around and inside, leads to the running calls.
#[test]
fn a_suspended_stack_frame_leads_to_its_running_call() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let jar = java(dir.path());
    let src = dir.path().join("Hold.java");
    std::fs::write(
        &src,
        "public class Hold {\n  static int hold(int x) throws Exception {\n    int y = x + 1;\n    \
         return y + System.in.read();\n  }\n  public static void main(String[] a) throws Exception {\n    \
         System.out.println(hold(41));\n  }\n}\n",
    )
    .unwrap();
    javac(dir.path(), &[src]);
    let mut session = BridgeSession::start_live(&dir.path().join("hold.htrace"), "").unwrap();
    let socket = session.socket_path().unwrap().to_path_buf();
    let mut child = java_with_agent(&jar, &socket, dir.path(), "Hold")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let frames: Vec<String> = [
        "java.io.FileInputStream.read",
        "java.io.BufferedInputStream.read",
        "Hold.hold",
        "Hold.main",
    ]
    .map(String::from)
    .to_vec();
    // The main thread's Java id is 1; its buffer is sent once it waits in the JDK.
    let mut found = None;
    for _ in 0..1000 {
        found = session.frame_node(1, &frames, 2).unwrap();
        if found.is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let hold = found.expect("the frame of Hold.hold is the running call of hold");
    assert_eq!(hold.node.method.as_deref(), Some("Hold.hold"));
    assert!(!hold.node.complete);
    assert!(hold.at >= hold.node.entry, "{hold:?}");
    let main = session.frame_node(1, &frames, 3).unwrap().expect("main");
    assert_eq!(main.node.method.as_deref(), Some("Hold.main"));
    assert!(
        session.frame_node(1, &frames, 0).unwrap().is_none(),
        "a JDK frame is not recorded"
    );
    // hold's local y, as the Variables view names it, has its history up to now.
    let history = session
        .history(&format!("{}:y", hold.node.id), 0, -1)
        .unwrap();
    let values: Vec<&str> = history.entries.iter().map(|e| e.value.as_str()).collect();
    assert_eq!(values, ["42"]);
    child.stdin.take().unwrap().write_all(b"\n").unwrap();
    assert!(child.wait().unwrap().success());
    session.close();
}

#[test]
fn queries_and_sql_answer_as_tables_whose_rows_lead_to_calls() {
    let dir = tempfile::tempdir().unwrap();
    let mut session = recorded_mergesort(dir.path(), "");
    // The recording has ended, but its last events may still be on their way: until merge's
    // definition is stored the query says there is no such method.
    let mut calls = None;
    let mut last = None;
    for _ in 0..500 {
        match session.query("calls", "MergeSort.merge") {
            Ok(t) if t.rows.len() == 3 => {
                calls = Some(t);
                break;
            }
            other => last = Some(other),
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let calls = calls.unwrap_or_else(|| panic!("three calls of merge, got {last:?}"));
    assert!(
        calls.columns.iter().any(|c| c == "args"),
        "{:?}",
        calls.columns
    );
    for t in &calls.targets {
        assert!(t.node.is_some() && t.event.is_some(), "{t:?}");
        assert_eq!(t.method.as_deref(), Some("MergeSort.merge"));
        assert_eq!(t.file.as_deref(), Some("MergeSort.java"));
    }
    assert!(calls.summary.contains("total: 3"), "{}", calls.summary);

    let sql = session
        .sql(
            "SELECT node, method, call_ts FROM calls WHERE name = 'merge' ORDER BY call_ts",
            -1,
        )
        .unwrap();
    assert_eq!(sql.columns, ["node", "method", "call_ts"]);
    assert_eq!(sql.rows.len(), 3);
    assert_eq!(
        sql.targets.iter().map(|t| t.node).collect::<Vec<_>>(),
        calls.targets.iter().map(|t| t.node).collect::<Vec<_>>()
    );

    // Bad input is an error with a message, never a panic.
    let writes = session.sql("DELETE FROM meta", 10).unwrap_err().to_string();
    assert!(writes.contains("read only"), "{writes}");
    let unknown = session.query("no-such-query", "").unwrap_err().to_string();
    assert!(unknown.contains("no-such-query"), "{unknown}");
    let option = session
        .query("calls", "MergeSort.merge --bogus 1")
        .unwrap_err()
        .to_string();
    assert!(option.contains("--bogus"), "{option}");
    let request =
        hindsight_jni::session::request("calls", "M.f --where 'arg0 == null' --from=3").unwrap();
    assert_eq!(request.args, ["M.f"]);
    assert_eq!(request.condition.as_deref(), Some("arg0 == null"));
    assert_eq!(request.from, Some(3));
    assert!(BridgeSession::queries()
        .iter()
        .any(|q| q.name == "call-chain"));
}
