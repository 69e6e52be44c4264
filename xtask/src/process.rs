//! Running external programs with a log file and a time limit, so that no task can hang.

use anyhow::{bail, Context, Result};
use std::fs::File;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Runs `cmd` with stdout and stderr appended to `log`, killing it after `limit`. Fails with the
/// log's tail when the program fails or times out.
pub fn run_logged(mut cmd: Command, what: &str, log: &Path, limit: Duration) -> Result<()> {
    if let Some(dir) = log.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let out = File::options()
        .create(true)
        .append(true)
        .open(log)
        .with_context(|| format!("cannot open log {}", log.display()))?;
    cmd.stdout(out.try_clone()?)
        .stderr(out)
        .stdin(Stdio::null());
    let child = cmd
        .spawn()
        .with_context(|| format!("{what}: cannot start {:?}", cmd.get_program()))?;
    match wait_with_limit(child, limit)? {
        Some(status) if status.success() => Ok(()),
        Some(status) => bail!(
            "{what} failed ({status}); log {}:\n{}",
            log.display(),
            tail(log, 30)
        ),
        None => bail!(
            "{what} did not finish within {} s and was killed; log {}:\n{}",
            limit.as_secs(),
            log.display(),
            tail(log, 30)
        ),
    }
}

/// Waits for `child`; kills it when `limit` passes and returns `None`.
pub fn wait_with_limit(
    mut child: Child,
    limit: Duration,
) -> Result<Option<std::process::ExitStatus>> {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok(Some(status));
        }
        if start.elapsed() >= limit {
            // The child may exit between the check and the kill; either way it is gone.
            let _ = child.kill();
            let _ = child.wait();
            return Ok(None);
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The last `n` lines of a text file (empty if unreadable).
pub fn tail(path: &Path, n: usize) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

/// Runs a short command and returns its stdout; fails with its stderr.
pub fn output(mut cmd: Command, what: &str) -> Result<String> {
    let out = cmd
        .output()
        .with_context(|| format!("{what}: cannot start {:?}", cmd.get_program()))?;
    if !out.status.success() {
        bail!(
            "{what} failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kills_a_program_that_overruns_its_limit() {
        let child = Command::new("sleep").arg("30").spawn().unwrap();
        assert!(wait_with_limit(child, Duration::from_millis(200))
            .unwrap()
            .is_none());
    }

    #[test]
    fn reports_failure_with_the_log() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("x.log");
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "echo the-reason; exit 3"]);
        let err = run_logged(cmd, "demo", &log, Duration::from_secs(10))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("demo failed") && err.contains("the-reason"),
            "{err}"
        );
    }
}
