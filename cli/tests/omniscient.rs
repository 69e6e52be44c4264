//! End to end: the back-in-time commands (`node`, `events`, `history`, `origin`) on recorded
//! Java programs: the jhyde paper's MergeSort walk-through, threads, exceptions caught and
//! uncaught, and a deep graph expanded lazily.

mod common;

use std::path::{Path, PathBuf};

use common::{hindsight, hindsight_json, javac, repo};
use serde_json::Value;

/// Compiles `src` and records `java -cp classes main args` into `work/name.htrace`.
fn record(src: &Path, main: &str, args: &[&str], work: &Path, name: &str) -> PathBuf {
    let classes = work.join(format!("{name}-classes"));
    if !classes.exists() {
        javac(src, &classes);
    }
    let trace = work.join(format!("{name}.htrace"));
    let mut argv = vec![
        "record",
        "--json",
        "-o",
        trace.to_str().unwrap(),
        "--",
        "java",
        "-cp",
        classes.to_str().unwrap(),
        main,
    ];
    argv.extend_from_slice(args);
    let out = hindsight(&argv);
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "record printed no JSON ({e}): {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    assert_eq!(summary["traces"][0]["ending"]["ending"], "end", "{summary}");
    trace
}

fn s(t: &Path) -> &str {
    t.to_str().unwrap()
}

/// The nodes of `hindsight tree` calling `method`, in preorder.
/// The calls of `method` (not its loops and iterations, which carry its name too).
fn calls(trace: &Path, method: &str) -> Vec<Value> {
    let tree = hindsight_json(&["tree", s(trace), "--json"]);
    tree["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["method"] == method && n["kind"] == "routine")
        .cloned()
        .collect()
}

fn var<'a>(state: &'a Value, name: &str) -> &'a Value {
    state["variables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["name"] == name)
        .unwrap_or_else(|| panic!("no {name} in {state:#}"))
}

fn child<'a>(v: &'a Value, name: &str) -> &'a Value {
    v["children"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == name)
        .unwrap_or_else(|| panic!("no child {name} in {v:#}"))
}

fn mergesort_src() -> PathBuf {
    repo().join("tests/programs/mergesort/buggy")
}

/// Records the paper's buggy MergeSort into `work`: the trace, and the last `merge` call's node
/// and exit timestamp.
fn last_merge(work: &Path) -> (PathBuf, String, String) {
    let trace = record(
        &mergesort_src(),
        "mergesort.MergeSort",
        &[],
        work,
        "mergesort",
    );
    let merges = calls(&trace, "mergesort.MergeSort.merge");
    let last = merges.last().unwrap();
    let node = last["id"].as_u64().unwrap().to_string();
    let exit = last["exit"].as_u64().unwrap().to_string();
    (trace, node, exit)
}

