//! `hindsight bench strategies`: every mutant of a corpus debugged with every strategy, the
//! correct program's run answering as the reference oracle. Set up (work directory, replayer,
//! reference traces), run (rule 3's self-check, the mutants, the balanced-ET method), report.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::Result;
use hindsight_core::evaluation::{
    balanced, render_balanced, render_strategies, replay_check, summarize, BalancedRow, Mutant,
    MutantResult, ProgramRow, ReplayCheck, TreeShape,
};
use hindsight_core::strategy::StrategyName;
use hindsight_core::tree::ForestOptions;
use serde::Serialize;

use super::corpus::{parallel, prepare_reference, read_corpus, run_mutant, CorpusProgram};
use super::{parse_strategy, strategies_or_all};
use crate::output;
use crate::replayer::{compile_replayer, ProcessReplayer};

/// Debug every mutant of a corpus with every strategy, the correct program's run answering as
/// the reference oracle; count the questions and check the reported method (docs/benchmarks.md).
///
/// DIR holds one directory per program with `program.toml`, `mutants.toml` and `src/`
/// (tests/README.md). Needs `javac` and `java` (JDK 17) on the PATH.
#[derive(clap::Args)]
pub struct StrategiesArgs {
    /// The corpus directory (`tests/corpus`)
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// The strategies to run, separated by commas (default: every available one)
    #[arg(long, value_name = "NAMES", value_delimiter = ',', value_parser = parse_strategy)]
    pub strategies: Vec<StrategyName>,
    /// Only these programs, separated by commas (default: every program of DIR)
    #[arg(long, value_name = "NAMES", value_delimiter = ',')]
    pub programs: Vec<String>,
    /// At most this many mutants per program (the first ones of mutants.toml)
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
    /// JVMs to run at once
    #[arg(short = 'j', long, value_name = "N", default_value_t = 2)]
    pub jobs: usize,
    /// Print one JSON object on stdout (tables, and every mutant with every session)
    #[arg(long)]
    pub json: bool,
    /// Keep the compiled classes and traces in this directory instead of a temporary one
    #[arg(long, value_name = "DIR")]
    pub work_dir: Option<PathBuf>,
    /// Leave out the reference oracle's rule 3 (replaying the correct program on the states its
    /// run never reached): calls that rules 1 and 2 cannot judge are answered "don't know"
    #[arg(long)]
    pub no_replay: bool,
    /// Never ask about loops and iterations (as `debug --no-loops`): the sessions of the tree of
    /// calls alone
    #[arg(long)]
    pub no_loops: bool,
    /// Debug the plain execution trees (no collapsed or projected nodes)
    #[arg(long)]
    pub no_balance: bool,
}

#[derive(Serialize)]
struct StrategiesJson<'a> {
    strategies: &'a [StrategyName],
    programs: &'a [ProgramRow],
    balanced: &'a [BalancedRow],
    mutants: &'a [MutantResult],
    /// Each correct program's calls replayed on its own classes (rule 3's self-check).
    replay_checks: &'a [(String, ReplayCheck)],
    /// Reference programs that could not be compiled or recorded, with the reason.
    failed_references: &'a [(String, String)],
    wall_ms: u64,
}

/// The corpus compiled and its correct programs recorded.
struct Prepared {
    /// Loops and iterations (not `--no-loops`), the forest (not `--no-balance`).
    shape: TreeShape,
    strategies: Vec<StrategyName>,
    corpus: Vec<CorpusProgram>,
    work: PathBuf,
    _temp: Option<tempfile::TempDir>,
    /// The replayer's compiled classes (rule 3), unless `--no-replay`.
    replayer: Option<PathBuf>,
    /// Each program's reference trace, in corpus order.
    references: Vec<Result<PathBuf>>,
    failed_references: Vec<(String, String)>,
}

/// What the benchmark measured.
struct Results {
    replay_checks: Vec<(String, ReplayCheck)>,
    mutants: Vec<MutantResult>,
    balanced: Vec<BalancedRow>,
}

