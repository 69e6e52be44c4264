//! The benchmark's tables, laid out like the jhyde paper's Table 1: per program the number of
//! mutants, the size of the trees, the average number of questions per strategy, how many
//! mutants each strategy found, and each strategy's questions relative to top-down.

use std::fmt::Write;

use serde::{Deserialize, Serialize};

use super::{Mutant, MutantDebug};
use crate::strategy::eval::Evaluation;
use crate::strategy::StrategyName;

/// One mutant of the benchmark: what its sessions found, or why it could not be debugged.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MutantResult {
    pub program: String,
    pub mutant: Mutant,
    #[serde(flatten)]
    pub debug: Option<MutantDebug>,
    /// Why the mutant could not be built, recorded or debugged.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// One strategy on one program (or on all).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StrategyCell {
    pub strategy: StrategyName,
    /// Questions averaged over the mutants that could be debugged; `None` if none could.
    pub average_questions: Option<f64>,
    /// Of those questions, the "don't know" answers of the reference oracle, averaged.
    pub average_dont_know: Option<f64>,
    /// Mutants whose reported method is the mutated one.
    pub found: usize,
    /// Mutants of the program, those that could not be debugged included.
    pub total: usize,
    /// For a coverage strategy: whether any of the trees had coverage data of its kind.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub coverage: Option<bool>,
}

/// One line of the strategy table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProgramRow {
    /// A program's name, or `total` for the line over every mutant.
    pub program: String,
    pub mutants: usize,
    /// Calls per tree (JDK calls included), averaged over the debugged mutants.
    pub average_calls: f64,
    /// Askable calls per tree (neither trusted nor incomplete), averaged.
    pub average_askable: f64,
    pub strategies: Vec<StrategyCell>,
}

/// One line of the balanced-ET table: a correct program's tree, every askable node taken as
/// the buggy one.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BalancedRow {
    pub program: String,
    /// Whether any node of the tree has coverage entities.
    pub coverage: bool,
    pub evaluations: Vec<Evaluation>,
}

fn row(program: &str, results: &[&MutantResult], strategies: &[StrategyName]) -> ProgramRow {
    let debugged: Vec<&MutantDebug> = results.iter().filter_map(|r| r.debug.as_ref()).collect();
    let mean = |f: &dyn Fn(&MutantDebug) -> f64| {
        if debugged.is_empty() {
            0.0
        } else {
            debugged.iter().map(|d| f(d)).sum::<f64>() / debugged.len() as f64
        }
    };
    let cells = strategies
        .iter()
        .map(|&s| {
            let runs: Vec<_> = debugged
                .iter()
                .filter_map(|d| d.runs.iter().find(|r| r.strategy == s))
                .collect();
            let coverage = runs.iter().filter_map(|r| r.coverage).reduce(|a, b| a || b);
            StrategyCell {
                strategy: s,
                average_questions: (!runs.is_empty()).then(|| {
                    runs.iter().map(|r| r.questions as f64).sum::<f64>() / runs.len() as f64
                }),
                average_dont_know: (!runs.is_empty()).then(|| {
                    runs.iter().map(|r| r.dont_know() as f64).sum::<f64>() / runs.len() as f64
                }),
                found: runs.iter().filter(|r| r.found).count(),
                total: results.len(),
                coverage,
            }
        })
        .collect();
    ProgramRow {
        program: program.to_string(),
        mutants: results.len(),
        average_calls: mean(&|d| d.calls as f64),
        average_askable: mean(&|d| d.askable as f64),
        strategies: cells,
    }
}

/// One row per program, in the order the results list them, and a `total` row over every
/// mutant (so programs weigh by their number of mutants, as in the jhyde paper).
pub fn summarize(results: &[MutantResult], strategies: &[StrategyName]) -> Vec<ProgramRow> {
    let mut programs: Vec<&str> = Vec::new();
    for r in results {
        if !programs.contains(&r.program.as_str()) {
            programs.push(&r.program);
        }
    }
    let mut rows: Vec<ProgramRow> = programs
        .iter()
        .map(|p| {
            row(
                p,
                &results
                    .iter()
                    .filter(|r| r.program == *p)
                    .collect::<Vec<_>>(),
                strategies,
            )
        })
        .collect();
    rows.push(row(
        "total",
        &results.iter().collect::<Vec<_>>(),
        strategies,
    ));
    rows
}

fn fmt_avg(v: Option<f64>) -> String {
    v.map_or_else(|| "–".to_string(), |v| format!("{v:.2}"))
}

