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

/// Don't-know answers of every session of a mutant's `--json` record.
fn dont_knows(mutant: &serde_json::Value) -> usize {
    mutant["runs"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["dialogue"].as_array().unwrap())
        .filter(|d| d[1] == "dont-know")
        .count()
}

#[test]
fn rule_3_judges_the_calls_after_the_divergence() {
    // bst-1 (`c <= 0` in put) sends a key right that belongs left: later puts and gets run in a
    // tree the correct run never built, which rules 1 and 2 cannot judge.
    let corpus = repo().join("tests/corpus");
    let run = |replay: bool| {
        let mut args = vec![
            "bench",
            "strategies",
            corpus.to_str().unwrap(),
            "--programs",
            "bst",
            "--limit",
            "1",
            "--strategies",
            "divide-and-query",
            "--json",
        ];
        if !replay {
            args.push("--no-replay");
        }
        hindsight_json(&args)
    };
    let without = run(false);
    let with = run(true);
    let (m0, m1) = (&without["mutants"][0], &with["mutants"][0]);
    assert!(dont_knows(m0) > 0, "{m0:#}");
    assert!(dont_knows(m1) < dont_knows(m0), "{m1:#}");
    assert!(m0["replay"].is_null());
    let stats = &m1["replay"];
    assert!(
        stats["valid"].as_u64().unwrap() + stats["invalid"].as_u64().unwrap() > 0,
        "{stats}"
    );
    let session = &m1["runs"][0];
    assert_eq!(session["found"], true, "{session:#}");
    assert_eq!(session["result"], "bug", "{session:#}");

    // The self-check: bst's own calls, replayed on its own classes, all end as recorded.
    assert!(without["replay_checks"].as_array().unwrap().is_empty());
    let check = &with["replay_checks"][0];
    assert_eq!(check[0], "bst");
    let check = &check[1];
    assert_eq!(check["different"], serde_json::json!([]), "{check:#}");
    let calls = check["calls"].as_u64().unwrap();
    assert!(check["equal"].as_u64().unwrap() * 2 > calls, "{check:#}");
}
