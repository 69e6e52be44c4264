//! The debuggee's command line: the user's command with the agent's JVM options, how it is
//! spawned, and the exit statuses `hindsight` reports.
//!
//! A command whose program is `java` gets `-javaagent:...` (and the options that go with it) as
//! its first arguments. Any other command (a script, `mvn test`) gets them through
//! `JAVA_TOOL_OPTIONS`, which every JVM it starts reads; each of those JVMs then streams to the
//! same socket and the recorder writes one trace per JVM.

use std::ffi::{OsStr, OsString};
use std::io;
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};

use anyhow::{anyhow, Context, Result};

/// Exit statuses of `hindsight` itself, chosen like `env` and `timeout` do so that they don't
/// collide with the usual statuses of the debuggee, which `record` passes through.
pub mod exit {
    /// Hindsight failed (bad trace, recorder error, ...).
    pub const FAILURE: i32 = 125;
    /// The command was found but could not be executed.
    pub const CANNOT_EXECUTE: i32 = 126;
    /// The command was not found.
    pub const NOT_FOUND: i32 = 127;
}

/// An error starting the debuggee, with the exit status `hindsight` reports for it.
#[derive(Debug)]
pub struct LaunchError {
    pub status: i32,
    pub message: String,
}

impl std::fmt::Display for LaunchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for LaunchError {}

/// Where the debuggee's standard output goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Output {
    /// Its own stdout: the user sees the program as usual.
    Inherit,
    /// Our stderr, so that our stdout holds only JSON.
    ToStderr,
    /// Nowhere, stderr included: the benchmark runs many programs whose output nobody reads.
    Discard,
}

/// Whether `program` names a Java launcher (`java`, `/usr/bin/java`, `java.exe`).
fn is_java_launcher(program: &OsStr) -> bool {
    let name = Path::new(program).file_name().unwrap_or(program);
    name == "java" || name == "java.exe"
}

/// Builds the command line that runs `command` with the JVM options `jvm_options`
/// (`-javaagent:JAR=OPTIONS` and the options that go with it).
pub(super) fn with_agent(command: &[OsString], jvm_options: &[String]) -> Result<Command> {
    let (program, args) = command.split_first().ok_or_else(|| {
        anyhow!("no command given: put the program after `--`, e.g. `-- java -cp classes Main`")
    })?;
    let mut cmd = Command::new(program);
    if is_java_launcher(program) {
        cmd.args(jvm_options);
    } else {
        let mut options = OsString::from(jvm_options.join(" "));
        if let Some(existing) = std::env::var_os("JAVA_TOOL_OPTIONS") {
            options.push(" ");
            options.push(existing);
        }
        cmd.env("JAVA_TOOL_OPTIONS", options);
    }
    cmd.args(args);
    Ok(cmd)
}

/// Spawns `cmd` with stdin passed through and stdout as `output` says.
pub(super) fn spawn(mut cmd: Command, output: Output) -> Result<Child, LaunchError> {
    cmd.stdin(Stdio::inherit()).stderr(Stdio::inherit());
    match output {
        Output::Inherit => {
            cmd.stdout(Stdio::inherit());
        }
        Output::ToStderr => {
            cmd.stdout(io::stderr());
        }
        Output::Discard => {
            cmd.stdout(Stdio::null()).stderr(Stdio::null());
        }
    }
    let program = cmd.get_program().to_string_lossy().into_owned();
    cmd.spawn().map_err(|e| match e.kind() {
        io::ErrorKind::NotFound => LaunchError {
            status: exit::NOT_FOUND,
            message: if program == "java" {
                "cannot run `java`: it is not on the PATH; install a JDK 17 (Debian: apt-get install openjdk-17-jdk-headless) or name the launcher's full path".to_string()
            } else {
                format!("cannot run `{program}`: no such command")
            },
        },
        io::ErrorKind::PermissionDenied => LaunchError {
            status: exit::CANNOT_EXECUTE,
            message: format!("cannot run `{program}`: permission denied"),
        },
        _ => LaunchError {
            status: exit::CANNOT_EXECUTE,
            message: format!("cannot run `{program}`: {e}"),
        },
    })
}

/// The status `hindsight` exits with for a debuggee that ended with `status`: its exit code, or
/// 128 + the signal that killed it, as shells report it.
pub fn passthrough_status(status: ExitStatus) -> i32 {
    if let Some(code) = status.code() {
        return code;
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return 128 + signal;
        }
    }
    exit::FAILURE
}

/// Waits for the debuggee, with context for the error.
pub(super) fn wait(child: &mut Child) -> Result<ExitStatus> {
    child.wait().context("waiting for the program to end")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(cmd: &Command) -> Vec<String> {
        cmd.get_args()
            .map(|a| a.to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn java_gets_the_agent_as_first_argument() {
        let cmd = with_agent(
            &[
                "/usr/bin/java".into(),
                "-cp".into(),
                "x".into(),
                "Main".into(),
            ],
            &["-XX:X".into(), "-javaagent:a.jar=socket=s".into()],
        )
        .unwrap();
        assert_eq!(
            args(&cmd),
            ["-XX:X", "-javaagent:a.jar=socket=s", "-cp", "x", "Main"]
        );
        assert!(cmd.get_envs().all(|(k, _)| k != "JAVA_TOOL_OPTIONS"));
    }

    #[test]
    fn other_commands_get_the_agent_through_java_tool_options() {
        let cmd = with_agent(
            &["mvn".into(), "test".into()],
            &["-XX:X".into(), "-javaagent:a.jar".into()],
        )
        .unwrap();
        assert_eq!(args(&cmd), ["test"]);
        let value = cmd
            .get_envs()
            .find(|(k, _)| *k == "JAVA_TOOL_OPTIONS")
            .and_then(|(_, v)| v)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        assert!(value.starts_with("-XX:X -javaagent:a.jar"), "{value}");
    }

    #[test]
    fn an_empty_command_is_an_error() {
        let err = with_agent(&[], &["-javaagent:a.jar".into()]).unwrap_err();
        assert!(err.to_string().contains("no command given"));
    }

    #[test]
    fn a_missing_program_is_reported_as_not_found() {
        let cmd = Command::new("/nonexistent/hindsight-no-such-java");
        let err = spawn(cmd, Output::Inherit).unwrap_err();
        assert_eq!(err.status, exit::NOT_FOUND);
    }
}