pub(super) fn run(args: StrategiesArgs) -> Result<u8> {
    let started = Instant::now();
    let p = prepare(&args)?;
    let results = Results {
        replay_checks: check_replay(&p, args.jobs)?,
        mutants: debug_mutants(&p, args.jobs),
        balanced: balanced_rows(&p),
    };
    report(&args, &p, &results, started)?;
    Ok(0)
}

/// Reads the corpus, makes the work directory and the replayer, records the correct programs
/// (every mutant of a program needs its reference trace).
fn prepare(args: &StrategiesArgs) -> Result<Prepared> {
    let strategies = strategies_or_all(&args.strategies);
    let corpus = read_corpus(&args.dir, &args.programs, args.limit)?;
    let (work, _temp) = super::work_dir(args.work_dir.as_deref(), "hindsight-bench-")?;
    // Rule 3 of the reference oracle runs the correct programs' classes in a replayer JVM.
    let replayer = if args.no_replay {
        None
    } else {
        let classes = work.join("replayer");
        compile_replayer(&classes)?;
        Some(classes)
    };
    let references = parallel(corpus.len(), args.jobs, |i| {
        prepare_reference(&corpus[i], &work)
    });
    let mut failed_references = Vec::new();
    for (p, r) in corpus.iter().zip(&references) {
        if let Err(e) = r {
            eprintln!("hindsight: {}: the correct program: {e:#}", p.name);
            failed_references.push((p.name.clone(), format!("{e:#}")));
        }
    }
    Ok(Prepared {
        shape: TreeShape {
            loops: !args.no_loops,
            forest: if args.no_balance {
                ForestOptions::OFF
            } else {
                ForestOptions::ON
            },
        },
        strategies,
        corpus,
        work,
        _temp,
        replayer,
        references,
        failed_references,
    })
}

/// Rule 3 is only as good as the replay: each correct program's calls, replayed on its own
/// classes, must end as recorded.
fn check_replay(p: &Prepared, jobs: usize) -> Result<Vec<(String, ReplayCheck)>> {
    let Some(replayer_classes) = &p.replayer else {
        return Ok(Vec::new());
    };
    let checks = parallel(p.corpus.len(), jobs, |i| {
        let program = &p.corpus[i];
        let trace = p.references[i].as_ref().ok()?;
        let dir = p.work.join(&program.name);
        let mut r = ProcessReplayer::new(
            &dir.join("classes"),
            replayer_classes,
            dir.join("replayer.log"),
        );
        Some(replay_check(trace, &mut r).map(|c| (program.name.clone(), c)))
    });
    let mut ok = Vec::new();
    for c in checks.into_iter().flatten() {
        let (name, check) = c?;
        eprintln!("{}", replay_check_line(&name, &check));
        ok.push((name, check));
    }
    Ok(ok)
}

/// Builds, records and debugs every mutant, `jobs` at a time.
fn debug_mutants(p: &Prepared, jobs: usize) -> Vec<MutantResult> {
    let tasks: Vec<(usize, &Mutant)> = p
        .corpus
        .iter()
        .enumerate()
        .flat_map(|(i, program)| program.mutants.iter().map(move |m| (i, m)))
        .collect();
    parallel(tasks.len(), jobs, |t| {
        let (i, m) = tasks[t];
        let program = &p.corpus[i];
        let outcome = match &p.references[i] {
            Ok(reference) => run_mutant(
                program,
                m,
                reference,
                &p.strategies,
                &p.work,
                p.replayer.as_deref(),
                p.shape,
            ),
            Err(_) => Err(anyhow::anyhow!("the correct program could not be recorded")),
        };
        let (debug, error) = match outcome {
            Ok(d) => (Some(d), None),
            Err(e) => (None, Some(format!("{e:#}"))),
        };
        let result = MutantResult {
            program: program.name.clone(),
            mutant: m.clone(),
            debug,
            error,
        };
        progress(&result);
        result
    })
}

