//! `hindsight bench`: the strategy benchmark over a mutant corpus and the speed of a session.
//! This module compiles, records and schedules; the sessions and the tables are in
//! `hindsight_core::evaluation`.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use hindsight_core::evaluation::{
    apply_mutant, balanced, debug_mutant, render_balanced, render_strategies, replay_check,
    summarize, BalancedRow, Mutant, MutantList, MutantResult, Program, ProgramRow, ReplayCheck,
};
use hindsight_core::scratch::ScratchFiles;
use hindsight_core::session::{Session, TrustPolicy};
use hindsight_core::strategy::bench::{answer_latency, LatencyStats};
use hindsight_core::strategy::{create, eval, StrategyName};
use hindsight_core::tree::synthetic::{
    random_recording, random_tree, Event as SyntheticEvent, Rng, Shape,
};
use hindsight_core::tree::ExecutionTree;
use serde::Serialize;

use super::record::{self, AgentArgs};
use crate::launch::Output;
use crate::output;
use crate::replayer::{compile_replayer, ProcessReplayer};
use hindsight_core::oracle::Replayer;

/// Measure the strategies: questions on a mutant corpus, and time to choose a question.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: BenchCommand,
}

#[derive(clap::Subcommand)]
enum BenchCommand {
    Strategies(StrategiesArgs),
    Session(SessionArgs),
    Library(super::library::LibraryArgs),
}

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
}

/// How long each strategy takes to choose the next question after an answer, on a random
/// execution tree (issue 4 item 5).
#[derive(clap::Args)]
pub struct SessionArgs {
    /// Calls in the random tree
    #[arg(long, default_value_t = 1_000_000)]
    pub calls: usize,
    /// Sessions per strategy, each with another buggy node
    #[arg(long, default_value_t = 5)]
    pub sessions: usize,
    /// The strategies to run, separated by commas (default: every available one)
    #[arg(long, value_name = "NAMES", value_delimiter = ',', value_parser = parse_strategy)]
    pub strategies: Vec<StrategyName>,
    /// Nodes the session keeps in memory (the persistence bound); the others are spilled to
    /// scratch files, as a live session beyond the bound does (default: all in memory)
    #[arg(long, value_name = "N")]
    pub resident_nodes: Option<usize>,
    /// Print one JSON object on stdout
    #[arg(long)]
    pub json: bool,
}

pub(super) fn parse_strategy(s: &str) -> Result<StrategyName, String> {
    s.parse::<StrategyName>().map_err(|e| e.to_string())
}

pub(super) fn strategies_or_all(given: &[StrategyName]) -> Vec<StrategyName> {
    if given.is_empty() {
        StrategyName::AVAILABLE.to_vec()
    } else {
        given.to_vec()
    }
}

pub fn run(args: Args) -> Result<u8> {
    match args.command {
        BenchCommand::Strategies(a) => strategies(a),
        BenchCommand::Session(a) => session(a),
        BenchCommand::Library(a) => super::library::run(a),
    }
}

/// A corpus program, read from its directory.
struct CorpusProgram {
    name: String,
    dir: PathBuf,
    program: Program,
    mutants: Vec<Mutant>,
}

fn read_toml<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    toml::from_str(&text)
        .with_context(|| format!("{} is not valid (see tests/README.md)", path.display()))
}

fn read_corpus(dir: &Path, only: &[String], limit: Option<usize>) -> Result<Vec<CorpusProgram>> {
    let entries = std::fs::read_dir(dir)
        .with_context(|| format!("reading the corpus directory {}", dir.display()))?;
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok())
        .filter(|e| e.path().join("program.toml").is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    if names.is_empty() {
        bail!("{} holds no program (no subdirectory with a program.toml); give a corpus like tests/corpus", dir.display());
    }
    for wanted in only {
        if !names.contains(wanted) {
            bail!(
                "--programs: {} has no program `{wanted}`; it has {}",
                dir.display(),
                names.join(", ")
            );
        }
    }
    names
        .into_iter()
        .filter(|n| only.is_empty() || only.contains(n))
        .map(|name| {
            let pdir = dir.join(&name);
            let program: Program = read_toml(&pdir.join("program.toml"))?;
            let mut mutants = read_toml::<MutantList>(&pdir.join("mutants.toml"))?.mutant;
            if let Some(n) = limit {
                mutants.truncate(n);
            }
            Ok(CorpusProgram {
                name,
                dir: pdir,
                program,
                mutants,
            })
        })
        .collect()
}

