//! `hindsight bench library`: the reference oracle on libraries nobody here wrote. Each
//! library of DIR (`tests/library/NAME/`) is a Debian jar and a small driver; the benchmark
//! makes bytecode mutants of the jar (one instruction of one method the correct run called,
//! `crate::mutator`), keeps those that change what the driver prints, and debugs each with every
//! strategy, the unmutated jar's run answering as the reference oracle. It reports found/total
//! and the time of each session (docs/benchmarks.md).

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use hindsight_core::evaluation::{debug_mutant, Program, StrategyRun, TreeShape};
use hindsight_core::oracle::{Replayer, TraceRun};
use hindsight_core::strategy::StrategyName;
use serde::{Deserialize, Serialize};

use super::corpus::{parallel, record_program};
use super::{parse_strategy, strategies_or_all};
use crate::mutator::{run_with_limit, Mutator, Point, Ran};
use crate::output;
use crate::replayer::{compile_replayer, ProcessReplayer};

/// Debug bytecode mutants of real libraries (Debian jars) with every strategy, the unmutated
/// jar's run answering as the reference oracle; report found/total and the time per session.
///
/// DIR holds one directory per library with `library.toml` and the driver's `src/`
/// (tests/library/README.md). Needs `javac`, `java` (JDK 17) and ASM (`libasm-java`).
#[derive(clap::Args)]
pub struct LibraryArgs {
    /// The libraries' directory (`tests/library`)
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// The strategies to run, separated by commas (default: every available one)
    #[arg(long, value_name = "NAMES", value_delimiter = ',', value_parser = parse_strategy)]
    pub strategies: Vec<StrategyName>,
    /// Mutants per library (default: library.toml's `mutants`)
    #[arg(long, value_name = "N")]
    pub mutants: Option<usize>,
    /// Arguments of the driver, separated by commas (default: library.toml's `args`), e.g.
    /// a size
    #[arg(long, value_name = "ARGS", value_delimiter = ',')]
    pub args: Option<Vec<String>>,
    /// JVMs to run at once while looking for mutants
    #[arg(short = 'j', long, value_name = "N", default_value_t = 2)]
    pub jobs: usize,
    /// Leave out the reference oracle's rule 3 (replaying the correct library)
    #[arg(long)]
    pub no_replay: bool,
    /// Keep the work files (classes, mutants, traces) in this directory
    #[arg(long, value_name = "DIR")]
    pub work_dir: Option<PathBuf>,
    /// Print one JSON object on stdout
    #[arg(long)]
    pub json: bool,
}

/// `library.toml`.
#[derive(Clone, Debug, Deserialize)]
struct Library {
    /// The library's jars; mutants are made of the first one.
    jars: Vec<PathBuf>,
    /// The driver's main class.
    main: String,
    #[serde(default)]
    args: Vec<String>,
    /// Class name prefixes whose methods may be mutated.
    mutate: Vec<String>,
    /// Mutants wanted (those that change the driver's output).
    mutants: usize,
    /// Chooses the mutation points tried, in a reproducible order.
    #[serde(default)]
    seed: u64,
}

/// A plain run longer than this is a mutant that loops: it is not kept.
const RUN_LIMIT: Duration = Duration::from_secs(20);

#[derive(Serialize)]
struct MutantJson {
    id: String,
    point: Point,
    /// Calls in the mutant's execution tree.
    calls: usize,
    runs: Vec<SessionJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

#[derive(Serialize)]
struct SessionJson {
    #[serde(flatten)]
    run: StrategyRun,
    /// The whole session: opening both traces, every question and answer, the report.
    session_ms: f64,
}

#[derive(Serialize)]
struct LibraryJson {
    name: String,
    reference_calls: usize,
    /// Mutation points in the methods the correct run called.
    points: usize,
    /// Points tried, and of those: same output (equivalent), looped, kept.
    tried: usize,
    equivalent: usize,
    timed_out: usize,
    mutants: Vec<MutantJson>,
}

#[derive(Serialize)]
struct Json<'a> {
    strategies: &'a [StrategyName],
    libraries: Vec<LibraryJson>,
    wall_ms: u64,
}

