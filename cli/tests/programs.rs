//! End to end: every buggy/fixed program of `tests/programs/` is compiled, recorded with the
//! agent, and debugged with each strategy, with the reference oracle (a trace of the fixed
//! program) and with the program's answers file. The reported method must be the buggy one.

mod common;

use std::path::Path;

use common::{hindsight_json, javac, record, repo};

const STRATEGIES: [&str; 2] = ["top-down", "divide-and-query"];

struct Program {
    buggy_method: String,
    bug_line: u32,
    dir: std::path::PathBuf,
}

/// Compiles and records both versions; returns the program and the two traces' directory.
fn prepare(name: &str) -> (Program, tempfile::TempDir) {
    let dir = repo().join("tests/programs").join(name);
    let toml: toml::Value =
        toml::from_str(&std::fs::read_to_string(dir.join("program.toml")).unwrap()).unwrap();
    let main = toml["main"].as_str().unwrap();
    let work = tempfile::tempdir().unwrap();
    for version in ["buggy", "fixed"] {
        let classes = work.path().join(version);
        javac(&dir.join(version), &classes);
        let summary = record(
            &classes,
            main,
            &work.path().join(format!("{version}.htrace")),
        );
        assert!(
            summary["traces"][0]["nodes"].as_u64().unwrap() > 2,
            "{name} {version}: {summary}"
        );
    }
    let program = Program {
        buggy_method: toml["buggy_method"].as_str().unwrap().to_string(),
        bug_line: toml["bug_line"].as_integer().unwrap() as u32,
        dir,
    };
    (program, work)
}

fn debug(work: &Path, strategy: &str, oracle: &str) -> serde_json::Value {
    let trace = work.join("buggy.htrace");
    hindsight_json(&[
        "debug",
        trace.to_str().unwrap(),
        "--json",
        "--strategy",
        strategy,
        "--oracle",
        oracle,
    ])
}

/// Debugs with every strategy and both oracles; returns the reference oracle's report (top-down).
fn finds_the_bug(name: &str) -> serde_json::Value {
    let (program, work) = prepare(name);
    let reference = format!("reference:{}", work.path().join("fixed.htrace").display());
    let answers = format!("answers:{}", program.dir.join("answers.txt").display());
    let mut first = None;
    for strategy in STRATEGIES {
        for oracle in [&reference, &answers] {
            let report = debug(work.path(), strategy, oracle);
            assert_eq!(
                report["result"], "bug",
                "{name}, {strategy}, {oracle}: {report:#}"
            );
            assert_eq!(
                report["buggy_node"]["method"],
                program.buggy_method.as_str(),
                "{name}, {strategy}, {oracle}: {report:#}"
            );
            assert_eq!(report["strategy"], strategy);
            assert_eq!(
                report["questions"].as_u64().unwrap() as usize,
                report["dialogue"].as_array().unwrap().len()
            );
            // The reference oracle follows the intended meaning call by call, so it ends at a
            // call whose own lines hold the defect.
            if oracle == &reference {
                let lines: Vec<u64> = report["buggy_node"]["lines"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|l| l.as_u64().unwrap())
                    .collect();
                assert!(
                    lines.contains(&u64::from(program.bug_line)),
                    "{name}, {strategy}: line {} not in {lines:?}",
                    program.bug_line
                );
                first.get_or_insert(report);
            }
        }
    }
    first.unwrap()
}

#[test]
fn mergesort_bug_is_in_merge() {
    let report = finds_the_bug("mergesort");
    // The last merge call, whose second loop wrote c[lb++]: the iteration that wrote it.
    let dialogue = report["dialogue"].as_array().unwrap();
    let last = dialogue.last().unwrap();
    assert_eq!(last["answer"], "invalid");
    assert_eq!(report["buggy_node"]["kind"], "iteration", "{report:#}");
    assert_eq!(report["buggy_node"]["lines"], serde_json::json!([11, 12]));
    assert!(
        last["question"]
            .as_str()
            .unwrap()
            .contains("MergeSort.merge: loop at MergeSort.java:11, iteration 1 of 2: la=1→2, lb=2→3, c=[1, 4, 7, 7]→[1, 4, 9, 7]"),
        "{last}"
    );
}