fn java_files(dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    for entry in std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
        let path = entry?.path();
        if path.is_dir() {
            java_files(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "java") {
            out.push(path);
        }
    }
    Ok(())
}

/// `javac --release 17 -g` of every source under `src` into `classes`.
fn compile(src: &Path, classes: &Path) -> Result<()> {
    let mut files = Vec::new();
    java_files(src, &mut files)?;
    let out = Command::new("javac")
        .args(["--release", "17", "-g", "-encoding", "UTF-8", "-d"])
        .arg(classes)
        .args(&files)
        .output()
        .context(
            "running javac: install a JDK 17 (Debian: apt-get install openjdk-17-jdk-headless)",
        )?;
    if !out.status.success() {
        bail!(
            "javac failed on {}:\n{}",
            src.display(),
            String::from_utf8_lossy(&out.stderr).trim_end()
        );
    }
    Ok(())
}

/// Records `java -cp classes MAIN ARGS` into `trace`, the program's output discarded.
pub(super) fn record_program(classes: &Path, program: &Program, trace: &Path) -> Result<()> {
    let mut command: Vec<OsString> = vec![
        "java".into(),
        "-cp".into(),
        classes.into(),
        program.main.clone().into(),
    ];
    command.extend(program.args.iter().map(OsString::from));
    let recorded = record::record_command(
        &command,
        trace,
        &AgentArgs::default(),
        Output::Discard,
        false,
    )?;
    match recorded.traces.first().map(|t| &t.result) {
        None => bail!("the JVM did not connect to the recorder"),
        Some(Err(e)) => bail!("recording failed: {e}"),
        Some(Ok(_)) => Ok(()),
    }
}

/// Copies `src` to `dst`, a directory tree of source files.
fn copy_tree(src: &Path, dst: &Path) -> Result<()> {
    std::fs::create_dir_all(dst)?;
    for entry in std::fs::read_dir(src)? {
        let path = entry?.path();
        let target = dst.join(path.file_name().unwrap_or_default());
        if path.is_dir() {
            copy_tree(&path, &target)?;
        } else {
            std::fs::copy(&path, &target).with_context(|| format!("copying {}", path.display()))?;
        }
    }
    Ok(())
}

/// Compiles and records the correct program: the reference trace.
fn prepare_reference(p: &CorpusProgram, work: &Path) -> Result<PathBuf> {
    let dir = work.join(&p.name);
    let classes = dir.join("classes");
    compile(&p.dir.join("src"), &classes)?;
    let trace = dir.join("reference.htrace");
    record_program(&classes, &p.program, &trace)?;
    Ok(trace)
}

/// Builds, records and debugs one mutant.
fn run_mutant(
    p: &CorpusProgram,
    m: &Mutant,
    reference: &Path,
    strategies: &[StrategyName],
    work: &Path,
    replayer: Option<&Path>,
) -> Result<hindsight_core::evaluation::MutantDebug> {
    let dir = work.join(&p.name).join(&m.id);
    let src = dir.join("src");
    copy_tree(&p.dir.join("src"), &src)?;
    let file = src.join(&m.file);
    let text = std::fs::read_to_string(&file)
        .with_context(|| format!("mutant {}: reading {}", m.id, file.display()))?;
    std::fs::write(&file, apply_mutant(&text, m)?)?;
    let classes = dir.join("classes");
    compile(&src, &classes)?;
    let trace = dir.join("mutant.htrace");
    record_program(&classes, &p.program, &trace)?;
    let mut replayer = replayer.map(|replayer_classes| {
        ProcessReplayer::new(
            &work.join(&p.name).join("classes"),
            replayer_classes,
            dir.join("replayer.log"),
        )
    });
    Ok(debug_mutant(
        &trace,
        reference,
        strategies,
        &m.method,
        replayer.as_mut().map(|r| r as &mut dyn Replayer),
    )?)
}

