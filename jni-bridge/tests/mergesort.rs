//! The bridge's session over a live recording of the jhyde paper's MergeSort, driven the way
//! the plugin drives it: start the recording, run the JVM with the agent on the socket, answer
//! until the bug is found, then look at `c[2]` of the buggy merge.

use std::path::Path;
use std::process::Command;

use hindsight_jni::session::BridgeSession;

fn java(dir: &Path) -> std::path::PathBuf {
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../eclipse-plugin-tests/resources/MergeSort.java");
    let status = Command::new("javac")
        .arg("-g")
        .arg("-d")
        .arg(dir)
        .arg(&src)
        .status()
        .expect("running javac");
    assert!(status.success(), "javac {}", src.display());
    let jar = dir.join("hindsight-agent.jar");
    std::fs::write(&jar, hindsight_agent::AGENT_JAR).unwrap();
    jar
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

#[test]
fn live_mergesort_session_finds_the_bug_in_merge() {
    let dir = tempfile::tempdir().unwrap();
    let jar = java(dir.path());
    let mut session = BridgeSession::start_live(&dir.path().join("run.htrace")).unwrap();
    let socket = session.socket_path().unwrap().to_path_buf();
    let out = Command::new("java")
        .arg(format!(
            "-javaagent:{}=socket={}",
            jar.display(),
            socket.display()
        ))
        .arg("-cp")
        .arg(dir.path())
        .arg("MergeSort")
        .output()
        .expect("running java");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "[1, 4, 9, 7]");

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
            "buggy" => break q.node.unwrap(),
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
    let history = session.history(&c2.path).unwrap();
    let values: Vec<&str> = history.entries.iter().map(|e| e.value.as_str()).collect();
    assert_eq!(values, ["1", "1", "7", "9"], "history of {}", c2.path);
    let last = history.entries.last().unwrap();
    assert_eq!(last.line, Some(12), "the last write is c[lb++] = a[la++]");

    let events = session.events(buggy.id as i64, Some(&c2.path)).unwrap();
    assert!(
        events.events.iter().any(|e| e.mark.is_some()),
        "the write of c[2] is marked"
    );
    assert!(session.undo().is_ok());
    let page = session.children(0, 0, 10).unwrap();
    assert!(page.total >= 1);
    session.close();
}

#[test]
fn a_missing_trace_is_an_error_with_its_path() {
    let err = match BridgeSession::open(Path::new("/nonexistent/run.htrace")) {
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
    let mut session = BridgeSession::start_live(&dir.path().join("run.htrace")).unwrap();
    let page = session.children(0, 0, 10).unwrap();
    assert_eq!((page.total, page.nodes.len()), (0, 0));
    assert_eq!(session.next_question().unwrap().kind, "none");
    assert!(
        session.children(5, 0, 10).is_err(),
        "node 5 does not exist yet"
    );
    session.close();
}
