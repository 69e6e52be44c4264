//! The command line's contract: JSON shapes, exit statuses, and clear errors on bad input.

mod common;

use std::process::Command;

use common::{hindsight, hindsight_json, javac, javac_mutant, record, repo};

fn mergesort_trace() -> (tempfile::TempDir, std::path::PathBuf) {
    let work = tempfile::tempdir().unwrap();
    let classes = work.path().join("classes");
    javac(&repo().join("tests/programs/mergesort/buggy"), &classes);
    let trace = work.path().join("ms.htrace");
    let summary = record(&classes, "mergesort.MergeSort", &trace);
    assert_eq!(summary["exit_status"], 0, "{summary}");
    // The program's own time ends before the trace is complete (the store works behind it).
    let (program, wall) = (summary["program_ms"].as_u64(), summary["wall_ms"].as_u64());
    assert!(
        matches!((program, wall), (Some(p), Some(w)) if p > 0 && p <= w),
        "{summary}"
    );
    (work, trace)
}

#[test]
fn tree_json_lists_nodes_in_preorder_with_their_keys() {
    let (_work, trace) = mergesort_trace();
    let tree = hindsight_json(&["tree", trace.to_str().unwrap(), "--json", "--no-balance"]);
    let nodes = tree["nodes"].as_array().unwrap();
    assert_eq!(nodes[0]["parent"], serde_json::Value::Null);
    for key in [
        "id", "parent", "method", "thread", "entry", "exit", "complete", "trusted",
    ] {
        assert!(nodes[2].get(key).is_some(), "missing {key} in {}", nodes[2]);
    }
    let calls: Vec<&str> = nodes
        .iter()
        .filter(|n| n["kind"] == "routine")
        .filter_map(|n| n["method"].as_str())
        .collect();
    assert_eq!(
        calls
            .iter()
            .filter(|m| **m == "mergesort.MergeSort.merge")
            .count(),
        3,
        "{calls:?}"
    );
    // merge's loops and their iterations are nodes of merge too.
    assert!(nodes
        .iter()
        .any(|n| n["kind"] == "loop" && n["method"] == "mergesort.MergeSort.merge"));
    // Preorder: every node comes after its parent, and entries grow along each thread.
    for (i, n) in nodes.iter().enumerate().skip(1) {
        let parent = n["parent"].as_u64().unwrap();
        assert!(
            nodes[..i].iter().any(|p| p["id"].as_u64() == Some(parent)),
            "{n} before its parent"
        );
    }
    let println = nodes
        .iter()
        .find(|n| n["method"] == "java.io.PrintStream.println")
        .unwrap();
    assert_eq!(println["trusted"], true);
    assert!(nodes.iter().all(|n| n["complete"] == true));
}

/// A reader that stops early (`| head`) closes stdout: every command, whether it prints
/// with `println!` or through a writer, ends quietly with status 0 (it panicked, or reported an
/// error with status 125).
#[test]
fn a_reader_that_stops_early_ends_the_command_quietly() {
    let (_work, trace) = mergesort_trace();
    let t = trace.to_str().unwrap();
    for args in [
        vec!["info", t],
        vec!["tree", t],
        vec!["node", t, "3"],
        vec!["events", t, "3"],
        vec!["query", t, "threads"],
        vec!["tree", t, "--json"],
        vec!["sql", t, "select * from events"],
    ] {
        // The read end is closed before the command starts: its first write fails.
        let (reader, writer) = std::io::pipe().expect("pipe");
        drop(reader);
        let out = Command::new(env!("CARGO_BIN_EXE_hindsight"))
            .args(&args)
            .stdout(writer)
            .output()
            .expect("running hindsight");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
        assert!(stderr.is_empty(), "{args:?}: {stderr}");
    }
}

#[test]
fn info_json_tells_the_recording() {
    let (_work, trace) = mergesort_trace();
    let info = hindsight_json(&["info", trace.to_str().unwrap(), "--json"]);
    assert_eq!(info["exit_status"], 0);
    assert!(info["events"].as_u64().unwrap() > 100, "{info}");
    assert_eq!(info["nodes"], info["complete_nodes"]);
    assert!(info["bytes"].as_u64().unwrap() > 0);
    assert!(info["format_version"].as_u64().is_some());
}