/// The strategy table as Markdown (readable as it is in a terminal), with its footnotes.
pub fn render_strategies(rows: &[ProgramRow], strategies: &[StrategyName]) -> String {
    let no_coverage = |s: StrategyName| {
        rows.last()
            .and_then(|r| r.strategies.iter().find(|c| c.strategy == s))
            .and_then(|c| c.coverage)
            == Some(false)
    };
    let name = |s: StrategyName| {
        if no_coverage(s) {
            format!("{s}*")
        } else {
            s.to_string()
        }
    };
    let relative: Vec<StrategyName> = if strategies.contains(&StrategyName::TopDown) {
        strategies
            .iter()
            .copied()
            .filter(|&s| s != StrategyName::TopDown)
            .collect()
    } else {
        Vec::new()
    };
    let mut out = String::new();
    let mut header = vec![
        "program".to_string(),
        "mutants".into(),
        "calls".into(),
        "askable".into(),
    ];
    header.extend(strategies.iter().map(|&s| format!("questions {}", name(s))));
    header.extend(
        strategies
            .iter()
            .map(|&s| format!("don't know {}", name(s))),
    );
    header.extend(strategies.iter().map(|&s| format!("found {}", name(s))));
    header.extend(relative.iter().map(|&s| format!("×TD {}", name(s))));
    let _ = writeln!(out, "| {} |", header.join(" | "));
    let _ = writeln!(out, "|{}", " --- |".repeat(header.len()));
    for r in rows {
        let mut cells = vec![
            r.program.clone(),
            r.mutants.to_string(),
            format!("{:.1}", r.average_calls),
            format!("{:.1}", r.average_askable),
        ];
        cells.extend(r.strategies.iter().map(|c| fmt_avg(c.average_questions)));
        cells.extend(r.strategies.iter().map(|c| fmt_avg(c.average_dont_know)));
        cells.extend(
            r.strategies
                .iter()
                .map(|c| format!("{}/{}", c.found, c.total)),
        );
        let top_down = r
            .strategies
            .iter()
            .find(|c| c.strategy == StrategyName::TopDown)
            .and_then(|c| c.average_questions);
        for &s in &relative {
            let q = r
                .strategies
                .iter()
                .find(|c| c.strategy == s)
                .and_then(|c| c.average_questions);
            cells.push(match (q, top_down) {
                (Some(q), Some(td)) if td > 0.0 => format!("{:.2}", q / td),
                _ => "–".into(),
            });
        }
        let _ = writeln!(out, "| {} |", cells.join(" | "));
    }
    if strategies.iter().any(|&s| no_coverage(s)) {
        out.push_str(
            "\n\\* no coverage data yet: the agent does not record basic blocks yet, so every node covers no entity, \
             every coverage weight is 0 and the strategy asks the earliest askable node (as top-down does).\n",
        );
    }
    out
}

