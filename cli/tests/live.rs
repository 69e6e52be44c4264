//! Live sessions and crashes, end to end: `hindsight debug -- java ...` asks while the program
//! runs and reaches the verdict of the recorded trace; a program killed mid-run leaves a
//! debuggable trace; a killed recorder leaves the program running to its end.

mod common;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, ChildStderr, Command, Stdio};

use common::{hindsight, hindsight_json, javac, record, repo};

fn steps_classes(work: &Path) -> std::path::PathBuf {
    let classes = work.join("steps");
    javac(&repo().join("tests/live/steps"), &classes);
    classes
}

fn steps_answers() -> String {
    format!(
        "answers:{}",
        repo().join("tests/live/steps/answers.txt").display()
    )
}

/// `hindsight debug --json ARGS -- java -cp CLASSES MAIN PROGRAM_ARGS`.
fn debug_live(
    args: &[&str],
    classes: &Path,
    main: &str,
    program_args: &[&str],
) -> serde_json::Value {
    let mut all = vec!["debug", "--json"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--", "java", "-cp", classes.to_str().unwrap(), main]);
    all.extend_from_slice(program_args);
    hindsight_json(&all)
}

/// The verdict of a report: its result and buggy node.
fn verdict(report: &serde_json::Value) -> (serde_json::Value, serde_json::Value) {
    (report["result"].clone(), report["buggy_node"].clone())
}

#[test]
fn live_mergesort_reaches_the_verdict_of_the_recorded_trace() {
    let dir = repo().join("tests/programs/mergesort");
    let work = tempfile::tempdir().unwrap();
    let (buggy, fixed) = (work.path().join("buggy"), work.path().join("fixed"));
    javac(&dir.join("buggy"), &buggy);
    javac(&dir.join("fixed"), &fixed);
    let reference_trace = work.path().join("fixed.htrace");
    record(&fixed, "mergesort.MergeSort", &reference_trace);
    let answers = format!("answers:{}", dir.join("answers.txt").display());
    let reference = format!("reference:{}", reference_trace.display());
    for strategy in ["top-down", "divide-and-query"] {
        for oracle in [&answers, &reference] {
            let trace = work.path().join(format!("live-{strategy}.htrace"));
            let args = [
                "--strategy",
                strategy,
                "--oracle",
                oracle,
                "-o",
                trace.to_str().unwrap(),
            ];
            let live = debug_live(&args, &buggy, "mergesort.MergeSort", &[]);
            let recorded = hindsight_json(&[
                "debug",
                trace.to_str().unwrap(),
                "--json",
                "--strategy",
                strategy,
                "--oracle",
                oracle,
            ]);
            assert_eq!(live["result"], "bug", "{strategy} {oracle}: {live:#}");
            assert_eq!(
                live["buggy_node"]["method"], "mergesort.MergeSort.merge",
                "{strategy} {oracle}: {live:#}"
            );
            assert_eq!(
                verdict(&live),
                verdict(&recorded),
                "{strategy} {oracle}: live {live:#}\nrecorded {recorded:#}"
            );
            assert!(live["tree_complete_ms"].as_u64().is_some(), "{live:#}");
            // Oracles that answer at once wait for the store by default.
            assert_eq!(live["pace"], "behind-the-store", "{live:#}");
            assert!(live["paced_ms"].as_u64().is_some(), "{live:#}");
            assert!(live["peak_rss_bytes"].as_u64().unwrap() > 0, "{live:#}");
        }
    }
}

#[test]
fn the_first_question_comes_while_the_program_runs() {
    let work = tempfile::tempdir().unwrap();
    let classes = steps_classes(work.path());
    let trace = work.path().join("steps.htrace");
    // Asked as a person is (answer rules alone wait for the store: `--pace`).
    let report = debug_live(
        &[
            "--oracle",
            &steps_answers(),
            "--pace",
            "ready",
            "-o",
            trace.to_str().unwrap(),
        ],
        &classes,
        "live.Steps",
        &["20"],
    );
    assert_eq!(report["result"], "bug", "{report:#}");
    assert_eq!(report["pace"], "ready", "{report:#}");
    assert_eq!(
        report["buggy_node"]["method"], "live.Steps.cube",
        "{report:#}"
    );
    // Ordering facts, not timings: questions were asked before the session had the whole tree,
    // i.e. before the program's last call returned.
    assert!(
        report["questions_before_complete"].as_u64().unwrap() >= 1,
        "{report:#}"
    );
    let first = report["first_question_ms"].as_u64().unwrap();
    let complete = report["tree_complete_ms"].as_u64().unwrap();
    assert!(
        first < complete,
        "first question at {first} ms, tree complete at {complete} ms"
    );
    // The session took the first step call, while 20 were made.
    let tree = hindsight_json(&["tree", trace.to_str().unwrap(), "--json"]);
    let steps = tree["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| {
            n["method"]
                .as_str()
                .is_some_and(|m| m.ends_with("Steps.step"))
        })
        .count();
    assert_eq!(steps, 20);
    let recorded = hindsight_json(&[
        "debug",
        trace.to_str().unwrap(),
        "--json",
        "--oracle",
        &steps_answers(),
    ]);
    assert_eq!(verdict(&report), verdict(&recorded));
}

