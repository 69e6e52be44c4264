//! The mutant corpus on disk (tests/README.md): programs and mutants read from their TOML,
//! compiled with `javac`, recorded with the agent; and a small scheduler for the JVMs.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use anyhow::{bail, Context, Result};
use hindsight_core::evaluation::{
    apply_mutant, debug_mutant, Mutant, MutantDebug, MutantList, Program, TreeShape,
};
use hindsight_core::oracle::Replayer;
use hindsight_core::strategy::StrategyName;

use crate::launch::{self, AgentArgs, Output};
use crate::replayer::ProcessReplayer;

/// A corpus program, read from its directory.
pub(super) struct CorpusProgram {
    pub name: String,
    pub dir: PathBuf,
    pub program: Program,
    pub mutants: Vec<Mutant>,
}

fn read_toml<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    toml::from_str(&text)
        .with_context(|| format!("{} is not valid (see tests/README.md)", path.display()))
}

pub(super) fn read_corpus(
    dir: &Path,
    only: &[String],
    limit: Option<usize>,
) -> Result<Vec<CorpusProgram>> {
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
    let recorded = launch::record_command(
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
pub(super) fn prepare_reference(p: &CorpusProgram, work: &Path) -> Result<PathBuf> {
    let dir = work.join(&p.name);
    let classes = dir.join("classes");
    compile(&p.dir.join("src"), &classes)?;
    let trace = dir.join("reference.htrace");
    record_program(&classes, &p.program, &trace)?;
    Ok(trace)
}

/// Builds, records and debugs one mutant.
pub(super) fn run_mutant(
    p: &CorpusProgram,
    m: &Mutant,
    reference: &Path,
    strategies: &[StrategyName],
    work: &Path,
    replayer: Option<&Path>,
    shape: TreeShape,
) -> Result<MutantDebug> {
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
        shape,
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