#[test]
fn sumnumbers_reports_the_loop_header_but_not_the_branch_that_never_ran() {
    let report = finds_the_bug("sumnumbers");
    let source = std::fs::read_to_string(
        repo().join("tests/programs/sumnumbers/buggy/sumnumbers/SumNumbers.java"),
    )
    .unwrap();
    let even_branch = source
        .lines()
        .position(|l| l.contains("sum = add(sum, array[i])"))
        .unwrap() as u64
        + 1;
    let lines: Vec<u64> = report["buggy_node"]["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_u64().unwrap())
        .collect();
    assert!(
        !lines.contains(&even_branch),
        "line {even_branch} never ran but is in {lines:?}"
    );
}

/// The generalized-AD paper's example with loop expansion: every iteration computes what it
/// should from where it started, so the buggy code is sumNumbers' own code outside the loop:
/// the initialisations (`sum = 0`, `i = 1` on the `for` line) and the return, not the body.
#[test]
fn sumnumbers_buggy_code_is_outside_the_right_loop() {
    let (program, work) = prepare("sumnumbers");
    let answers = format!("answers:{}", program.dir.join("answers.txt").display());
    let source = std::fs::read_to_string(
        repo().join("tests/programs/sumnumbers/buggy/sumnumbers/SumNumbers.java"),
    )
    .unwrap();
    let line_of = |text: &str| source.lines().position(|l| l.contains(text)).unwrap() as u64 + 1;
    let own = vec![
        line_of("int sum = 0;"),
        line_of("for (int i = 1;"),
        line_of("return sum;"),
    ];
    for strategy in STRATEGIES {
        let report = debug(work.path(), strategy, &answers);
        assert_eq!(report["result"], "bug", "{strategy}: {report:#}");
        let bug = &report["buggy_node"];
        assert_eq!(bug["method"], "sumnumbers.SumNumbers.sumNumbers");
        assert_eq!(bug["kind"], "routine");
        let lines: Vec<u64> = bug["lines"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l.as_u64().unwrap())
            .collect();
        assert_eq!(lines, own, "{strategy}: {report:#}");
        // The loop and its iterations were asked, as a person reads them.
        let dialogue = report["dialogue"].as_array().unwrap();
        let asked = |what: &str| {
            dialogue
                .iter()
                .any(|d| d["question"].as_str().unwrap().contains(what))
        };
        assert!(
            asked("SumNumbers.sumNumbers: loop at SumNumbers.java:12"),
            "{strategy}: {report:#}"
        );
        if strategy == "top-down" {
            assert!(
                asked("3 iterations: i=1→3, sum=0→3, then the loop ends"),
                "{report:#}"
            );
            assert_eq!(report["traceable"], true);
        }
    }
    // Without loops the verdict is the whole call's code, the loop's body included.
    let trace = work.path().join("buggy.htrace");
    let report = hindsight_json(&[
        "debug",
        trace.to_str().unwrap(),
        "--json",
        "--no-loops",
        "--oracle",
        &answers,
    ]);
    let lines = report["buggy_node"]["lines"].as_array().unwrap();
    assert!(lines.len() > own.len(), "{report:#}");
    assert!(report["dialogue"]
        .as_array()
        .unwrap()
        .iter()
        .all(|d| !d["question"].as_str().unwrap().contains("loop at")));
}

#[test]
fn castling_bug_is_in_castling() {
    finds_the_bug("castling");
}

#[test]
fn traveling_null_pointer_comes_from_do_some_thing() {
    finds_the_bug("travelingnull");
}

/// The programs with injected bugs of our own.
macro_rules! own_programs {
    ($($name:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                finds_the_bug(stringify!($name));
            }
        )*

        #[test]
        fn every_program_is_tested() {
            let mut listed = vec!["mergesort", "sumnumbers", "castling", "travelingnull", $(stringify!($name)),*];
            listed.sort();
            let mut present: Vec<String> = std::fs::read_dir(repo().join("tests/programs"))
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .filter(|n| repo().join("tests/programs").join(n).join("program.toml").is_file())
                .collect();
            present.sort();
            assert_eq!(present, listed, "add the new program to own_programs! in this file");
        }
    };
}

own_programs!(
    bankaccount,
    coldest,
    diskusage,
    fielddump,
    grades,
    intervals,
    matrix,
    movingavg,
    orders,
    power,
    ranking,
    rational,
    readercopy,
    receipt,
    shipping,
    survey,
    tickets,
    wordfreq,
);
