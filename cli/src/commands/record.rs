//! `hindsight record`: run a program with the agent and write its trace.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use anyhow::Result;
use hindsight_core::trace::store::Ending;
use serde::Serialize;

use crate::launch::{self, AgentArgs, Output, Recorded};
use crate::output;
use crate::progress;

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
    let recorded = launch::record_command(
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