/// The balanced-ET table as Markdown: per program, the askable nodes of the correct program's
/// tree and the questions averaged over every node taken as the buggy one.
pub fn render_balanced(rows: &[BalancedRow], strategies: &[StrategyName]) -> String {
    let mut out = String::new();
    let mut header = vec!["program".to_string(), "askable".into()];
    header.extend(strategies.iter().map(|s| s.to_string()));
    let _ = writeln!(out, "| {} |", header.join(" | "));
    let _ = writeln!(out, "|{}", " --- |".repeat(header.len()));
    for r in rows {
        let experiments = r.evaluations.first().map_or(0, |e| e.experiments);
        let mut cells = vec![r.program.clone(), experiments.to_string()];
        for &s in strategies {
            let e = r.evaluations.iter().find(|e| e.strategy == s);
            cells.push(e.map_or_else(
                || "–".into(),
                |e| {
                    let missed = e.experiments - e.found;
                    if missed == 0 {
                        format!("{:.2}", e.average_questions)
                    } else {
                        format!("{:.2} ({missed} missed)", e.average_questions)
                    }
                },
            ));
        }
        let _ = writeln!(out, "| {} |", cells.join(" | "));
    }
    let weighs_coverage = strategies.iter().any(|s| s.default_p().is_some());
    if weighs_coverage && !rows.is_empty() && rows.iter().all(|r| !r.coverage) {
        out.push_str(
            "\nNo coverage data yet in these trees: the coverage strategies ask as top-down does.\n",
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evaluation::StrategyRun;
    use crate::session::Answer;

    fn mutant(id: &str) -> Mutant {
        Mutant {
            id: id.into(),
            file: "p/A.java".into(),
            line: 1,
            from: "a".into(),
            to: "b".into(),
            method: "p.A.f".into(),
            error: String::new(),
        }
    }

    fn run(strategy: StrategyName, questions: usize, found: bool) -> StrategyRun {
        StrategyRun {
            strategy,
            questions,
            result: "bug".into(),
            reported_method: Some(if found { "p.A.f" } else { "p.A.g" }.into()),
            found,
            coverage: None,
            dialogue: Vec::new(),
            answer_ms: Vec::new(),
        }
    }

    fn result(program: &str, id: &str, calls: usize, runs: Vec<StrategyRun>) -> MutantResult {
        MutantResult {
            program: program.into(),
            mutant: mutant(id),
            debug: Some(MutantDebug {
                calls,
                askable: calls / 2,
                runs,
                replay: None,
            }),
            error: None,
        }
    }

    const S: [StrategyName; 2] = [StrategyName::TopDown, StrategyName::DivideAndQuery];

    #[test]
    fn rows_average_per_program_and_the_total_weighs_by_mutants() {
        let results = vec![
            result("a", "a-1", 10, vec![run(S[0], 4, true), run(S[1], 2, true)]),
            result(
                "a",
                "a-2",
                20,
                vec![run(S[0], 6, true), {
                    // Two of its four questions answered "don't know".
                    let mut r = run(S[1], 4, false);
                    r.dialogue = [
                        Answer::DontKnow,
                        Answer::Valid,
                        Answer::DontKnow,
                        Answer::Invalid,
                    ]
                    .into_iter()
                    .map(|a| ("p.A.f".to_string(), a))
                    .collect();
                    r
                }],
            ),
            result(
                "b",
                "b-1",
                30,
                vec![run(S[0], 11, true), run(S[1], 3, true)],
            ),
            MutantResult {
                program: "b".into(),
                mutant: mutant("b-2"),
                debug: None,
                error: Some("did not compile".into()),
            },
        ];
        let rows = summarize(&results, &S);
        assert_eq!(
            rows.iter().map(|r| r.program.as_str()).collect::<Vec<_>>(),
            ["a", "b", "total"]
        );
        assert_eq!(rows[0].mutants, 2);
        assert_eq!(rows[0].average_calls, 15.0);
        assert_eq!(rows[0].strategies[0].average_questions, Some(5.0));
        assert_eq!(
            (rows[0].strategies[1].found, rows[0].strategies[1].total),
            (1, 2)
        );
        // The mutant that failed counts as not found and is left out of the averages.
        assert_eq!(rows[1].strategies[0].average_questions, Some(11.0));
        assert_eq!(
            (rows[1].strategies[0].found, rows[1].strategies[0].total),
            (1, 2)
        );
        assert_eq!(rows[2].mutants, 4);
        assert_eq!(rows[2].strategies[0].average_questions, Some(7.0));
        assert_eq!(rows[2].strategies[1].average_questions, Some(3.0));
        assert_eq!(rows[0].strategies[1].average_dont_know, Some(1.0));
        assert_eq!(rows[2].strategies[0].average_dont_know, Some(0.0));
        let text = render_strategies(&rows, &S);
        assert!(
            text.contains(
                "| total | 4 | 20.0 | 10.0 | 7.00 | 3.00 | 0.00 | 0.67 | 3/4 | 2/4 | 0.43 |"
            ),
            "{text}"
        );
    }

    #[test]
    fn coverage_strategies_without_data_are_flagged() {
        let mut r = run(StrategyName::EdgeCoverage, 3, true);
        r.coverage = Some(false);
        let results = vec![result("a", "a-1", 10, vec![run(S[0], 4, true), r])];
        let strategies = [StrategyName::TopDown, StrategyName::EdgeCoverage];
        let rows = summarize(&results, &strategies);
        assert_eq!(rows[1].strategies[1].coverage, Some(false));
        let text = render_strategies(&rows, &strategies);
        assert!(text.contains("questions edge-coverage*"), "{text}");
        assert!(text.contains("no coverage data yet"), "{text}");
    }

    #[test]
    fn the_balanced_table_marks_missed_experiments_and_missing_coverage() {
        let e = |strategy, found| Evaluation {
            strategy,
            experiments: 4,
            average_questions: 2.5,
            found,
        };
        let row = BalancedRow {
            program: "a".into(),
            coverage: false,
            evaluations: vec![
                e(StrategyName::TopDown, 4),
                e(StrategyName::EdgeCoverage, 3),
            ],
        };
        let strategies = [StrategyName::TopDown, StrategyName::EdgeCoverage];
        let text = render_balanced(std::slice::from_ref(&row), &strategies);
        assert!(
            text.contains("| a | 4 | 2.50 | 2.50 (1 missed) |"),
            "{text}"
        );
        assert!(text.contains("No coverage data yet"), "{text}");
        let with = BalancedRow {
            coverage: true,
            ..row
        };
        assert!(!render_balanced(&[with], &strategies).contains("No coverage data yet"));
    }
}