#[test]
fn mergesort_walk_through_of_the_jhyde_paper() {
    let work = tempfile::tempdir().unwrap();
    let (trace, node, exit) = last_merge(work.path());

    // Node view at the exit: la, lb, lc changed; c contents-changed, its first three elements changed.
    let state = hindsight_json(&[
        "node",
        s(&trace),
        &node,
        "--json",
        "--expand",
        &format!("{node}:c"),
    ]);
    assert_eq!(state["node"].as_u64().unwrap().to_string(), node);
    assert_eq!(state["at"].as_u64().unwrap().to_string(), exit);
    for name in ["la", "lb", "lc"] {
        assert_eq!(var(&state, name)["mark"], "changed", "{name}: {state:#}");
    }
    for name in ["a", "ra", "b", "rb"] {
        assert_eq!(var(&state, name)["mark"], "unchanged", "{name}: {state:#}");
    }
    let c = var(&state, "c");
    assert_eq!(c["mark"], "contents-changed");
    assert_eq!(
        (c["entry"].as_str(), c["value"].as_str()),
        (Some("[4, 9, 1, 7]"), Some("[1, 4, 9, 7]"))
    );
    assert_eq!(c["path"], format!("{node}:c"));
    for (i, mark) in ["changed", "changed", "changed", "unchanged"]
        .iter()
        .enumerate()
    {
        let e = child(c, &format!("[{i}]"));
        assert_eq!(e["mark"], *mark, "c[{i}]: {c:#}");
        assert_eq!(e["path"], format!("{node}:c[{i}]"));
    }
    assert!(var(&state, "la")["children"].as_array().unwrap().is_empty());

    // History of c[2]: 1, 1, 7, 9, the last write in merge on the buggy line.
    let path = format!("{node}:c[2]");
    let history = hindsight_json(&["history", s(&trace), &path, "--json"]);
    let entries = history["entries"].as_array().unwrap();
    let values: Vec<&str> = entries
        .iter()
        .map(|e| e["value"].as_str().unwrap())
        .collect();
    assert_eq!(values, ["1", "1", "7", "9"], "{history:#}");
    let stamps: Vec<u64> = entries
        .iter()
        .map(|e| e["timestamp"].as_u64().unwrap())
        .collect();
    assert!(stamps.windows(2).all(|w| w[0] < w[1]), "{stamps:?}");
    let last_write = entries.last().unwrap();
    assert_eq!(last_write["method"], "mergesort.MergeSort.merge");
    assert_eq!(last_write["node"].as_u64().unwrap().to_string(), node);
    assert_eq!(
        (last_write["file"].as_str(), last_write["line"].as_u64()),
        (Some("MergeSort.java"), Some(12))
    );
    assert_eq!(entries[0]["method"], "mergesort.MergeSort.main");

    // Origin of c[2] at the exit: that write, its source line and what the statement read.
    let origin = hindsight_json(&[
        "origin",
        s(&trace),
        &path,
        "--at",
        &exit,
        "--source-path",
        s(&mergesort_src()),
        "--json",
    ]);
    let w = &origin["write"];
    assert_eq!(w["timestamp"], last_write["timestamp"]);
    assert_eq!(w["node"].as_u64().unwrap().to_string(), node);
    assert_eq!(
        (w["method"].as_str(), w["line"].as_u64()),
        (Some("mergesort.MergeSort.merge"), Some(12))
    );
    assert_eq!(w["source"], "c[lb++] = a[la++];");
    let inputs: Vec<(String, String)> = w["inputs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            (
                i["path"].as_str().unwrap().to_string(),
                i["value"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    // The statement read la = 1 and lb = 2 (before their increments) and a[1] = 9.
    for (p, v) in [("la", "1"), ("lb", "2"), ("a[1]", "9")] {
        assert!(
            inputs.contains(&(format!("{node}:{p}"), v.to_string())),
            "{p} = {v} not in {inputs:?}"
        );
    }

    // Event list marked for c[2]: exactly the two writes in this call are red.
    let events = hindsight_json(&["events", s(&trace), &node, "--var", &path, "--json"]);
    let list = events["events"].as_array().unwrap();
    let red: Vec<&str> = list
        .iter()
        .filter(|e| e["mark"] == "changed")
        .map(|e| e["text"].as_str().unwrap())
        .collect();
    assert_eq!(red, ["c[2] = 7", "c[2] = 9"]);
    assert!(list.iter().all(|e| e["thread"] == "main"));
    assert!(list.iter().any(|e| e["kind"] == "line"
        && e["text"] == "line 12"
        && e["line"] == 12
        && e["file"] == "MergeSort.java"));
    // In sort, the merge calls that wrote c[2] are yellow, and nothing is red.
    let sort = calls(&trace, "mergesort.MergeSort.sort")[0]["id"]
        .as_u64()
        .unwrap()
        .to_string();
    let events = hindsight_json(&[
        "events",
        s(&trace),
        &sort,
        "--var",
        &path,
        "--json",
        "--limit",
        "1000",
    ]);
    let yellow: Vec<&Value> = events["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["mark"] == "contains-change")
        .collect();
    assert_eq!(yellow.len(), 2, "{events:#}");
    assert!(yellow.iter().all(|e| e["kind"] == "call"
        && e["text"]
            .as_str()
            .unwrap()
            .starts_with("call MergeSort.merge(")));
    assert!(events["events"]
        .as_array()
        .unwrap()
        .iter()
        .all(|e| e["mark"] != "changed"));

    // Paging: two pages of 10 are the first 20 events.
    let all = hindsight_json(&["events", s(&trace), &node, "--json", "--limit", "20"]);
    let first = hindsight_json(&["events", s(&trace), &node, "--json", "--limit", "10"]);
    let next = first["next"].as_u64().unwrap().to_string();
    let second = hindsight_json(&[
        "events",
        s(&trace),
        &node,
        "--json",
        "--limit",
        "10",
        "--from",
        &next,
    ]);
    let joined: Vec<&Value> = first["events"]
        .as_array()
        .unwrap()
        .iter()
        .chain(second["events"].as_array().unwrap())
        .collect();
    assert_eq!(
        joined,
        all["events"].as_array().unwrap().iter().collect::<Vec<_>>()
    );
}

/// `hindsight origin --json` of `path` at `at`: the write.
fn origin_write(trace: &Path, path: &str, at: &str) -> Value {
    let o = hindsight_json(&["origin", s(trace), path, "--at", at, "--json"]);
    assert_eq!(o["path"], path, "{o:#}");
    o["write"].clone()
}

#[test]
fn origin_inputs_lead_back_to_where_a_wrong_value_came_from() {
    let work = tempfile::tempdir().unwrap();
    let (trace, node, exit) = last_merge(work.path());

    // The wrong c[2] = 9 at the last merge's exit, written on the buggy line 12.
    let w = origin_write(&trace, &format!("{node}:c[2]"), &exit);
    // A moment after the trace's end is an error, not the last value dressed as that moment's.
    let info = hindsight_json(&["info", s(&trace), "--json"]);
    let after = (info["last_ts"].as_u64().unwrap() + 1).to_string();
    let out = hindsight(&["origin", s(&trace), &format!("{node}:c[2]"), "--at", &after]);
    assert_eq!(out.status.code(), Some(125));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("after the trace's last event"), "{err}");
    assert_eq!(
        (w["line"].as_u64(), w["inputs_from"].as_str()),
        (Some(12), Some("reads"))
    );
    let input = |w: &Value, path: &str| -> Value {
        w["inputs"]
            .as_array()
            .unwrap()
            .iter()
            .find(|i| i["path"] == path)
            .cloned()
            .unwrap_or_else(|| panic!("no input {path} in {w:#}"))
    };
    // The index it wrote at is lb = 2 (it should have been lc): lb came from line 10's b[lb++].
    let lb = input(&w, &format!("{node}:lb"));
    assert_eq!(lb["value"], "2");
    let back = origin_write(&trace, &format!("{node}:lb"), &lb["at"].to_string());
    assert_eq!(
        (
            back["node"].as_u64().unwrap().to_string(),
            back["line"].as_u64()
        ),
        (node.clone(), Some(10))
    );
    assert_eq!(
        back["source"],
        Value::Null,
        "no --source-path, no source line"
    );

    // The value 9 itself: follow the element read by each statement back to the array
    // initialiser in main.
    let mut chain = Vec::new();
    let mut w = w;
    loop {
        chain.push((
            w["method"].as_str().unwrap().to_string(),
            w["line"].as_u64().unwrap(),
        ));
        assert_eq!(w["inputs_from"], "reads", "{w:#}");
        let Some(element) = w["inputs"]
            .as_array()
            .unwrap()
            .iter()
            .find(|i| i["path"].as_str().unwrap().ends_with(']') && i["value"] == "9")
            .cloned()
        else {
            break;
        };
        w = origin_write(
            &trace,
            element["path"].as_str().unwrap(),
            &element["at"].to_string(),
        );
        assert!(chain.len() < 10, "{chain:?}");
    }
    let m = |name: &str, line: u64| (format!("mergesort.MergeSort.{name}"), line);
    assert_eq!(
        chain,
        [
            m("merge", 12),
            m("distribute", 21),
            m("merge", 14),
            m("distribute", 23),
            m("main", 38),
        ]
    );
}

/// A statement's inputs are read within the current pass of a loop, also when the whole loop
/// is one line (one line entry, so no `LINE` between passes): d[3] read i = 3 and offset only.
#[test]
fn origin_of_a_write_in_a_one_line_loop_stays_in_its_pass() {
    let work = tempfile::tempdir().unwrap();
    let trace = record(
        &repo().join("tests/omniscient/oneline"),
        "OneLine",
        &[],
        work.path(),
        "oneline",
    );
    let node = calls(&trace, "OneLine.squares")[0]["id"].to_string();
    let history = hindsight_json(&["history", s(&trace), &format!("{node}:d[3]"), "--json"]);
    let at = history["entries"][0]["timestamp"].to_string();
    let w = origin_write(&trace, &format!("{node}:d[3]"), &at);
    let inputs: Vec<(String, String)> = w["inputs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            (
                i["path"]
                    .as_str()
                    .unwrap()
                    .trim_start_matches(&format!("{node}:"))
                    .to_string(),
                i["value"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert!(
        inputs.iter().all(|(p, v)| p != "i" || v == "3"),
        "an input from another pass: {inputs:?}"
    );
    for want in ["i", "offset"] {
        assert!(
            inputs.iter().any(|(p, _)| p == want),
            "no input {want}: {inputs:?}"
        );
    }
}

#[test]
fn node_state_in_the_middle_of_a_call_and_bad_paths() {
    let work = tempfile::tempdir().unwrap();
    let trace = record(
        &mergesort_src(),
        "mergesort.MergeSort",
        &[],
        work.path(),
        "mergesort",
    );
    let last = calls(&trace, "mergesort.MergeSort.merge").pop().unwrap();
    let node = last["id"].as_u64().unwrap().to_string();
    let entry = last["entry"].as_u64().unwrap();
    // At the entry nothing has changed yet.
    let state = hindsight_json(&[
        "node",
        s(&trace),
        &node,
        "--at",
        &entry.to_string(),
        "--json",
    ]);
    assert!(
        state["variables"]
            .as_array()
            .unwrap()
            .iter()
            .all(|v| v["mark"] == "unchanged"),
        "{state:#}"
    );
    // Before its entry the node has no state.
    let out = hindsight(&[
        "node",
        s(&trace),
        &node,
        "--at",
        &(entry - 1).to_string(),
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(125));
    assert!(String::from_utf8_lossy(&out.stderr).contains("outside node"));
    // A call into the JDK (`Arrays.toString`) has no variables of its own: the error says so.
    let tree = hindsight_json(&["tree", s(&trace), "--json"]);
    let jdk = tree["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["method"] == "java.util.Arrays.toString")
        .expect("a call of Arrays.toString");
    assert_eq!(jdk["kind"], "external");
    let out = hindsight(&["node", s(&trace), &jdk["id"].to_string()]);
    assert_eq!(out.status.code(), Some(125));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("a call into uninstrumented code"), "{err}");
    for (path, problem) in [
        (format!("{node}:nothing"), "has no variable `nothing`"),
        (format!("{node}:c[4]"), "index 4 out of bounds for length 4"),
        (format!("{node}:la.x"), "has no `.x`"),
        ("c[2]".to_string(), "bad variable path"),
        (
            "static:mergesort.MergeSort.none".to_string(),
            "no such static field",
        ),
    ] {
        let out = hindsight(&["history", s(&trace), &path, "--json"]);
        assert_eq!(out.status.code(), Some(125), "{path}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(problem), "{path}: {err}");
    }
}

#[test]
fn exceptions_thrown_caught_and_uncaught() {
    let work = tempfile::tempdir().unwrap();
    let trace = record(
        &repo().join("tests/omniscient"),
        "omni.Exceptions",
        &[],
        work.path(),
        "exceptions",
    );
    let checks = calls(&trace, "omni.Exceptions.check");
    let safes = calls(&trace, "omni.Exceptions.safe");
    // check(-1) ends with the exception; check(2) returns.
    let thrown = hindsight_json(&["node", s(&trace), &checks[0]["id"].to_string(), "--json"]);
    assert_eq!(thrown["exception"], "IllegalArgumentException");
    assert_eq!(thrown["result"], "throws IllegalArgumentException");
    let fine = hindsight_json(&["node", s(&trace), &checks[1]["id"].to_string(), "--json"]);
    assert_eq!(
        (fine["exception"].clone(), fine["result"].clone()),
        (Value::Null, Value::from("2"))
    );
    let events = hindsight_json(&["events", s(&trace), &checks[0]["id"].to_string(), "--json"]);
    let throw = events["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["kind"] == "throw")
        .unwrap();
    assert_eq!(
        (throw["text"].as_str(), throw["line"].as_u64()),
        (Some("throw IllegalArgumentException"), Some(7))
    );
    // safe(-1) catches it on its catch line and returns 0.
    let events = hindsight_json(&["events", s(&trace), &safes[0]["id"].to_string(), "--json"]);
    let list = events["events"].as_array().unwrap();
    let kinds: Vec<&str> = list.iter().map(|e| e["kind"].as_str().unwrap()).collect();
    let unwind = kinds.iter().position(|k| *k == "unwind").unwrap();
    assert_eq!(kinds[unwind + 1], "catch", "{kinds:?}");
    assert_eq!(
        list[unwind]["text"],
        "unwind from Exceptions.check by IllegalArgumentException"
    );
    assert_eq!(list[unwind + 1]["text"], "catch IllegalArgumentException");
    let safe = hindsight_json(&["node", s(&trace), &safes[0]["id"].to_string(), "--json"]);
    assert_eq!(
        (safe["result"].as_str(), &safe["exception"]),
        (Some("0"), &Value::Null)
    );
    // The exceptions query names each exception object by its id, the program's own (shown by
    // its content) as the JDK's (shown by class and id), so that `object-state` can follow it.
    let listed = hindsight_json(&["query", s(&trace), "exceptions", "--json"]);
    let text = hindsight(&["query", s(&trace), "exceptions"]);
    let text = String::from_utf8(text.stdout).unwrap();
    let exceptions = listed["exceptions"].as_array().unwrap();
    assert_eq!(exceptions.len(), 2, "{listed:#}");
    for e in exceptions {
        let id = e["exception"]["object"].as_u64().expect("an object id");
        let line = text
            .lines()
            .find(|l| l.contains(e["class"].as_str().unwrap()))
            .unwrap();
        assert!(line.contains(&format!("#{id}")), "{line}");
    }
    assert!(text.contains("code=7"), "{text}");

    // Uncaught: the JavaTA paper's traveling null ends main with a NullPointerException.
    let trace = record(
        &repo().join("tests/programs/travelingnull/buggy"),
        "travelingnull.Example",
        &[],
        work.path(),
        "travelingnull",
    );
    for method in ["travelingnull.Example.main", "travelingnull.Example.mN"] {
        let id = calls(&trace, method)[0]["id"].to_string();
        let state = hindsight_json(&["node", s(&trace), &id, "--json"]);
        assert_eq!(state["exception"], "NullPointerException", "{method}");
        let events = hindsight_json(&["events", s(&trace), &id, "--json"]);
        let last = events["events"].as_array().unwrap().last().unwrap().clone();
        assert_eq!(
            (last["kind"].as_str(), last["text"].as_str()),
            (Some("unwind"), Some("unwind by NullPointerException")),
            "{method}"
        );
    }
    // The null travelled from doSomeThing: mN's result argument was written by m2's call.
    let mn = calls(&trace, "travelingnull.Example.mN")[0].clone();
    let origin = hindsight_json(&[
        "origin",
        s(&trace),
        &format!("{}:result", mn["id"]),
        "--at",
        &mn["exit"].to_string(),
        "--json",
    ]);
    assert_eq!(origin["value"], "null");
    assert_eq!(origin["write"]["method"], "travelingnull.Example.m2");
}

fn threads(n: usize) {
    let work = tempfile::tempdir().unwrap();
    let trace = record(
        &repo().join("tests/omniscient"),
        "omni.Threads",
        &[&n.to_string()],
        work.path(),
        "threads",
    );
    let tree = hindsight_json(&["tree", s(&trace), "--json"]);
    let nodes = tree["nodes"].as_array().unwrap();
    let thread_nodes: Vec<&Value> = nodes.iter().filter(|n| n["kind"] == "thread").collect();
    assert!(thread_nodes.iter().all(|t| t["parent"] == 0));
    let runs = calls(&trace, "omni.Threads$Worker.run");
    assert_eq!(runs.len(), n);
    for i in 0..n {
        let name = format!("worker-{i}");
        assert!(
            thread_nodes.iter().any(|t| t["thread"] == name.as_str()),
            "no thread node {name}"
        );
        // Each slot counts 1..=50, every write by its own worker's run, in time order.
        let history = hindsight_json(&[
            "history",
            s(&trace),
            &format!("static:omni.Threads.slots[{i}]"),
            "--json",
        ]);
        let entries = history["entries"].as_array().unwrap();
        let values: Vec<String> = entries
            .iter()
            .map(|e| e["value"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(
            values,
            (1..=50).map(|v| v.to_string()).collect::<Vec<_>>(),
            "slot {i}"
        );
        let run = runs.iter().find(|r| r["thread"] == name.as_str()).unwrap();
        assert!(
            entries
                .iter()
                .all(|e| e["node"] == run["id"] && e["thread"] == name.as_str() && e["line"] == 18),
            "slot {i}"
        );
        // The run's event list stays in its thread and in time order.
        let events = hindsight_json(&[
            "events",
            s(&trace),
            &run["id"].to_string(),
            "--json",
            "--limit",
            "1000",
        ]);
        let list = events["events"].as_array().unwrap();
        assert!(list.iter().all(|e| e["thread"] == name.as_str()));
        assert!(
            list.iter()
                .any(|e| e["text"] == format!("Threads.slots[{i}] = 50")),
            "{events:#}"
        );
        let stamps: Vec<u64> = list
            .iter()
            .map(|e| e["timestamp"].as_u64().unwrap())
            .collect();
        assert!(stamps.windows(2).all(|w| w[0] < w[1]));
        let state = hindsight_json(&[
            "node",
            s(&trace),
            &run["id"].to_string(),
            "--json",
            "--expand",
            &format!("{}:this", run["id"]),
        ]);
        let this = var(&state, "this");
        assert_eq!(this["mark"], "contents-changed");
        assert_eq!(child(this, "count")["value"], "50");
        assert_eq!(child(this, "id")["value"], i.to_string());
    }
}

#[test]
fn two_threads() {
    threads(2);
}

#[test]
fn eight_threads() {
    threads(8);
}

#[test]
fn a_deep_graph_expands_lazily() {
    let work = tempfile::tempdir().unwrap();
    let trace = record(
        &repo().join("tests/omniscient"),
        "omni.Chain",
        &[],
        work.path(),
        "chain",
    );
    let negate = calls(&trace, "omni.Chain.negateLast")[0]["id"].to_string();
    let state = hindsight_json(&["node", s(&trace), &negate, "--json"]);
    let head = var(&state, "head");
    // The change is 999 references away, yet head is marked; nothing is expanded unasked.
    assert_eq!(head["mark"], "contents-changed");
    assert!(head["children"].as_array().unwrap().is_empty());
    assert_eq!(head["size"], 2);
    assert_eq!(
        var(&state, "p")["value"],
        "Chain.Node{next=null, value=-1000}"
    );
    // Expanding head.next.next lists three levels, each with its own mark.
    let deep = format!("{negate}:head.next.next");
    let state = hindsight_json(&["node", s(&trace), &negate, "--json", "--expand", &deep]);
    let level3 = child(child(var(&state, "head"), "next"), "next");
    assert_eq!(level3["path"], deep);
    assert_eq!(level3["mark"], "contents-changed");
    assert_eq!(child(level3, "value")["value"], "3");
    assert_eq!(child(level3, "value")["mark"], "unchanged");
    assert!(child(level3, "next")["children"]
        .as_array()
        .unwrap()
        .is_empty());
    // The last node's value: written by its constructor, then negated.
    let history = hindsight_json(&["history", s(&trace), &format!("{negate}:p.value"), "--json"]);
    let values: Vec<&str> = history["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["value"].as_str().unwrap())
        .collect();
    assert_eq!(values, ["1000", "-1000"]);
    // A null on the way is an error that says so.
    let out = hindsight(&["history", s(&trace), &format!("{negate}:p.next.value")]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("null on the way"));
}

#[test]
fn children_come_in_pages() {
    let work = tempfile::tempdir().unwrap();
    let trace = record(
        &repo().join("tests/omniscient"),
        "omni.Threads",
        &["8"],
        work.path(),
        "threads",
    );
    let main = calls(&trace, "omni.Threads.main")[0]["id"].to_string();
    let path = format!("{main}:threads");
    let page = hindsight_json(&[
        "node",
        s(&trace),
        &main,
        "--json",
        "--expand",
        &path,
        "--offset",
        "5",
        "--limit",
        "2",
    ]);
    assert_eq!(page["page"]["size"], 8);
    let names: Vec<&str> = page["page"]["children"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["[5]", "[6]"]);
}

#[test]
fn every_command_has_help_and_json() {
    for (command, option) in [
        ("node", "--expand"),
        ("events", "--var"),
        ("history", "--limit"),
        ("origin", "--source-path"),
    ] {
        let out = hindsight(&[command, "--help"]);
        assert!(out.status.success(), "{command} --help");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.contains(option) && text.contains("--json"),
            "{command} --help:\n{text}"
        );
    }
    // `origin` needs the timestamp.
    let out = hindsight(&["origin", "t.htrace", "1:x"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_thread_node_lists_its_top_level_calls() {
    let work = tempfile::tempdir().unwrap();
    let trace = record(
        &mergesort_src(),
        "mergesort.MergeSort",
        &[],
        work.path(),
        "mergesort",
    );
    let main = calls(&trace, "mergesort.MergeSort.main")[0].clone();
    let events = hindsight_json(&["events", s(&trace), &main["parent"].to_string(), "--json"]);
    let list = events["events"].as_array().unwrap();
    let call = list.iter().find(|e| e["kind"] == "call").unwrap();
    assert_eq!(
        (
            call["node"].clone(),
            call["text"]
                .as_str()
                .unwrap()
                .starts_with("call MergeSort.main(")
        ),
        (main["id"].clone(), true)
    );
    assert_eq!(list.last().unwrap()["text"], "return from MergeSort.main");
}