/// Runs `job(i)` for i in 0..n on `jobs` threads; results in order.
pub(super) fn parallel<T: Send>(n: usize, jobs: usize, job: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<T>>> = Mutex::new((0..n).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, n.max(1)) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= n {
                    break;
                }
                let r = job(i);
                results.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(r);
            });
        }
    });
    results
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .flatten()
        .collect()
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
    failed_references: Vec<(String, String)>,
    wall_ms: u64,
}

fn strategies(args: StrategiesArgs) -> Result<u8> {
    let started = Instant::now();
    let strategies = strategies_or_all(&args.strategies);
    let corpus = read_corpus(&args.dir, &args.programs, args.limit)?;
    let (work, _temp) = match &args.work_dir {
        Some(d) => {
            std::fs::create_dir_all(d).with_context(|| format!("creating {}", d.display()))?;
            (d.clone(), None)
        }
        None => {
            let t = tempfile::Builder::new()
                .prefix("hindsight-bench-")
                .tempdir()?;
            (t.path().to_path_buf(), Some(t))
        }
    };

    // Rule 3 of the reference oracle runs the correct programs' classes in a replayer JVM.
    let replayer = if args.no_replay {
        None
    } else {
        let classes = work.join("replayer");
        compile_replayer(&classes)?;
        Some(classes)
    };

    // The correct programs first: every mutant of a program needs its reference trace.
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

    // Rule 3 is only as good as the replay: each correct program's calls, replayed on its own
    // classes, must end as recorded.
    let replay_checks: Vec<(String, ReplayCheck)> = match &replayer {
        None => Vec::new(),
        Some(replayer_classes) => {
            let checks = parallel(corpus.len(), args.jobs, |i| {
                let p = &corpus[i];
                let trace = references[i].as_ref().ok()?;
                let dir = work.join(&p.name);
                let mut r = ProcessReplayer::new(
                    &dir.join("classes"),
                    replayer_classes,
                    dir.join("replayer.log"),
                );
                Some(replay_check(trace, &mut r).map(|c| (p.name.clone(), c)))
            });
            let mut ok = Vec::new();
            for c in checks.into_iter().flatten() {
                let (name, check) = c?;
                eprintln!("{}", replay_check_line(&name, &check));
                ok.push((name, check));
            }
            ok
        }
    };

    let tasks: Vec<(usize, &Mutant)> = corpus
        .iter()
        .enumerate()
        .flat_map(|(i, p)| p.mutants.iter().map(move |m| (i, m)))
        .collect();
    let mutants = parallel(tasks.len(), args.jobs, |t| {
        let (i, m) = tasks[t];
        let p = &corpus[i];
        let outcome = match &references[i] {
            Ok(reference) => run_mutant(p, m, reference, &strategies, &work, replayer.as_deref()),
            Err(_) => Err(anyhow::anyhow!("the correct program could not be recorded")),
        };
        let result = match outcome {
            Ok(d) => MutantResult {
                program: p.name.clone(),
                mutant: m.clone(),
                debug: Some(d),
                error: None,
            },
            Err(e) => MutantResult {
                program: p.name.clone(),
                mutant: m.clone(),
                debug: None,
                error: Some(format!("{e:#}")),
            },
        };
        progress(&result);
        result
    });

    let mut balanced_rows = Vec::new();
    for (p, r) in corpus.iter().zip(&references) {
        if let Ok(trace) = r {
            match balanced(trace, &strategies) {
                Ok((evaluations, coverage)) => balanced_rows.push(BalancedRow {
                    program: p.name.clone(),
                    coverage,
                    evaluations,
                }),
                Err(e) => eprintln!(
                    "hindsight: {}: the balanced-ET evaluation failed: {e}",
                    p.name
                ),
            }
        }
    }

    let rows = summarize(&mutants, &strategies);
    if args.json {
        output::print_json(&StrategiesJson {
            strategies: &strategies,
            programs: &rows,
            balanced: &balanced_rows,
            mutants: &mutants,
            replay_checks: &replay_checks,
            failed_references,
            wall_ms: started.elapsed().as_millis() as u64,
        })?;
    } else {
        println!("Questions per mutant, reference oracle (the jhyde paper's Table 1 layout):\n");
        println!("{}", render_strategies(&rows, &strategies));
        if !replay_checks.is_empty() {
            println!("Rule 3 of the reference oracle, each correct program's calls replayed on its own classes:\n");
            for (name, check) in &replay_checks {
                println!("{}", replay_check_line(name, check));
                for (method, recorded, replayed) in check.different.iter().take(3) {
                    println!("    differs: {method}\n      recorded {recorded}\n      replayed {replayed}");
                }
                for (reason, n) in &check.reasons {
                    println!("    {n:>5} {reason}");
                }
            }
            println!();
        }
        println!("Balanced-ET method: every askable node of the correct program's tree taken as the buggy one, questions averaged:\n");
        println!("{}", render_balanced(&balanced_rows, &strategies));
        let missed: Vec<String> = mutants
            .iter()
            .filter_map(|r| {
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
            })
            .collect();
        if !missed.is_empty() {
            println!("Mutants not found by every strategy:");
            for m in missed {
                println!("{m}");
            }
        }
        println!(
            "\n{} mutants in {:.1} s",
            mutants.len(),
            started.elapsed().as_secs_f64()
        );
    }
    Ok(0)
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

#[derive(Serialize)]
struct LatencyJson {
    strategy: StrategyName,
    questions_per_session: f64,
    step: LatencyStats,
    answer: LatencyStats,
}

#[derive(Serialize)]
struct SessionJson {
    nodes: usize,
    sessions: usize,
    strategies: Vec<LatencyJson>,
}

fn ms(d: std::time::Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn session(args: SessionArgs) -> Result<u8> {
    if args.calls == 0 || args.sessions == 0 {
        bail!("--calls and --sessions must be at least 1");
    }
    let strategies = strategies_or_all(&args.strategies);
    let shape = Shape {
        calls: args.calls,
        methods: 400,
        external: 0.1,
        coverage: true,
        threads: 1,
    };
    let tree = match args.resident_nodes {
        None => random_tree(42, &shape),
        Some(n) => {
            let mut tree = ExecutionTree::new();
            tree.set_persistence_bound(Some(ScratchFiles::bound(n)));
            random_recording(42, &shape, |e| match e {
                SyntheticEvent::Header(h) => {
                    let _ = tree.push(&h);
                }
                SyntheticEvent::Coverage(node, kind, entities) => {
                    let _ = tree.set_coverage(node, kind, &entities);
                }
            });
            tree.seal();
            tree
        }
    };
    let probe = Session::new(
        tree.clone(),
        create(StrategyName::TopDown, None)?,
        TrustPolicy::none(),
    );
    let askable = eval::askable_nodes(&probe);
    drop(probe);
    if askable.is_empty() {
        bail!("the random tree has no askable node; give more --calls");
    }
    let mut rng = Rng::new(7);
    let buggy: Vec<_> = (0..args.sessions)
        .map(|_| askable[rng.below(askable.len() as u64) as usize])
        .collect();
    if !args.json {
        println!(
            "random tree of {} nodes, {} sessions per strategy (each with another buggy node)",
            tree.len(),
            args.sessions
        );
        println!(
            "{:<18} {:>9} {:>11} {:>11} {:>11} {:>12} {:>12}",
            "strategy", "questions", "step med", "step p95", "step max", "answer med", "answer p95"
        );
    }
    let mut rows = Vec::new();
    for s in strategies {
        let (step, answer) = answer_latency(tree.clone(), s, None, &buggy)?;
        let per_session = step.questions as f64 / args.sessions as f64;
        if !args.json {
            println!(
                "{:<18} {:>9.1} {:>8.3} ms {:>8.3} ms {:>8.3} ms {:>9.3} ms {:>9.3} ms",
                s.as_str(),
                per_session,
                ms(step.median),
                ms(step.p95),
                ms(step.max),
                ms(answer.median),
                ms(answer.p95)
            );
        }
        rows.push(LatencyJson {
            strategy: s,
            questions_per_session: per_session,
            step,
            answer,
        });
    }
    if args.json {
        output::print_json(&SessionJson {
            nodes: tree.len(),
            sessions: args.sessions,
            strategies: rows,
        })?;
    }
    Ok(0)
}
