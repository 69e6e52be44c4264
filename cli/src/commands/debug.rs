//! `hindsight debug`: find the buggy call by answering questions about a recorded run.

use std::ffi::OsString;
use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use hindsight_core::debugger::{DebugOptions, Debugger, Report, TraceRun};
use hindsight_core::glob::GlobSet;
use hindsight_core::ids::NodeId;
use hindsight_core::oracle::{AnswerRules, ReferenceOracle};
use hindsight_core::session::{Answer, Step};
use hindsight_core::strategy::StrategyName;
use serde::Serialize;

use super::record::{self, AgentArgs};
use crate::launch::Output;
use crate::{output, source};

/// Find the bug in a recorded run by answering "was this call's result right?".
///
/// Give a TRACE written by `hindsight record`, or a command after `--` to record and then
/// debug it. The session ends when one call is left whose result is wrong although its inputs
/// and sub-calls were right: its method holds the bug.
#[derive(clap::Args)]
pub struct Args {
    /// The trace to debug (or give a command after `--`)
    #[arg(value_name = "TRACE", required_unless_present = "command", conflicts_with = "command")]
    pub trace: Option<PathBuf>,
    /// Which node to ask next: top-down, heaviest-first, divide-and-query, hirunkitti,
    /// edge-coverage, def-use-coverage, optimal-divide-and-query
    #[arg(long, default_value = "top-down", value_parser = parse_strategy)]
    pub strategy: StrategyName,
    /// The p of the coverage strategies (default 0.5 for edge-coverage, 0.6 for def-use-coverage)
    #[arg(long, value_name = "VALUE")]
    pub p: Option<f64>,
    /// Who answers: `interactive` (you, in the terminal), `answers:FILE` (rules, see
    /// docs/answers-format.md) or `reference:TRACE` (a trace of the fixed program, same input)
    #[arg(long, default_value = "interactive", value_parser = parse_oracle)]
    pub oracle: OracleArg,
    /// Methods trusted from the start, as patterns (`java.*,org.slf4j.*`, `pkg.Class.method`);
    /// calls into the JDK are always trusted
    #[arg(long, value_name = "PATTERNS", default_value = "")]
    pub trust: String,
    /// Directories to find source files in, to show the buggy lines (separated by `:`)
    #[arg(long, value_name = "DIRS")]
    pub source_path: Option<String>,
    /// Print one JSON object on stdout; questions go to stderr, the program's output too
    #[arg(long)]
    pub json: bool,
    /// With a command: where to write its trace (default: a temporary file)
    #[arg(short, long, value_name = "TRACE", requires = "command")]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub agent: AgentArgs,
    /// The command that runs the program, to record and then debug
    #[arg(last = true, value_name = "COMMAND")]
    pub command: Vec<OsString>,
}

fn parse_strategy(s: &str) -> Result<StrategyName, String> {
    s.parse::<StrategyName>().map_err(|e| e.to_string())
}

#[derive(Clone, Debug)]
pub enum OracleArg {
    Interactive,
    Answers(PathBuf),
    Reference(PathBuf),
}

fn parse_oracle(s: &str) -> Result<OracleArg, String> {
    match s.split_once(':') {
        None if s == "interactive" => Ok(OracleArg::Interactive),
        Some(("answers", file)) if !file.is_empty() => Ok(OracleArg::Answers(file.into())),
        Some(("reference", trace)) if !trace.is_empty() => Ok(OracleArg::Reference(trace.into())),
        _ => Err(format!("unknown oracle `{s}`: use interactive, answers:FILE or reference:TRACE")),
    }
}

/// What the user or an oracle said about a question.
enum Reply {
    Answer(Answer),
    Undo,
    Quit,
}

/// Who answers.
enum Oracle {
    Interactive,
    Rules(AnswerRules),
    Reference(Box<ReferenceRuns>),
}

struct ReferenceRuns {
    buggy: TraceRun,
    reference: TraceRun,
    answers: std::collections::HashMap<NodeId, Answer>,
}

