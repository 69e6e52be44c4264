//! End to end: the JavaTA paper's traveling null pointer (Figure 1, our copy in
//! `tests/javata/travelingnull`), recorded with the real agent, asked the paper's three
//! questions through `hindsight query` and through `hindsight prolog` with the paper's rule
//! names (Table 1); and SQL, the JEL export, diff and tree on the same run; bad input.

mod common;

use std::path::{Path, PathBuf};

use common::{hindsight, hindsight_json, javac, record, repo};
use serde_json::Value;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Records the paper's program once per test (each test has its own directory).
fn traveling_null(work: &Path) -> PathBuf {
    let classes = work.join("classes");
    javac(&repo().join("tests/javata/travelingnull"), &classes);
    let trace = work.join("travelingnull.htrace");
    let summary = record(&classes, "Example", &trace);
    assert_eq!(summary["traces"][0]["ending"]["ending"], "end", "{summary}");
    trace
}

fn methods(calls: &Value) -> Vec<String> {
    calls
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["method"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn the_papers_debugging_session_through_the_queries() {
    let work = tempfile::tempdir().unwrap();
    let trace = traveling_null(work.path());
    // Q1: where the exception was thrown: mN with its null argument.
    let q1 = hindsight_json(&["query", s(&trace), "where-exception-is-thrown", "--json"]);
    let ex = &q1["exceptions"][0];
    assert_eq!(ex["thread"], "main", "{q1:#}");
    assert_eq!(ex["class"], "java.lang.NullPointerException");
    assert_eq!(ex["environment"]["method"], "Example.mN", "{q1:#}");
    assert_eq!(ex["environment"]["args"][0]["name"], "result");
    assert_eq!(ex["environment"]["args"][0]["value"], "null");
    assert_eq!(ex["thrown"]["file"], "Example.java");
    assert_eq!(ex["thrown"]["line"], 14);
    // Q2: the full call chain of the exception: mN, m2, m1, the constructor, main.
    let thrown = ex["thrown"]["timestamp"].as_u64().unwrap().to_string();
    let q2 = hindsight_json(&["query", s(&trace), "call-chain", &thrown, "--json"]);
    assert_eq!(
        methods(&q2["calls"]),
        [
            "Example.mN",
            "Example.m2",
            "Example.m1",
            "Example.<init>",
            "Example.main"
        ],
        "{q2:#}"
    );
    assert_eq!(q2["calls"][1]["args"][0]["value"], "null");
    // Q3: the calls before m2's call in m1: the constructor, and doSomeThing returning null.
    let m2 = &q2["calls"][1];
    let call_m2 = m2["call_event"].as_u64().unwrap().to_string();
    let q3 = hindsight_json(&[
        "query",
        s(&trace),
        "pre-event-called-methods",
        &call_m2,
        "--json",
    ]);
    assert_eq!(q3["environment"]["method"], "Example.m1", "{q3:#}");
    assert_eq!(
        methods(&q3["calls"]),
        ["FarAWayClass.<init>", "FarAWayClass.doSomeThing"]
    );
    let d = &q3["calls"][1];
    assert_eq!(d["outcome"], "returned");
    assert_eq!(d["result"]["value"], "null");
    // The answers name nodes that `node` takes over from.
    let node = d["node"].as_u64().unwrap().to_string();
    let state = hindsight_json(&["node", s(&trace), &node, "--json"]);
    assert_eq!(state["method"], "FarAWayClass.doSomeThing");
}

#[test]
fn the_papers_debugging_session_through_prolog() {
    let work = tempfile::tempdir().unwrap();
    let trace = traveling_null(work.path());
    let ask = |goal: &str| hindsight_json(&["prolog", s(&trace), goal, "--json"]);
    // A1: Environment = event(Id, main, methodcall(l('Example.java', 14), o('Example', _), mN, [null]))
    let a1 = ask("where_exception_is_thrown('main', Environment)");
    let env = a1["solutions"][0]["Environment"].as_str().unwrap();
    assert!(
        env.contains("methodcall(l('Example.java',14),o('Example',")
            && env.ends_with(",mN,[null]))"),
        "{a1:#}"
    );
    // A2: the chain from the exception event (the paper's Q2 asks it of event 15): mN, m2,
    // m1, <init>, main.
    let a2 = ask(
        "event(Id, main, exception(_, _, _, uncaught)), full_detail_call_chain(Id, C), \
         findall(N, member(event(_, _, methodcall(_, _, N, _)), C), Names)",
    );
    assert_eq!(
        a2["solutions"][0]["Names"], "[mN,m2,m1,'<init>',main]",
        "{a2:#}"
    );
    // A3: before the call of m2, within m1: FarAWayClass.<init> and doSomeThing returning null.
    let a3 = ask(
        "event(Id, main, methodcall(_, _, m2, _)), pre_event_called_methods(Id, PreCalled), \
         findall(N-V, member([_, event(_, _, methodexit(_, _, _, N, V))], PreCalled), Exits)",
    );
    assert_eq!(
        a3["solutions"][0]["Exits"], "['<init>'-void,doSomeThing-null]",
        "{a3:#}"
    );
    // A goal that fails: exit status 1 and no solution.
    let out = hindsight(&["prolog", s(&trace), "called(nothing_like_this)"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("false."));
    // A goal that does not parse: exit status 2 and the reason.
    let out = hindsight(&["prolog", s(&trace), "foo(("]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("does not parse"));
    // A user's rule file (the paper's behaviour views).
    let rules = work.path().join("views.pl");
    std::fs::write(
        &rules,
        "null_result(M) :- event(_, _, methodexit(_, _, _, M, null)).\n",
    )
    .unwrap();
    let v = hindsight_json(&[
        "prolog",
        s(&trace),
        "null_result(M)",
        "--consult",
        s(&rules),
        "--json",
    ]);
    assert_eq!(v["solutions"][0]["M"], "doSomeThing", "{v:#}");
}

#[test]
fn sql_export_diff_and_tree_on_the_same_run() {
    let work = tempfile::tempdir().unwrap();
    let trace = traveling_null(work.path());
    let sql = hindsight_json(&[
        "sql",
        s(&trace),
        "SELECT method, args, result FROM calls WHERE name = 'doSomeThing'",
        "--json",
    ]);
    assert_eq!(
        sql["columns"],
        serde_json::json!(["method", "args", "result"])
    );
    assert_eq!(sql["rows"][0][0], "FarAWayClass.doSomeThing");
    assert_eq!(sql["rows"][0][2], "null");
    let events = hindsight_json(&["sql", s(&trace), "SELECT count(*) FROM events", "--json"]);
    let info = hindsight_json(&["info", s(&trace), "--json"]);
    assert_eq!(events["rows"][0][0], info["events"]);
    let file = work.path().join("q.sql");
    std::fs::write(
        &file,
        "-- where was line 14 run\nSELECT node, method FROM lines WHERE line = 14;\n",
    )
    .unwrap();
    let lines = hindsight_json(&["sql", s(&trace), "-f", s(&file), "--json"]);
    assert_eq!(lines["rows"][0][1], "Example.mN", "{lines:#}");
    // Writing is refused, with exit status 2.
    let out = hindsight(&["sql", s(&trace), "DELETE FROM methods"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("read only"));
    let out = hindsight(&["sql", s(&trace), "SELEKT 1"]);
    assert_eq!(out.status.code(), Some(2));

    let jel = work.path().join("run.pl");
    let stats = hindsight_json(&["export", "--jel", s(&trace), "-o", s(&jel), "--json"]);
    assert!(stats["facts"].as_u64().unwrap() > 10);
    let text = std::fs::read_to_string(&jel).unwrap();
    assert!(
        text.contains(",'main',methodcall(l('Example.java',26),o('FarAWayClass',"),
        "{text}"
    );

    // A second, identical run: the same calls; the paper's fixed program differs.
    let same = diff_status(&trace, &trace);
    assert_eq!(same.0, Some(0), "{}", same.1);
    let fixed_src = work.path().join("fixed");
    std::fs::create_dir_all(&fixed_src).unwrap();
    let src =
        std::fs::read_to_string(repo().join("tests/javata/travelingnull/Example.java")).unwrap();
    std::fs::write(
        fixed_src.join("Example.java"),
        src.replace("return null;", "return \"some result\";"),
    )
    .unwrap();
    let fixed_classes = work.path().join("fixed-classes");
    javac(&fixed_src, &fixed_classes);
    let fixed = work.path().join("fixed.htrace");
    record(&fixed_classes, "Example", &fixed);
    let d = hindsight(&["diff", s(&trace), s(&fixed), "--json"]);
    assert_eq!(d.status.code(), Some(1));
    let d: Value = serde_json::from_slice(&d.stdout).unwrap();
    let kinds: Vec<(String, String)> = d["differences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| {
            (
                x["path"]
                    .as_str()
                    .unwrap()
                    .rsplit(" / ")
                    .next()
                    .unwrap()
                    .to_string(),
                x["kind"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert!(
        kinds.contains(&("FarAWayClass.doSomeThing#0".into(), "result".into())),
        "{d:#}"
    );
    assert!(
        kinds.contains(&("Example.m2#0".into(), "arguments".into())),
        "{d:#}"
    );

    let tree = hindsight_json(&["tree", s(&trace), "--from", "4", "--depth", "1", "--json"]);
    assert_eq!(
        methods_of_tree(&tree),
        [
            "Example.m1",
            "FarAWayClass.<init>",
            "FarAWayClass.doSomeThing",
            "Example.m2"
        ]
    );
    assert_eq!(tree["truncated"], true);
    let tree = hindsight_json(&["tree", s(&trace), "--limit", "2", "--json"]);
    assert_eq!(tree["nodes"].as_array().unwrap().len(), 2);
}

fn methods_of_tree(tree: &Value) -> Vec<String> {
    tree["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["method"].as_str().unwrap_or("").to_string())
        .collect()
}

fn diff_status(a: &Path, b: &Path) -> (Option<i32>, String) {
    let out = hindsight(&["diff", s(a), s(b)]);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn bad_input_has_a_clear_message_and_a_documented_status() {
    let work = tempfile::tempdir().unwrap();
    let trace = traveling_null(work.path());
    let cases: &[(&[&str], i32, &str)] = &[
        (&["query", s(&trace), "nope"], 2, "there is no query `nope`"),
        (&["query", s(&trace), "call-chain"], 2, "missing argument"),
        (
            &["query", s(&trace), "call-chain", "99999"],
            125,
            "no event at timestamp 99999",
        ),
        (
            &["query", s(&trace), "object-state", "#999"],
            125,
            "no object #999",
        ),
        (&["query", s(&trace), "last-write", "4:nope"], 125, "nope"),
        (
            &["query", s(&trace), "executed", "Example.java:999"],
            125,
            "line 999",
        ),
        (
            &["query", s(&trace), "executed", "Other.java:3"],
            125,
            "Other.java",
        ),
        (
            &["query", s(&trace), "calls", "mN", "--where", "arg0 ==="],
            2,
            "does not parse",
        ),
        (
            &["query", s(&trace), "threads", "--from", "3"],
            2,
            "does not apply",
        ),
    ];
    for (args, status, message) in cases {
        let out = hindsight(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(*status), "{args:?}: {err}");
        assert!(err.contains(message), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    let not_a_trace = work.path().join("x.htrace");
    std::fs::write(&not_a_trace, "hello").unwrap();
    let out = hindsight(&["query", s(&not_a_trace), "threads"]);
    assert_eq!(out.status.code(), Some(125));
}

#[test]
fn prolog_without_swipl_says_what_to_install() {
    let empty = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hindsight"))
        .args(["prolog", "any.htrace", "true"])
        .env("PATH", empty.path())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(127), "{err}");
    assert!(err.contains("swi-prolog-nox"), "{err}");
}

/// `diff` compares the calls made in loops too, lined up by loop and iteration ordinals: the
/// paper's sumNumbers starts its loop at 1, so its first iteration asks `isEven(2)` where the
/// fixed one asks `isEven(1)`.
#[test]
fn diff_lines_up_the_calls_made_in_loops() {
    let work = tempfile::tempdir().unwrap();
    let trace = |version: &str| {
        let classes = work.path().join(version);
        javac(
            &repo().join("tests/programs/sumnumbers").join(version),
            &classes,
        );
        let trace = work.path().join(format!("{version}.htrace"));
        record(&classes, "sumnumbers.SumNumbers", &trace);
        trace
    };
    let (buggy, fixed) = (trace("buggy"), trace("fixed"));
    let d = hindsight(&["diff", s(&buggy), s(&fixed), "--json"]);
    assert_eq!(d.status.code(), Some(1));
    let d: Value = serde_json::from_slice(&d.stdout).unwrap();
    let first_even = d["differences"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| {
            x["path"]
                .as_str()
                .unwrap()
                .ends_with("loop#0 / iteration#0 / sumnumbers.SumNumbers.isEven#0")
        })
        .unwrap_or_else(|| panic!("no difference inside the loop: {d:#}"));
    assert_eq!(first_even["kind"], "arguments", "{first_even:#}");
}