#[test]
fn record_passes_the_exit_status_and_output_through() {
    let work = tempfile::tempdir().unwrap();
    let src = work.path().join("src");
    std::fs::create_dir_all(&src).unwrap();
    std::fs::write(
        src.join("Exit.java"),
        "public class Exit { public static void main(String[] a) { System.out.println(\"out:\" + a[0]); System.exit(7); } }",
    )
    .unwrap();
    javac(&src, &work.path().join("classes"));
    let trace = work.path().join("t.htrace");
    let out = hindsight(&[
        "record",
        "-o",
        trace.to_str().unwrap(),
        "--",
        "java",
        "-cp",
        work.path().join("classes").to_str().unwrap(),
        "Exit",
        "hello",
    ]);
    assert_eq!(
        out.status.code(),
        Some(7),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), "out:hello\n");
    assert!(String::from_utf8_lossy(&out.stderr).contains(trace.to_str().unwrap()));
}

#[test]
fn an_existing_trace_is_kept_as_old() {
    let (work, trace) = mergesort_trace();
    let classes = work.path().join("classes");
    record(&classes, "mergesort.MergeSort", &trace);
    let mut old = trace.as_os_str().to_owned();
    old.push(".old");
    assert!(std::path::Path::new(&old).is_file());
    hindsight_json(&["info", trace.to_str().unwrap(), "--json"]);
    hindsight_json(&[
        "info",
        std::path::Path::new(&old).to_str().unwrap(),
        "--json",
    ]);
}

#[test]
fn a_missing_java_is_a_clear_error_with_status_127() {
    let out = Command::new(env!("CARGO_BIN_EXE_hindsight"))
        .args(["record", "-o", "/tmp/never.htrace", "--", "java", "Main"])
        .env("PATH", "/nonexistent")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(127));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("`java`") && err.contains("PATH"), "{err}");
}