impl Oracle {
    fn load(arg: &OracleArg, trace: &Path) -> Result<Oracle> {
        Ok(match arg {
            OracleArg::Interactive => Oracle::Interactive,
            OracleArg::Answers(file) => Oracle::Rules(AnswerRules::load(file)?),
            OracleArg::Reference(reference) => Oracle::Reference(Box::new(ReferenceRuns {
                buggy: TraceRun::open(trace)?,
                reference: TraceRun::open(reference).with_context(|| format!("opening the reference trace {}", reference.display()))?,
                answers: Default::default(),
            })),
        })
    }

    fn reply(&mut self, debugger: &mut Debugger, node: NodeId, number: usize, text: &str, json: bool) -> Result<Reply> {
        match self {
            Oracle::Interactive => ask_terminal(number, text, json),
            Oracle::Rules(rules) => {
                let method = debugger.method_of(node)?.unwrap_or_default();
                Ok(Reply::Answer(rules.answer(&method)))
            }
            Oracle::Reference(runs) => {
                if let Some(a) = runs.answers.get(&node) {
                    return Ok(Reply::Answer(*a));
                }
                let mut oracle = ReferenceOracle::new(&runs.buggy, &runs.reference);
                let answer = oracle.answer(node)?;
                runs.answers.insert(node, answer);
                Ok(Reply::Answer(answer))
            }
        }
    }
}

fn ask_terminal(number: usize, text: &str, json: bool) -> Result<Reply> {
    let stdin = std::io::stdin();
    loop {
        let prompt = format!("({number}) {text}? [y]es [n]o [t]rust [d]on't know [u]ndo [q]uit ");
        if json {
            eprint!("{prompt}");
            std::io::stderr().flush()?;
        } else {
            print!("{prompt}");
            std::io::stdout().flush()?;
        }
        let mut line = String::new();
        if stdin.lock().read_line(&mut line)? == 0 {
            // End of input: stop rather than wait forever.
            return Ok(Reply::Quit);
        }
        match line.trim().to_ascii_lowercase().as_str() {
            "y" | "yes" | "valid" => return Ok(Reply::Answer(Answer::Valid)),
            "n" | "no" | "invalid" => return Ok(Reply::Answer(Answer::Invalid)),
            "t" | "trust" | "trusted" => return Ok(Reply::Answer(Answer::Trusted)),
            "d" | "don't know" | "dont-know" | "?" => return Ok(Reply::Answer(Answer::DontKnow)),
            "u" | "undo" => return Ok(Reply::Undo),
            "q" | "quit" => return Ok(Reply::Quit),
            other => eprintln!("hindsight: `{other}` is not an answer: type y, n, t, d, u or q"),
        }
    }
}

#[derive(Serialize)]
struct Exchange {
    node: NodeId,
    question: String,
    answer: Answer,
}

#[derive(Serialize)]
struct DebugJson<'a> {
    #[serde(flatten)]
    report: &'a Report,
    questions: usize,
    strategy: &'static str,
    dialogue: &'a [Exchange],
    trace: &'a Path,
    /// Whether the user stopped the session before its end.
    stopped: bool,
}