pub fn run(args: LibraryArgs) -> Result<u8> {
    let started = Instant::now();
    let strategies = strategies_or_all(&args.strategies);
    let (work, _temp) = super::work_dir(args.work_dir.as_deref(), "hindsight-library-")?;
    let mutator = Mutator::compile(&work.join("mutator"))?;
    let replayer = if args.no_replay {
        None
    } else {
        let classes = work.join("replayer");
        compile_replayer(&classes)?;
        Some(classes)
    };
    let mut libraries = Vec::new();
    for (name, dir) in library_dirs(&args.dir)? {
        let text = std::fs::read_to_string(dir.join("library.toml"))
            .with_context(|| format!("reading {}", dir.join("library.toml").display()))?;
        let mut lib: Library = toml::from_str(&text).with_context(|| {
            format!(
                "{} is not valid (see tests/library/README.md)",
                dir.join("library.toml").display()
            )
        })?;
        if let Some(a) = &args.args {
            lib.args = a.clone();
        }
        if let Some(n) = args.mutants {
            lib.mutants = n;
        }
        let result = library(
            &name,
            &dir,
            &lib,
            &work.join(&name),
            &mutator,
            &strategies,
            replayer.as_deref(),
            args.jobs,
        )
        .with_context(|| format!("library {name}"))?;
        if !args.json {
            print_library(&result, &strategies);
        }
        libraries.push(result);
    }
    if args.json {
        output::print_json(&Json {
            strategies: &strategies,
            libraries,
            wall_ms: started.elapsed().as_millis() as u64,
        })?;
    } else {
        println!("in {:.1} s", started.elapsed().as_secs_f64());
    }
    Ok(0)
}

/// The libraries of DIR: subdirectories with a `library.toml`, by name.
fn library_dirs(dir: &Path) -> Result<Vec<(String, PathBuf)>> {
    let mut out: Vec<(String, PathBuf)> = std::fs::read_dir(dir)
        .with_context(|| format!("reading the library directory {}", dir.display()))?
        .filter_map(|e| e.ok())
        .filter(|e| e.path().join("library.toml").is_file())
        .map(|e| (e.file_name().to_string_lossy().into_owned(), e.path()))
        .collect();
    out.sort();
    if out.is_empty() {
        bail!(
            "{} holds no library (no subdirectory with a library.toml); give one like tests/library",
            dir.display()
        );
    }
    Ok(out)
}

fn java_sources(dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    for entry in std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
        let path = entry?.path();
        if path.is_dir() {
            java_sources(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "java") {
            out.push(path);
        }
    }
    Ok(())
}

/// A reproducible shuffle (xorshift), so that the mutants tried spread over the methods.
fn shuffle<T>(items: &mut [T], seed: u64) {
    let mut x = seed ^ 0x2545_f491_4f6c_dd1d;
    for i in (1..items.len()).rev() {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        items.swap(i, (x % (i as u64 + 1)) as usize);
    }
}

