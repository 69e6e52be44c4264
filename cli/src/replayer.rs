//! The replayer process of the reference oracle's rule 3 (docs/replay-protocol.md): a JVM on
//! the correct program's classes, one request and one answer at a time over its pipes.

use std::ffi::OsString;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use anyhow::{bail, Context, Result};
use hindsight_core::oracle::{ReplayError, Replayer};

include!(concat!(env!("OUT_DIR"), "/replayer_sources.rs"));

/// The replayer's main class.
const MAIN: &str = "hindsight.replay.Replayer";

/// Compiles the replayer into `classes` (`javac --release 17`).
pub fn compile_replayer(classes: &Path) -> Result<()> {
    let src = classes.with_extension("src");
    let package = src.join("hindsight/replay");
    std::fs::create_dir_all(&package).with_context(|| format!("creating {}", package.display()))?;
    let mut files = Vec::new();
    for (name, text) in REPLAYER_SOURCES {
        let path = package.join(name);
        std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
        files.push(path);
    }
    let out = Command::new("javac")
        .args(["--release", "17", "-d"])
        .arg(classes)
        .args(&files)
        .output()
        .context("running javac for the replayer: install a JDK 17 (Debian: apt-get install openjdk-17-jdk-headless)")?;
    if !out.status.success() {
        bail!(
            "javac failed on the replayer:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    Ok(())
}

/// A replayer JVM, started on first use and again after it exits (it exits after a call that
/// ran past its time limit).
pub struct ProcessReplayer {
    classpath: OsString,
    log: PathBuf,
    running: Option<Running>,
    /// Answers received over every start: none means the replayer cannot run at all.
    answered: usize,
}

struct Running {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl ProcessReplayer {
    /// A replayer of the program in `program_classes`, the replayer's own classes in
    /// `replayer_classes`; its diagnostics go to `log`.
    pub fn new(program_classes: &Path, replayer_classes: &Path, log: PathBuf) -> Self {
        let mut classpath = program_classes.as_os_str().to_owned();
        classpath.push(":");
        classpath.push(replayer_classes.as_os_str());
        ProcessReplayer {
            classpath,
            log,
            running: None,
            answered: 0,
        }
    }

    fn start(&mut self) -> Result<Running, ReplayError> {
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.log)
            .map_err(|e| ReplayError(format!("opening {}: {e}", self.log.display())))?;
        let mut child = Command::new("java")
            .arg("-cp")
            .arg(&self.classpath)
            .arg(MAIN)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(log)
            .spawn()
            .map_err(|e| ReplayError(format!("starting `java {MAIN}`: {e}")))?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = BufReader::new(child.stdout.take().expect("piped"));
        Ok(Running {
            child,
            stdin,
            stdout,
        })
    }

    /// One exchange with the running replayer; `None` when it is gone (exited, pipe closed).
    fn try_exchange(&mut self, request: &str) -> Result<Option<String>, ReplayError> {
        if self.running.is_none() {
            self.running = Some(self.start()?);
        }
        let r = self.running.as_mut().expect("just started");
        if r.child.try_wait().ok().flatten().is_some()
            || r.stdin.write_all(request.as_bytes()).is_err()
            || r.stdin.flush().is_err()
        {
            return Ok(None);
        }
        let mut answer = String::new();
        loop {
            let mut line = String::new();
            match r.stdout.read_line(&mut line) {
                Ok(0) | Err(_) => return Ok(None),
                Ok(_) => {}
            }
            let end = line.trim_end() == "END";
            answer.push_str(&line);
            if end {
                return Ok(Some(answer));
            }
        }
    }

    fn stop(&mut self) {
        if let Some(mut r) = self.running.take() {
            drop(r.stdin);
            let _ = r.child.kill();
            let _ = r.child.wait();
        }
    }
}

impl Replayer for ProcessReplayer {
    fn exchange(&mut self, request: &str) -> Result<String, ReplayError> {
        // A replayer that exited (after a timeout) is started again, once per request.
        for _ in 0..2 {
            if let Some(answer) = self.try_exchange(request)? {
                self.answered += 1;
                return Ok(answer);
            }
            self.stop();
        }
        if self.answered == 0 {
            return Err(ReplayError(format!(
                "the replayer JVM exits without answering (see {})",
                self.log.display()
            )));
        }
        // It answered before: this call kills it (say, a JVM error); the oracle cannot judge it.
        Ok("FAIL the replayer JVM exited twice on this call\nEND\n".into())
    }
}

impl Drop for ProcessReplayer {
    fn drop(&mut self) {
        self.stop();
    }
}
