//! The recording launcher: starts the user's command with the agent attached and records every
//! JVM it starts, for `record`, `debug -- COMMAND` and the benchmark alike.
//!
//! A command whose program is `java` gets `-javaagent:...` (and the options that go with it) as
//! its first arguments. Any other command (a script, `mvn test`) gets them through
//! `JAVA_TOOL_OPTIONS`, which every JVM it starts reads; each of those JVMs then streams to the
//! same socket and the recorder writes one trace per JVM.

mod command;

use std::ffi::OsString;
use std::path::Path;
use std::time::Instant;

use anyhow::{Context, Result};
use hindsight_agent::JIT_OPTIONS;
use hindsight_core::capture::{peak_rss_bytes, FeedSink, LiveRecording, ProgramEnd, RecordedTrace};
use hindsight_core::trace::store::{annotate, WriterConfig};

pub use command::{exit, passthrough_status, LaunchError, Output};

use crate::agent_jar;
use crate::progress::ProgressLine;

/// What the agent instruments.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct AgentArgs {
    /// Instrument only the classes matching these patterns (`pkg.*,pkg.Class`)
    #[arg(long, value_name = "PATTERNS")]
    pub include: Option<String>,
    /// Never instrument the classes matching these patterns (the JDK never is)
    #[arg(long, value_name = "PATTERNS")]
    pub exclude: Option<String>,
}

/// A finished recording of a command.
pub struct Recorded {
    pub traces: Vec<RecordedTrace>,
    pub status: std::process::ExitStatus,
    /// From the start of the program to its end: what recording costs the program.
    pub program_ms: u64,
    /// From the start of the program until its trace was complete.
    pub wall_ms: u64,
    /// CPU time of this process (spool, decoding, store) until the trace was complete.
    pub recorder_cpu_ms: Option<u64>,
}

/// A program running with the agent, its recording in progress. A thread of its own waits for
/// the program and then for its recorders, so that whoever holds this can go on taking in the
/// recording (a live session must: a recorder may wait for it).
pub struct Running {
    ended: std::thread::JoinHandle<Result<Recorded>>,
    /// Set once the program has ended (its recorders may still be storing).
    program_end: ProgramEnd,
    /// When the program was started.
    pub started: Instant,
}

/// Starts `command` with the agent, recording into `trace`; the first JVM's node headers go to
/// `sink` (a live session's feed, or only progress counters). The sink is dropped once every
/// recorder has finished, which ends a live session's feed (also when no JVM connected).
pub fn start(
    command: &[OsString],
    trace: &Path,
    agent: &AgentArgs,
    output: Output,
    sink: FeedSink,
) -> Result<Running> {
    keep_old(trace)?;
    let state = sink.state().clone();
    let live = LiveRecording::start(trace, WriterConfig::default(), sink.for_first_jvm())
        .context("opening the socket the agent connects to")?;
    state.watch_spool(live.spooled());
    let jar = agent_jar::agent_jar_path()?;
    let cmd = command::with_agent(command, &jvm_options(&jar, live.socket_path(), agent))?;
    let started = Instant::now();
    let mut child = command::spawn(cmd, output)?;
    let program_end = ProgramEnd::default();
    let exited = program_end.clone();
    let ended = std::thread::Builder::new()
        .name("hindsight-program".into())
        .spawn(move || {
            let status = command::wait(&mut child);
            let program_ms = started.elapsed().as_millis() as u64;
            exited.set();
            // Finished even when waiting failed, so that the recorders end and the feed with them.
            let traces = live.finish().context("waiting for the recorder to finish");
            Ok(Recorded {
                traces: traces?,
                status: status?,
                program_ms,
                wall_ms: started.elapsed().as_millis() as u64,
                recorder_cpu_ms: hindsight_core::capture::cpu_ms(),
            })
        })
        .context("starting the thread that waits for the program")?;
    Ok(Running {
        ended,
        program_end,
        started,
    })
}

impl Running {
    /// Whether the program has ended (its recorders may still be storing).
    pub fn program_has_ended(&self) -> bool {
        self.program_end.has_ended()
    }

    /// Waits for the program and its recorders to end; stores this process's peak resident
    /// memory in each trace (`peak_rss_bytes`).
    pub fn wait(self) -> Result<Recorded> {
        let recorded = self
            .ended
            .join()
            .map_err(|_| anyhow::anyhow!("the thread waiting for the program panicked"))??;
        if let Some(peak) = peak_rss_bytes() {
            for t in recorded.traces.iter().filter(|t| t.result.is_ok()) {
                annotate(&t.path, "peak_rss_bytes", peak as i64)
                    .with_context(|| format!("storing the peak memory in {}", t.path.display()))?;
            }
        }
        Ok(recorded)
    }
}

/// Runs `command` with the agent, recording into `trace`, with a progress line when `progress`.
pub fn record_command(
    command: &[OsString],
    trace: &Path,
    agent: &AgentArgs,
    output: Output,
    progress: bool,
) -> Result<Recorded> {
    let sink = FeedSink::progress_only();
    let line = ProgressLine::start(sink.state().clone(), trace.to_path_buf(), progress);
    let running = start(command, trace, agent, output, sink)?;
    let recorded = running.wait();
    line.finish();
    recorded
}

/// The agent's JIT options, then `-javaagent:JAR=socket=PATH,include=...` (agent/README.md:
/// options are `key=value` pairs separated by commas; pattern lists continue over commas).
fn jvm_options(jar: &Path, socket: &Path, agent: &AgentArgs) -> Vec<String> {
    let mut arg = format!("-javaagent:{}=socket={}", jar.display(), socket.display());
    if let Some(include) = &agent.include {
        arg.push_str(&format!(",include={include}"));
    }
    if let Some(exclude) = &agent.exclude {
        arg.push_str(&format!(",exclude={exclude}"));
    }
    let mut options: Vec<String> = JIT_OPTIONS.iter().map(|o| o.to_string()).collect();
    options.push(arg);
    options
}

/// Moves an existing trace aside to NAME.old, so that a recording never silently destroys one.
fn keep_old(trace: &Path) -> Result<()> {
    if trace.exists() {
        let mut old = trace.as_os_str().to_owned();
        old.push(".old");
        std::fs::rename(trace, &old).with_context(|| {
            format!(
                "keeping the existing trace {} as {}",
                trace.display(),
                Path::new(&old).display()
            )
        })?;
    }
    Ok(())
}