pub fn run(args: Args) -> Result<u8> {
    let (trace, _keep) = match (&args.trace, args.command.is_empty()) {
        (Some(trace), true) => (trace.clone(), None),
        (None, false) => {
            let (path, dir) = match &args.output {
                Some(p) => (p.clone(), None),
                None => {
                    let dir = tempfile::Builder::new().prefix("hindsight-debug-").tempdir()?;
                    (dir.path().join("run.htrace"), Some(dir))
                }
            };
            let output = if args.json { Output::ToStderr } else { Output::Inherit };
            let recorded = record::record_command(&args.command, &path, &args.agent, output)?;
            record::report(&recorded, false)?;
            if recorded.traces.is_empty() {
                bail!("the command started no JVM with the agent, so there is nothing to debug");
            }
            if let Some(Err(e)) = recorded.traces.first().map(|t| &t.result) {
                bail!("recording failed: {e}");
            }
            (path, dir)
        }
        _ => bail!("give either a TRACE or a command after `--`, not both"),
    };

    let options = DebugOptions { strategy: args.strategy, p: args.p, trust: GlobSet::parse(&args.trust), ..Default::default() };
    let mut debugger = Debugger::open(&trace, options)?;
    let mut oracle = Oracle::load(&args.oracle, &trace)?;
    let mut dialogue: Vec<Exchange> = Vec::new();
    let mut stopped = false;
    // Every answer removes a node or marks a don't-know, so a session asks at most about twice
    // as many questions as there are nodes; more means a broken strategy, not a long session.
    let limit = 2 * debugger.session().tree().len() + 10;
    let verdict = loop {
        let node = match debugger.step() {
            Step::Ask(node) => node,
            Step::Done(verdict) => break Some(verdict),
            Step::Waiting => bail!("the session is waiting for nodes of a recording that has ended"),
        };
        if dialogue.len() > limit {
            bail!("the strategy {} kept asking after {} questions: this is a bug in Hindsight", args.strategy, dialogue.len());
        }
        let question = debugger.question(node)?;
        match oracle.reply(&mut debugger, node, dialogue.len() + 1, &question.text, args.json)? {
            Reply::Answer(answer) => {
                debugger.answer(node, answer)?;
                if !matches!(oracle, Oracle::Interactive) && !args.json {
                    println!("({}) {} → {}", dialogue.len() + 1, question.text, answer);
                }
                dialogue.push(Exchange { node, question: question.text, answer });
            }
            Reply::Undo => match debugger.undo() {
                Ok(_) => {
                    dialogue.pop();
                }
                Err(e) => eprintln!("hindsight: {e}"),
            },
            Reply::Quit => {
                stopped = true;
                break None;
            }
        }
    };

    let report = match &verdict {
        Some(v) => debugger.report(v)?,
        None => Report { result: "undecided", buggy_node: None, candidates: Vec::new() },
    };
    if args.json {
        output::print_json(&DebugJson {
            report: &report,
            questions: dialogue.len(),
            strategy: args.strategy.as_str(),
            dialogue: &dialogue,
            trace: &trace,
            stopped,
        })?;
    } else {
        print_report(&report, stopped, dialogue.len(), args.source_path.as_deref(), &trace);
    }
    Ok(0)
}

fn print_report(report: &Report, stopped: bool, questions: usize, source_path: Option<&str>, trace: &Path) {
    let color = std::io::stdout().is_terminal();
    let bold = |s: &str| if color { format!("\x1b[1m{s}\x1b[0m") } else { s.to_string() };
    if stopped {
        println!("Stopped after {questions} answers; run `hindsight debug {}` to start again.", trace.display());
        return;
    }
    match (report.result, &report.buggy_node) {
        ("bug", Some(bug)) => {
            println!(
                "{} in {} (node #{}, {} questions)",
                bold("Bug found"),
                bold(&bug.method),
                bug.id,
                questions
            );
            let file = bug.file.as_deref().unwrap_or("?");
            let lines = bug.lines.iter().map(u32::to_string).collect::<Vec<_>>().join(", ");
            println!("  {file}, lines this call executed itself: {lines}");
            if let Some(text) = source::find(file, &bug.method, source_path) {
                for &l in &bug.lines {
                    if let Some(line) = text.lines().nth(l as usize - 1) {
                        println!("  {l:>5} | {line}");
                    }
                }
            }
        }
        ("no-bug", _) => println!("No buggy call: the answers leave no call whose result is wrong."),
        _ => {
            println!("Undecided: don't-know answers leave {} candidates:", report.candidates.len());
            for c in &report.candidates {
                println!("  node #{} {} ({}, lines {:?})", c.id, c.method, c.file.as_deref().unwrap_or("?"), c.lines);
            }
        }
    }
}

impl std::fmt::Debug for Oracle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Oracle::Interactive => "interactive",
            Oracle::Rules(_) => "answers",
            Oracle::Reference(_) => "reference",
        })
    }
}