/// The balanced-ET paper's method on each correct program's tree.
fn balanced_rows(p: &Prepared) -> Vec<BalancedRow> {
    let mut rows = Vec::new();
    for (program, r) in p.corpus.iter().zip(&p.references) {
        let Ok(trace) = r else { continue };
        match balanced(trace, &p.strategies, p.shape) {
            Ok((evaluations, coverage)) => rows.push(BalancedRow {
                program: program.name.clone(),
                coverage,
                evaluations,
            }),
            Err(e) => eprintln!(
                "hindsight: {}: the balanced-ET evaluation failed: {e}",
                program.name
            ),
        }
    }
    rows
}

fn report(args: &StrategiesArgs, p: &Prepared, r: &Results, started: Instant) -> Result<()> {
    let rows = summarize(&r.mutants, &p.strategies);
    if args.json {
        return output::print_json(&StrategiesJson {
            strategies: &p.strategies,
            programs: &rows,
            balanced: &r.balanced,
            mutants: &r.mutants,
            replay_checks: &r.replay_checks,
            failed_references: &p.failed_references,
            wall_ms: started.elapsed().as_millis() as u64,
        });
    }
    println!("Questions per mutant, reference oracle (the jhyde paper's Table 1 layout):\n");
    println!("{}", render_strategies(&rows, &p.strategies));
    if !r.replay_checks.is_empty() {
        println!("Rule 3 of the reference oracle, each correct program's calls replayed on its own classes:\n");
        for (name, check) in &r.replay_checks {
            println!("{}", replay_check_line(name, check));
            for (method, recorded, replayed) in check.different.iter().take(3) {
                println!(
                    "    differs: {method}\n      recorded {recorded}\n      replayed {replayed}"
                );
            }
            for (reason, n) in &check.reasons {
                println!("    {n:>5} {reason}");
            }
        }
        println!();
    }
    println!("Balanced-ET method: every askable node of the correct program's tree taken as the buggy one, questions averaged:\n");
    println!("{}", render_balanced(&r.balanced, &p.strategies));
    let missed: Vec<String> = r.mutants.iter().filter_map(missed_line).collect();
    if !missed.is_empty() {
        println!("Mutants not found by every strategy:");
        for m in missed {
            println!("{m}");
        }
    }
    println!(
        "\n{} mutants in {:.1} s",
        r.mutants.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// The strategies that missed a mutant, with what they reported, or why it failed.
fn missed_line(r: &MutantResult) -> Option<String> {
    let why = match (&r.debug, &r.error) {
        (_, Some(e)) => e.clone(),
        (Some(d), None) => {
            let missed: Vec<String> = d
                .runs
                .iter()
                .filter(|s| !s.found)
                .map(|s| {
                    format!(
                        "{} → {}{}",
                        s.strategy,
                        s.result,
                        s.reported_method
                            .as_deref()
                            .map_or(String::new(), |m| format!(" {m}"))
                    )
                })
                .collect();
            if missed.is_empty() {
                return None;
            }
            missed.join(", ")
        }
        (None, None) => return None,
    };
    Some(format!("  {} ({}): {why}", r.mutant.id, r.mutant.method))
}

fn replay_check_line(program: &str, c: &ReplayCheck) -> String {
    format!(
        "{program}: {} calls replayed: {} equal, {} different, {} unprovable, {} failed, {} refused",
        c.calls,
        c.equal,
        c.different.len(),
        c.unprovable,
        c.failed,
        c.refused
    )
}

/// One line on stderr per mutant, as it finishes.
fn progress(r: &MutantResult) {
    match (&r.debug, &r.error) {
        (Some(d), _) => {
            let runs: Vec<String> = d
                .runs
                .iter()
                .map(|s| {
                    format!(
                        "{} {}{}",
                        s.strategy,
                        s.questions,
                        if s.found { "" } else { " MISSED" }
                    )
                })
                .collect();
            eprintln!("{}: {}", r.mutant.id, runs.join(", "));
        }
        (None, Some(e)) => eprintln!("{}: failed: {e}", r.mutant.id),
        (None, None) => {}
    }
}
