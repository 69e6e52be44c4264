//! Bytecode mutants of a library jar (`cli/java/hindsight/mutate/`, ASM): compiled next to the
//! benchmark's work files, run as a JVM per request.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};

include!(concat!(env!("OUT_DIR"), "/mutator_sources.rs"));

/// The ASM jars the mutator needs (Debian's `libasm-java`), found like the agent's build finds
/// them: `HINDSIGHT_ASM_DIR`, else `/usr/share/java`.
fn asm_jars() -> Result<Vec<PathBuf>> {
    let dir = std::env::var_os("HINDSIGHT_ASM_DIR").unwrap_or_else(|| "/usr/share/java".into());
    let jars: Vec<PathBuf> = ["asm.jar", "asm-tree.jar"]
        .iter()
        .map(|j| Path::new(&dir).join(j))
        .collect();
    for j in &jars {
        if !j.is_file() {
            bail!(
                "ASM jar {} not found: install it (Debian: apt-get install libasm-java) or set HINDSIGHT_ASM_DIR to the folder holding asm.jar and asm-tree.jar",
                j.display()
            );
        }
    }
    Ok(jars)
}

/// One mutation point: an instruction of a method and what the mutation does to it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Point {
    /// Dotted class name.
    pub class: String,
    pub method: String,
    pub descriptor: String,
    /// The instruction's index in the method's instruction list.
    pub index: usize,
    /// `IADD->ISUB`, `IINC 1->-1`, ...
    pub what: String,
}

impl Point {
    /// `pkg.Class.method`, as the benchmark names the mutated method.
    pub fn qualified(&self) -> String {
        format!("{}.{}", self.class, self.method)
    }
}

/// The compiled mutator.
pub struct Mutator {
    classpath: OsString,
}

impl Mutator {
    /// Compiles the mutator into `classes`.
    pub fn compile(classes: &Path) -> Result<Mutator> {
        let asm = asm_jars()?;
        let src = classes.with_extension("src");
        let package = src.join("hindsight/mutate");
        std::fs::create_dir_all(&package)
            .with_context(|| format!("creating {}", package.display()))?;
        let mut files = Vec::new();
        for (name, text) in MUTATOR_SOURCES {
            let path = package.join(name);
            std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
            files.push(path);
        }
        let asm_path = std::env::join_paths(&asm)?;
        let out = Command::new("javac")
            .args(["--release", "17", "-cp"])
            .arg(&asm_path)
            .arg("-d")
            .arg(classes)
            .args(&files)
            .output()
            .context("running javac for the mutant generator: install a JDK 17 (Debian: apt-get install openjdk-17-jdk-headless)")?;
        if !out.status.success() {
            bail!(
                "javac failed on the mutant generator:\n{}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        let mut classpath = asm;
        classpath.push(classes.to_path_buf());
        Ok(Mutator {
            classpath: std::env::join_paths(classpath)?,
        })
    }

    fn run(&self, args: &[OsString]) -> Result<String> {
        let out = Command::new("java")
            .arg("-cp")
            .arg(&self.classpath)
            .arg("hindsight.mutate.Mutator")
            .args(args)
            .output()
            .context("running the mutant generator (java)")?;
        if !out.status.success() {
            bail!(
                "the mutant generator failed:\n{}",
                String::from_utf8_lossy(&out.stderr).trim_end()
            );
        }
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    }

    /// Every mutation point of the methods listed in `methods` (one `pkg.Class.name
    /// descriptor` a line) found in `jar`.
    pub fn points(&self, jar: &Path, methods: &Path) -> Result<Vec<Point>> {
        let text = self.run(&["list".into(), jar.into(), methods.into()])?;
        text.lines()
            .map(|line| {
                let mut f = line.splitn(5, ' ');
                let mut next = || {
                    f.next()
                        .map(str::to_string)
                        .with_context(|| format!("the mutant generator printed `{line}`"))
                };
                Ok(Point {
                    class: next()?,
                    method: next()?,
                    descriptor: next()?,
                    index: next()?
                        .parse()
                        .with_context(|| format!("the mutant generator printed `{line}`"))?,
                    what: next()?,
                })
            })
            .collect()
    }

    /// Writes the class of `jar` that `point` mutates, mutated, under `out` (by package).
    pub fn write(&self, jar: &Path, point: &Point, out: &Path) -> Result<()> {
        self.run(&[
            "write".into(),
            jar.into(),
            point.class.clone().into(),
            point.method.clone().into(),
            point.descriptor.clone().into(),
            point.index.to_string().into(),
            out.into(),
        ])?;
        Ok(())
    }
}

/// How a plain run of a program ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ran {
    /// Exit code (or `None` when killed by a signal), standard output and error.
    Exited(Option<i32>, Vec<u8>, Vec<u8>),
    TimedOut,
}

/// Runs `command` plainly, killing it after `limit`.
pub fn run_with_limit(command: &[OsString], limit: Duration) -> Result<Ran> {
    let dir = tempfile::tempdir()?;
    let (out_path, err_path) = (dir.path().join("out"), dir.path().join("err"));
    let mut child = Command::new(&command[0])
        .args(&command[1..])
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out_path)?)
        .stderr(std::fs::File::create(&err_path)?)
        .spawn()
        .with_context(|| format!("running {}", command[0].to_string_lossy()))?;
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok(Ran::Exited(
                status.code(),
                std::fs::read(&out_path)?,
                std::fs::read(&err_path)?,
            ));
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return Ok(Ran::TimedOut);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}