#[test]
fn a_file_that_is_not_a_trace_is_a_clear_error() {
    let work = tempfile::tempdir().unwrap();
    let junk = work.path().join("junk.htrace");
    std::fs::write(&junk, b"this is not a trace at all, just some text").unwrap();
    for command in ["debug", "tree", "info"] {
        let out = hindsight(&[command, junk.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(125), "{command}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.starts_with("hindsight: ") && err.contains("junk.htrace"),
            "{command}: {err}"
        );
    }
    let missing = work.path().join("missing.htrace");
    let out = hindsight(&["debug", missing.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(125));
    assert!(String::from_utf8_lossy(&out.stderr).contains("missing.htrace"));
}

#[test]
fn bad_arguments_are_usage_errors() {
    let out = hindsight(&["debug", "x.htrace", "--strategy", "sideways"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("sideways"));
    let out = hindsight(&["debug", "x.htrace", "--oracle", "psychic"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("interactive, answers:FILE or reference:TRACE"));
    let out = hindsight(&["record"]);
    assert_eq!(out.status.code(), Some(2));
}

/// MergeSort's execution forest: with loop expansion `sort`'s calls hang below the iterations
/// of its loops, and the iterations of a loop are a chain (each starts where the previous one
/// ended), so runs of iterations are projected under forest nodes of their own. (Collapsed
/// chains of calls are tested on hand-made trees in `tree::forest`.)
#[test]
fn tree_shows_the_execution_forest_and_node_refuses_its_projected_nodes() {
    let (_work, trace) = mergesort_trace();
    let t = trace.to_str().unwrap();
    let forest = hindsight_json(&["tree", t, "--json", "--forest"]);
    let nodes = forest["nodes"].as_array().unwrap();
    let of = |kind: &str| -> Vec<&serde_json::Value> {
        nodes.iter().filter(|n| n["kind"] == kind).collect()
    };
    for c in of("collapsed") {
        let calls = c["calls"].as_array().unwrap();
        assert!(calls[0].as_u64() < calls[1].as_u64(), "{c}");
    }
    let projected = of("projected");
    assert!(!projected.is_empty(), "{forest:#}");
    // A projected node over iterations of sort's loop: its children are iterations.
    let over_iterations = projected.iter().any(|p| {
        let children: Vec<_> = nodes.iter().filter(|n| n["parent"] == p["id"]).collect();
        children.len() >= 2 && children.iter().all(|c| c["kind"] == "iteration")
    });
    assert!(over_iterations, "{forest:#}");
    // Loops left out, the calls made in sort's iterations are siblings again: the two merges
    // in a row (static calls of one class, sort writes only locals between them) collapse.
    let calls_only = hindsight_json(&["tree", t, "--json", "--forest", "--no-loops"]);
    let nodes_only = calls_only["nodes"].as_array().unwrap();
    assert!(nodes_only
        .iter()
        .all(|n| n["kind"] != "loop" && n["kind"] != "iteration"));
    let collapsed: Vec<_> = nodes_only
        .iter()
        .filter(|n| n["kind"] == "collapsed")
        .collect();
    assert_eq!(collapsed.len(), 1, "{calls_only:#}");
    assert_eq!(collapsed[0]["method"], "mergesort.MergeSort.merge");
    let id = projected[0]["id"].as_u64().unwrap();
    assert!(id >= 1 << 31, "projected ids are the forest's own: {id}");
    for (i, n) in nodes.iter().enumerate().skip(1) {
        let parent = n["parent"].as_u64().unwrap();
        assert!(nodes[..i].iter().any(|p| p["id"].as_u64() == Some(parent)));
    }
    // The plain tree has neither.
    let plain = hindsight_json(&["tree", t, "--json", "--no-balance"]);
    let kinds: Vec<&str> = plain["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|n| n["kind"].as_str())
        .collect();
    assert!(!kinds.contains(&"collapsed") && !kinds.contains(&"projected"));
    // A projected node is the session's: the trace's queries say so.
    let out = hindsight(&["node", t, &id.to_string()]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("projected node of the execution forest"),
        "{err}"
    );
    // The bug in merge is still found, the forest's nodes judged by their calls' rules.
    let answers = repo().join("tests/programs/mergesort/answers.txt");
    let oracle = format!("answers:{}", answers.display());
    // MergeSort's answers say nothing of loops: the session asks about calls only.
    for strategy in ["top-down", "divide-and-query"] {
        let report = hindsight_json(&[
            "debug",
            t,
            "--json",
            "--no-loops",
            "--strategy",
            strategy,
            "--oracle",
            &oracle,
        ]);
        assert_eq!(report["result"], "bug", "{report:#}");
        assert_eq!(
            report["buggy_node"]["method"], "mergesort.MergeSort.merge",
            "{report:#}"
        );
        let asked: Vec<&str> = report["dialogue"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|d| d["question"].as_str())
            .collect();
        // Left out, loops are neither asked nor projected; chains of calls are.
        assert!(asked.iter().all(|q| !q.contains("loop at")), "{asked:?}");
        assert!(
            asked.iter().any(|q| q.contains(" calls MergeSort.")),
            "{asked:?}"
        );
    }
}

/// `bench forest --json`: the balanced-ET paper's Table 1 row of a trace, every askable call an
/// experiment, each strategy's average and worst case on the tree and on the forest.
#[test]
fn bench_forest_reports_every_strategy_on_the_tree_and_the_forest() {
    let (_work, trace) = mergesort_trace();
    let t = trace.to_str().unwrap();
    let out = hindsight_json(&["bench", "forest", t, "--json"]);
    let row = &out["traces"][0];
    assert_eq!(row["trace"], t);
    let nodes = row["nodes"].as_u64().unwrap();
    // MergeSort's calls; the experiments are every askable node, its loops and iterations too.
    assert!(nodes >= 5, "{row:#}");
    assert!(
        row["inserted"]["projected"].as_u64().unwrap() > 0,
        "{row:#}"
    );
    let questions = row["questions"].as_object().unwrap();
    let names: Vec<&str> = questions.keys().map(|k| k.as_str()).collect();
    assert_eq!(names, ["divide-and-query", "optimal", "top-down"]);
    for (name, q) in questions {
        let experiments = q["experiments"].as_u64().unwrap();
        assert!(experiments > 0 && experiments <= nodes, "{name}: {q}");
        // Every experiment's buggy call is found on the forest too.
        assert_eq!(q["found"], experiments, "{name}: {q}");
        for (avg, worst) in [("tree", "worst_tree"), ("forest", "worst_forest")] {
            let (avg, worst) = (q[avg].as_f64().unwrap(), q[worst].as_u64().unwrap());
            assert!(avg >= 1.0 && avg <= worst as f64, "{name}: {q}");
        }
    }
}

#[test]
fn interactive_answers_come_from_stdin_and_undo_works() {
    let (_work, trace) = mergesort_trace();
    // main: no, sort: no, distribute: yes, merge 1: undo it, then yes, yes, distribute yes, last merge no.
    let answers = "n\nn\ny\ny\nu\ny\ny\ny\nn\n";
    let mut child = Command::new(env!("CARGO_BIN_EXE_hindsight"))
        .args([
            "debug",
            trace.to_str().unwrap(),
            "--json",
            "--no-loops",
            "--no-balance",
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(answers.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["result"], "bug", "{report:#}");
    assert_eq!(report["buggy_node"]["method"], "mergesort.MergeSort.merge");
    assert_eq!(
        report["questions"], 7,
        "the undone answer is not counted: {report:#}"
    );
    let prompts = String::from_utf8_lossy(&out.stderr);
    assert!(
        prompts
            .contains("(1) MergeSort.main(args=[])? [y]es [n]o [t]rust [d]on't know [u]ndo [q]uit"),
        "{prompts}"
    );
}

#[test]
fn end_of_input_stops_the_session_without_hanging() {
    let (_work, trace) = mergesort_trace();
    let out = Command::new(env!("CARGO_BIN_EXE_hindsight"))
        .args(["debug", trace.to_str().unwrap(), "--json"])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(out.status.success());
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["result"], "undecided");
    assert_eq!(report["stopped"], true);
}

#[test]
fn reference_classes_let_the_reference_oracle_judge_states_the_fixed_run_never_reached() {
    // The corpus's bst with its mutant bst-1 (`c <= 0` in put), recorded beside the correct one.
    let dir = tempfile::tempdir().unwrap();
    let src = repo().join("tests/corpus/bst/src");
    let fixed = dir.path().join("fixed");
    javac(&src, &fixed);
    let buggy = dir.path().join("buggy");
    javac_mutant(
        &src,
        "bst",
        ("BinarySearchTree.java", "if (c < 0) {", "if (c <= 0) {"),
        &dir.path().join("buggy-src"),
        &buggy,
    );
    let (fixed_trace, buggy_trace) = (
        dir.path().join("fixed.htrace"),
        dir.path().join("buggy.htrace"),
    );
    record(&fixed, "bst.Main", &fixed_trace);
    record(&buggy, "bst.Main", &buggy_trace);

    let reference = format!("reference:{}", fixed_trace.display());
    let debug = |extra: &[&str]| {
        let mut args = vec![
            "debug",
            buggy_trace.to_str().unwrap(),
            "--oracle",
            &reference,
            "--strategy",
            "divide-and-query",
            "--json",
        ];
        args.extend_from_slice(extra);
        hindsight_json(&args)
    };
    // Rules 1 and 2 leave the later puts undecided; replaying them names the buggy call.
    let without = debug(&[]);
    assert_eq!(without["result"], "undecided", "{without:#}");
    let with = debug(&["--reference-classes", fixed.to_str().unwrap()]);
    assert_eq!(with["result"], "bug", "{with:#}");
    assert_eq!(
        with["buggy_node"]["method"], "bst.BinarySearchTree.put",
        "{with:#}"
    );

    // Without a reference trace the option means nothing: a clear error, not a silent no-op.
    let out = hindsight(&[
        "debug",
        buggy_trace.to_str().unwrap(),
        "--reference-classes",
        fixed.to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--reference-classes needs --oracle reference:TRACE"),
        "{err}"
    );
}
