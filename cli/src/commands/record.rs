//! `hindsight record`: run a program with the agent and write its trace.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result};
use hindsight_agent::JIT_OPTIONS;
use hindsight_core::capture::{cpu_ms, peak_rss_bytes, FeedSink, LiveRecording, RecordedTrace};
use hindsight_core::trace::store::{annotate, Ending, WriterConfig};
use serde::Serialize;

use crate::launch::{self, Output};
use crate::progress::{self, ProgressLine};
use crate::{agent_jar, output};

/// Run a Java program with the Hindsight agent and record its run into a trace file.
///
/// The program's input and output pass through and `hindsight` exits with its exit status.
/// COMMAND is `java ...` or any command that starts a JVM (a script, `mvn test`); every JVM it
/// starts is recorded, the first into TRACE and the next ones into TRACE's name numbered
/// `.2`, `.3`, ...
#[derive(clap::Args)]
pub struct Args {
    /// The trace file to write; an existing file of that name is kept as NAME.old
    #[arg(short, long, value_name = "TRACE", default_value = "hindsight.htrace")]
    pub output: PathBuf,
    #[command(flatten)]
    pub agent: AgentArgs,
    /// Print a JSON summary on stdout; the program's own output goes to stderr
    #[arg(long)]
    pub json: bool,
    /// The command that runs the program
    #[arg(last = true, required = true, value_name = "COMMAND")]
    pub command: Vec<OsString>,
}

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
    let cmd = launch::command_with_agent(command, &jvm_options(&jar, live.socket_path(), agent))?;
    let started = Instant::now();
    let mut child = launch::spawn(cmd, output)?;
    let ended = std::thread::Builder::new()
        .name("hindsight-program".into())
        .spawn(move || {
            let status = launch::wait(&mut child);
            let program_ms = started.elapsed().as_millis() as u64;
            // Finished even when waiting failed, so that the recorders end and the feed with them.
            let traces = live.finish().context("waiting for the recorder to finish");
            Ok(Recorded {
                traces: traces?,
                status: status?,
                program_ms,
                wall_ms: started.elapsed().as_millis() as u64,
                recorder_cpu_ms: cpu_ms(),
            })
        })
        .context("starting the thread that waits for the program")?;
    Ok(Running { ended, started })
}

impl Running {
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

#[derive(Serialize)]
struct TraceJson<'a> {
    path: &'a Path,
    events: Option<u64>,
    nodes: Option<u64>,
    complete_nodes: Option<u64>,
    ending: Option<&'a Ending>,
    error: Option<String>,
}

#[derive(Serialize)]
struct RecordJson<'a> {
    traces: Vec<TraceJson<'a>>,
    exit_status: i32,
    program_ms: u64,
    wall_ms: u64,
    recorder_cpu_ms: Option<u64>,
}

/// Says where the traces are (stderr, or JSON on stdout).
pub fn report(recorded: &Recorded, json: bool) -> Result<()> {
    if json {
        let traces = recorded
            .traces
            .iter()
            .map(|t| match &t.result {
                Ok(s) => TraceJson {
                    path: &t.path,
                    events: Some(s.events),
                    nodes: Some(s.nodes),
                    complete_nodes: Some(s.complete_nodes),
                    ending: Some(&s.ending),
                    error: None,
                },
                Err(e) => TraceJson {
                    path: &t.path,
                    events: None,
                    nodes: None,
                    complete_nodes: None,
                    ending: None,
                    error: Some(e.to_string()),
                },
            })
            .collect();
        let exit_status = launch::passthrough_status(recorded.status);
        return output::print_json(&RecordJson {
            traces,
            exit_status,
            program_ms: recorded.program_ms,
            wall_ms: recorded.wall_ms,
            recorder_cpu_ms: recorded.recorder_cpu_ms,
        });
    }
    if recorded.traces.is_empty() {
        eprintln!(
            "hindsight: no JVM connected, nothing was recorded (does the command start a JVM?)"
        );
    }
    for t in &recorded.traces {
        match &t.result {
            Ok(s) => {
                let how = match &s.ending {
                    Ending::End { .. } => String::new(),
                    Ending::Truncated { detail } => format!(" (the program was cut off: {detail})"),
                    Ending::Malformed { detail } => format!(" (recording stopped: {detail})"),
                };
                eprintln!(
                    "hindsight: recorded {} events, {} nodes ({} complete) into {}{how}",
                    s.events,
                    s.nodes,
                    s.complete_nodes,
                    t.path.display()
                );
            }
            Err(e) => eprintln!("hindsight: recording into {} failed: {e}", t.path.display()),
        }
    }
    Ok(())
}

pub fn run(args: Args) -> Result<u8> {
    let output = if args.json {
        Output::ToStderr
    } else {
        Output::Inherit
    };
    let recorded = record_command(
        &args.command,
        &args.output,
        &args.agent,
        output,
        progress::wanted(args.json),
    )?;
    report(&recorded, args.json)?;
    if recorded.traces.iter().any(|t| t.result.is_err()) {
        return Ok(launch::exit::FAILURE as u8);
    }
    Ok(launch::passthrough_status(recorded.status) as u8)
}