/// Starts `hindsight record --json -o TRACE -- java -cp CLASSES live.Steps 100`, with the
/// program's output (on stderr with `--json`) piped.
fn record_steps(classes: &Path, trace: &Path) -> (Child, BufReader<ChildStderr>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hindsight"))
        .args([
            "record",
            "--json",
            "-o",
            trace.to_str().unwrap(),
            "--",
            "java",
            "-cp",
            classes.to_str().unwrap(),
            "live.Steps",
            "100",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = BufReader::new(child.stderr.take().unwrap());
    (child, stderr)
}

/// Reads lines until one starts with `prefix`; returns it (None at the end of the output).
fn read_until(out: &mut impl BufRead, prefix: &str, seen: &mut Vec<String>) -> Option<String> {
    loop {
        let mut line = String::new();
        if out.read_line(&mut line).unwrap() == 0 {
            return None;
        }
        seen.push(line.clone());
        if line.starts_with(prefix) {
            return Some(line);
        }
    }
}

fn kill(pid: &str) {
    let status = Command::new("kill").args(["-KILL", pid]).status().unwrap();
    assert!(status.success(), "kill -KILL {pid}");
}

#[test]
fn a_program_killed_mid_run_leaves_a_debuggable_trace() {
    let work = tempfile::tempdir().unwrap();
    let classes = steps_classes(work.path());
    let trace = work.path().join("killed.htrace");
    let (child, mut out) = record_steps(&classes, &trace);
    let mut seen = Vec::new();
    let pid = read_until(&mut out, "pid ", &mut seen).expect("the program prints its pid");
    // Killed at step 10: steps 0..=4 had five sleeps of 100 ms for the agent's flusher to send
    // them, also on a loaded machine (at step 5 a busy machine could leave step 4 unsent).
    read_until(&mut out, "step 10 ", &mut seen).expect("the program runs");
    kill(pid.trim().trim_start_matches("pid "));
    read_until(&mut out, "\u{0}", &mut seen);
    let output = child.wait_with_output().unwrap();
    assert_eq!(
        output.status.code(),
        Some(128 + 9),
        "record passes the signal through: {seen:?}"
    );
    let summary: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        summary["traces"][0]["ending"]["ending"], "truncated",
        "{summary:#}"
    );

    let info = hindsight_json(&["info", trace.to_str().unwrap(), "--json"]);
    assert_eq!(info["status"], "truncated", "{info:#}");
    assert!(info["exit_status"].is_null(), "{info:#}");
    assert!(
        info["complete_nodes"].as_u64().unwrap() < info["nodes"].as_u64().unwrap(),
        "{info:#}"
    );

    let tree = hindsight_json(&["tree", trace.to_str().unwrap(), "--json"]);
    let nodes = tree["nodes"].as_array().unwrap();
    let main = nodes
        .iter()
        .find(|n| {
            n["method"]
                .as_str()
                .is_some_and(|m| m.ends_with("Steps.main"))
        })
        .unwrap();
    assert_eq!(main["complete"], false, "main was cut off: {main}");
    let complete_steps = nodes
        .iter()
        .filter(|n| {
            n["method"]
                .as_str()
                .is_some_and(|m| m.ends_with("Steps.step"))
                && n["complete"] == true
        })
        .count();
    // A thread's buffered events reach the recorder at its next event after a flush tick, or
    // while it sleeps, so the events of the last steps may die with the program; steps 0..=4
    // were sent long before the kill.
    assert!(
        complete_steps >= 5,
        "steps 0..=4 completed before the kill: {complete_steps}"
    );
    assert!(
        complete_steps < 100,
        "the program was killed before its end: {complete_steps}"
    );

    let report = hindsight_json(&[
        "debug",
        trace.to_str().unwrap(),
        "--json",
        "--oracle",
        &steps_answers(),
    ]);
    assert_eq!(report["result"], "bug", "{report:#}");
    assert_eq!(
        report["buggy_node"]["method"], "live.Steps.cube",
        "{report:#}"
    );
    // The first call asked (main's loop and its iterations, which the answers leave
    // don't-know, may come before it).
    let first_call = report["dialogue"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["question"].as_str().unwrap())
        .find(|q| !q.contains(": loop at"))
        .unwrap();
    assert!(first_call.starts_with("Steps.step(i=0) = 1"), "{report:#}");
}

#[test]
fn a_killed_recorder_leaves_the_program_running_to_its_end() {
    let work = tempfile::tempdir().unwrap();
    let classes = steps_classes(work.path());
    let trace = work.path().join("orphan.htrace");
    let (mut child, mut out) = record_steps(&classes, &trace);
    let mut seen = Vec::new();
    read_until(&mut out, "step 3 ", &mut seen).expect("the program runs");
    kill(&child.id().to_string());
    child.wait().unwrap();
    // The program inherited our pipe: its output goes on, it warns once, and it ends.
    let done = read_until(&mut out, "done", &mut seen);
    assert!(done.is_some(), "the program did not finish: {seen:?}");
    let warnings = seen
        .iter()
        .filter(|l| l.contains("recording stopped, the program continues"))
        .count();
    assert_eq!(warnings, 1, "{seen:?}");
    assert!(seen.iter().any(|l| l.starts_with("step 99 ")), "{seen:?}");
    // What the recorder committed before its death is readable.
    let info = hindsight_json(&["info", trace.to_str().unwrap(), "--json"]);
    assert_eq!(info["status"], "recording", "{info:#}");
    assert!(hindsight(&["tree", trace.to_str().unwrap(), "--json"])
        .status
        .success());
}

#[test]
fn info_reports_what_the_recording_knows() {
    let work = tempfile::tempdir().unwrap();
    let classes = steps_classes(work.path());
    let trace = work.path().join("info.htrace");
    let out = hindsight(&[
        "record",
        "--json",
        "-o",
        trace.to_str().unwrap(),
        "--",
        "java",
        "-cp",
        classes.to_str().unwrap(),
        "live.Steps",
        "2",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let info = hindsight_json(&["info", trace.to_str().unwrap(), "--json"]);
    for key in [
        "events",
        "nodes",
        "complete_nodes",
        "bytes",
        "wall_ms",
        "peak_rss_bytes",
        "format_version",
    ] {
        assert!(info[key].as_u64().is_some_and(|v| v > 0), "{key}: {info:#}");
    }
    assert_eq!(info["exit_status"], 0, "{info:#}");
    assert_eq!(info["nodes"], info["complete_nodes"], "{info:#}");
    // No progress line when stderr is not a terminal.
    assert!(
        !String::from_utf8_lossy(&out.stderr).contains("events/s"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_live_session_over_a_command_without_a_jvm_ends_with_a_message() {
    let out = hindsight(&[
        "debug",
        "--json",
        "--oracle",
        &steps_answers(),
        "--",
        "sh",
        "-c",
        "echo no JVM here",
    ]);
    assert_eq!(out.status.code(), Some(125));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("started no JVM with the agent"), "{stderr}");
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}