#[allow(clippy::too_many_arguments)]
fn library(
    name: &str,
    dir: &Path,
    lib: &Library,
    work: &Path,
    mutator: &Mutator,
    strategies: &[StrategyName],
    replayer_classes: Option<&Path>,
    jobs: usize,
) -> Result<LibraryJson> {
    let Some(jar) = lib.jars.first() else {
        bail!("library.toml lists no jar");
    };
    for j in &lib.jars {
        if !j.is_file() {
            bail!(
                "{} not found: install the Debian packages of tests/workloads/packages.txt",
                j.display()
            );
        }
    }
    // The driver, compiled against the jars.
    let classes = work.join("classes");
    let mut files = Vec::new();
    java_sources(&dir.join("src"), &mut files)?;
    let jars = std::env::join_paths(&lib.jars)?;
    let out = Command::new("javac")
        .args(["--release", "17", "-g", "-encoding", "UTF-8", "-cp"])
        .arg(&jars)
        .arg("-d")
        .arg(&classes)
        .args(&files)
        .output()
        .context("running javac: install a JDK 17")?;
    if !out.status.success() {
        bail!(
            "javac failed on the driver:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let correct_path = |extra: Option<&Path>| -> Result<OsString> {
        let mut parts: Vec<PathBuf> = extra.map(Path::to_path_buf).into_iter().collect();
        parts.push(classes.clone());
        parts.extend(lib.jars.iter().cloned());
        Ok(std::env::join_paths(parts)?)
    };
    let program = Program {
        main: lib.main.clone(),
        args: lib.args.clone(),
        description: String::new(),
    };
    let command = |classpath: OsString| -> Vec<OsString> {
        let mut c: Vec<OsString> = vec![
            "java".into(),
            "-cp".into(),
            classpath,
            lib.main.clone().into(),
        ];
        c.extend(lib.args.iter().map(OsString::from));
        c
    };
    let expected = run_with_limit(&command(correct_path(None)?), RUN_LIMIT)?;
    if !matches!(expected, Ran::Exited(Some(0), ..)) {
        bail!("the driver does not run to its end on the correct library: {expected:?}");
    }
    let reference = work.join("reference.htrace");
    record_program(Path::new(&correct_path(None)?), &program, &reference)?;

    // The mutation points of the methods the correct run called.
    let run = TraceRun::open(&reference)?;
    let reference_calls = run.reader().info()?.nodes as usize;
    let mut methods: Vec<String> = run
        .calls_by_method()
        .filter(|(k, _)| lib.mutate.iter().any(|p| k.class.starts_with(p.as_str())))
        .map(|(k, _)| format!("{}.{} {}", k.class, k.name, k.descriptor))
        .collect();
    drop(run);
    methods.sort();
    let list = work.join("methods.txt");
    std::fs::write(&list, methods.join("\n") + "\n")?;
    let mut points = mutator.points(jar, &list)?;
    let total_points = points.len();
    shuffle(&mut points, lib.seed);

    // Mutants that change the output, tried in batches of `jobs`.
    let (mut tried, mut equivalent, mut timed_out) = (0, 0, 0);
    let mut kept: Vec<(String, Point, PathBuf)> = Vec::new();
    let mut next = 0;
    while kept.len() < lib.mutants && next < points.len() {
        let batch: Vec<(usize, Point)> = points[next..]
            .iter()
            .take(jobs.max(1))
            .cloned()
            .enumerate()
            .map(|(i, p)| (next + i, p))
            .collect();
        next += batch.len();
        let outcomes = parallel(batch.len(), jobs, |i| -> Result<(Ran, PathBuf)> {
            let (n, point) = &batch[i];
            let dir = work.join(format!("m{n}"));
            let mutated = dir.join("classes");
            mutator.write(jar, point, &mutated)?;
            Ok((
                run_with_limit(&command(correct_path(Some(&mutated))?), RUN_LIMIT)?,
                mutated,
            ))
        });
        for ((n, point), outcome) in batch.into_iter().zip(outcomes) {
            tried += 1;
            let (ran, mutated) = outcome?;
            match ran {
                Ran::TimedOut => timed_out += 1,
                r if r == expected => equivalent += 1,
                _ if kept.len() < lib.mutants => {
                    kept.push((format!("{name}-m{n}"), point, mutated));
                }
                _ => {}
            }
        }
    }

    let mut mutants = Vec::new();
    for (id, point, mutated) in kept {
        let result = debug_library_mutant(
            &id,
            &point,
            &program,
            &correct_path(Some(&mutated))?,
            &correct_path(None)?,
            &reference,
            &mutated.with_file_name("mutant.htrace"),
            strategies,
            replayer_classes,
        );
        let m = match result {
            Ok((calls, runs)) => MutantJson {
                id,
                point,
                calls,
                runs,
                error: None,
            },
            Err(e) => MutantJson {
                id,
                point,
                calls: 0,
                runs: Vec::new(),
                error: Some(format!("{e:#}")),
            },
        };
        progress(&m);
        mutants.push(m);
    }
    Ok(LibraryJson {
        name: name.to_string(),
        reference_calls,
        points: total_points,
        tried,
        equivalent,
        timed_out,
        mutants,
    })
}

/// Records one mutant and debugs it with each strategy, each session timed on its own (a fresh
/// oracle, as `hindsight debug --oracle reference:TRACE` has).
#[allow(clippy::too_many_arguments)]
fn debug_library_mutant(
    id: &str,
    point: &Point,
    program: &Program,
    mutant_path: &OsString,
    correct_path: &OsString,
    reference: &Path,
    trace: &Path,
    strategies: &[StrategyName],
    replayer_classes: Option<&Path>,
) -> Result<(usize, Vec<SessionJson>)> {
    record_program(Path::new(mutant_path), program, trace)?;
    let mut runs = Vec::new();
    let mut calls = 0;
    for &s in strategies {
        let mut replayer = replayer_classes.map(|r| {
            ProcessReplayer::new(
                Path::new(correct_path),
                r,
                trace.with_file_name(format!("replayer-{s}.log")),
            )
        });
        let started = Instant::now();
        let debug = debug_mutant(
            trace,
            reference,
            &[s],
            &point.qualified(),
            replayer.as_mut().map(|r| r as &mut dyn Replayer),
            TreeShape::default(),
        )
        .with_context(|| format!("mutant {id}, strategy {s}"))?;
        let session_ms = started.elapsed().as_secs_f64() * 1e3;
        calls = debug.calls;
        runs.extend(
            debug
                .runs
                .into_iter()
                .map(|run| SessionJson { run, session_ms }),
        );
    }
    Ok((calls, runs))
}

fn progress(m: &MutantJson) {
    let runs: Vec<String> = m
        .runs
        .iter()
        .map(|s| {
            format!(
                "{} {}{} {:.0} ms",
                s.run.strategy,
                s.run.questions,
                if s.run.found { "" } else { " MISSED" },
                s.session_ms
            )
        })
        .collect();
    match &m.error {
        Some(e) => eprintln!("{} ({}): failed: {e}", m.id, m.point.qualified()),
        None => eprintln!(
            "{} ({} {}): {}",
            m.id,
            m.point.qualified(),
            m.point.what,
            runs.join(", ")
        ),
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn print_library(lib: &LibraryJson, strategies: &[StrategyName]) {
    println!(
        "{}: reference run of {} calls; {} mutation points, {} tried: {} equivalent, {} looped, {} kept",
        lib.name,
        lib.reference_calls,
        lib.points,
        lib.tried,
        lib.equivalent,
        lib.timed_out,
        lib.mutants.len()
    );
    println!(
        "{:<18} {:>7} {:>10} {:>10} {:>10} {:>12} {:>8}",
        "strategy", "found", "questions", "median ms", "max ms", "answer med", "DK"
    );
    for &s in strategies {
        let sessions: Vec<&SessionJson> = lib
            .mutants
            .iter()
            .flat_map(|m| m.runs.iter())
            .filter(|r| r.run.strategy == s)
            .collect();
        let found = sessions.iter().filter(|r| r.run.found).count();
        let questions: usize = sessions.iter().map(|r| r.run.questions).sum();
        let dk: usize = sessions.iter().map(|r| r.run.dont_know()).sum();
        let times: Vec<f64> = sessions.iter().map(|r| r.session_ms).collect();
        let max = times.iter().copied().fold(0.0, f64::max);
        let answers: Vec<f64> = sessions
            .iter()
            .flat_map(|r| r.run.answer_ms.iter().copied())
            .collect();
        let n = sessions.len().max(1) as f64;
        println!(
            "{:<18} {:>3}/{:<3} {:>10.1} {:>10.0} {:>10.0} {:>9.2} ms {:>8.1}",
            s.as_str(),
            found,
            lib.mutants.len(),
            questions as f64 / n,
            median(times),
            max,
            median(answers),
            dk as f64 / n
        );
    }
    for m in &lib.mutants {
        if let Some(e) = &m.error {
            println!("  {} ({}): {e}", m.id, m.point.qualified());
        }
        for r in m.runs.iter().filter(|r| !r.run.found) {
            println!(
                "  missed: {} ({} {}) with {}: {}{}",
                m.id,
                m.point.qualified(),
                m.point.what,
                r.run.strategy,
                r.run.result,
                r.run
                    .reported_method
                    .as_deref()
                    .map_or(String::new(), |x| format!(" {x}"))
            );
        }
    }
    println!();
}
