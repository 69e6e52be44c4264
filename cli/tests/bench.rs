//! `hindsight bench`: the strategy benchmark on a slice of the corpus, and the session speed
//! benchmark on a small random tree.

mod common;

use common::{hindsight, hindsight_json, repo};

#[test]
fn bench_strategies_finds_the_first_bst_mutants() {
    let corpus = repo().join("tests/corpus");
    let report = hindsight_json(&[
        "bench",
        "strategies",
        corpus.to_str().unwrap(),
        "--programs",
        "bst",
        "--limit",
        "2",
        "--strategies",
        "top-down,divide-and-query",
        "--json",
    ]);
    assert_eq!(
        report["strategies"],
        serde_json::json!(["top-down", "divide-and-query"])
    );
    let mutants = report["mutants"].as_array().unwrap();
    let ids: Vec<&str> = mutants
        .iter()
        .map(|m| m["mutant"]["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["bst-1", "bst-2"], "{report:#}");
    for m in mutants {
        assert!(m["error"].is_null(), "{m:#}");
        assert!(
            m["calls"].as_u64().unwrap() > m["askable"].as_u64().unwrap(),
            "{m:#}"
        );
        let runs = m["runs"].as_array().unwrap();
        assert_eq!(runs.len(), 2);
        for r in runs {
            assert!(r["questions"].as_u64().unwrap() > 0, "{r:#}");
            assert_eq!(
                r["questions"].as_u64().unwrap() as usize,
                r["dialogue"].as_array().unwrap().len()
            );
            assert_eq!(r["found"], true, "{}: {r:#}", m["mutant"]["id"]);
            assert_eq!(r["reported_method"], m["mutant"]["method"]);
        }
    }
    // One row for bst and the total over both mutants.
    let programs = report["programs"].as_array().unwrap();
    assert_eq!(
        programs
            .iter()
            .map(|p| p["program"].as_str().unwrap())
            .collect::<Vec<_>>(),
        ["bst", "total"]
    );
    for p in programs {
        assert_eq!(p["mutants"], 2);
        for cell in p["strategies"].as_array().unwrap() {
            assert_eq!(
                (cell["found"].as_u64(), cell["total"].as_u64()),
                (Some(2), Some(2)),
                "{cell}"
            );
            assert!(cell["average_questions"].as_f64().unwrap() >= 1.0);
        }
    }
    // The balanced-ET method on the correct program's tree: every askable node found.
    let balanced = &report["balanced"][0];
    assert_eq!(balanced["program"], "bst");
    for e in balanced["evaluations"].as_array().unwrap() {
        assert!(e["experiments"].as_u64().unwrap() > 10, "{e}");
        assert_eq!(e["found"], e["experiments"], "{e}");
    }
}

#[test]
fn bench_strategies_names_the_programs_a_corpus_has() {
    let corpus = repo().join("tests/corpus");
    let out = hindsight(&[
        "bench",
        "strategies",
        corpus.to_str().unwrap(),
        "--programs",
        "nosuch",
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no program `nosuch`") && err.contains("bst"),
        "{err}"
    );
}

#[test]
fn bench_session_reports_latency_per_strategy() {
    let report = hindsight_json(&[
        "bench",
        "session",
        "--calls",
        "3000",
        "--sessions",
        "2",
        "--strategies",
        "top-down,hirunkitti",
        "--json",
    ]);
    assert!(report["nodes"].as_u64().unwrap() >= 3000, "{report}");
    let rows = report["strategies"].as_array().unwrap();
    assert_eq!(
        rows.iter()
            .map(|r| r["strategy"].as_str().unwrap())
            .collect::<Vec<_>>(),
        ["top-down", "hirunkitti"]
    );
    for r in rows {
        assert!(r["questions_per_session"].as_f64().unwrap() >= 1.0, "{r}");
        // One timed choice per question plus the verdict, in each session.
        assert_eq!(
            r["step"]["samples"].as_u64().unwrap(),
            r["step"]["questions"].as_u64().unwrap() + 2,
            "{r}"
        );
    }
}
