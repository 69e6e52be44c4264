//! `hindsight debug`: find the buggy call by answering questions about a recorded run.

use std::ffi::OsString;
use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use hindsight_core::capture::{self, peak_rss_bytes};
use hindsight_core::debugger::{DebugOptions, Debugger, Pace, Report};
use hindsight_core::glob::GlobSet;
use hindsight_core::ids::NodeId;
use hindsight_core::oracle::{AnswerRules, OracleMemory, ReferenceOracle, TraceRun};
use hindsight_core::session::{Answer, Step, Verdict};
use hindsight_core::strategy::StrategyName;
use hindsight_core::tree::NodeKind;
use serde::Serialize;

use super::record;
use crate::launch::{self, AgentArgs, Output, Running};
use crate::progress::{self, ProgressLine};
use crate::replayer::{compile_replayer, ProcessReplayer};
use crate::{output, source};

/// Find the bug in a recorded run by answering "was this call's result right?".
///
/// Give a TRACE written by `hindsight record`, or a command after `--` to record and then
/// debug it. The session ends when one call is left whose result is wrong although its inputs
/// and sub-calls were right: its method holds the bug.
#[derive(clap::Args)]
pub struct Args {
    /// The trace to debug (or give a command after `--`)
    #[arg(
        value_name = "TRACE",
        required_unless_present = "command",
        conflicts_with = "command"
    )]
    pub trace: Option<PathBuf>,
    /// Which node to ask next: top-down, heaviest-first, divide-and-query, hirunkitti,
    /// edge-coverage, def-use-coverage, optimal
    #[arg(long, default_value = "top-down", value_parser = parse_strategy)]
    pub strategy: StrategyName,
    /// The p of the coverage strategies (default 0.5 for edge-coverage, 0.6 for def-use-coverage)
    #[arg(long, value_name = "VALUE")]
    pub p: Option<f64>,
    /// Who answers: `interactive` (you, in the terminal), `answers:FILE` (rules, see
    /// docs/answers-format.md) or `reference:TRACE` (a trace of the fixed program, same input)
    #[arg(long, default_value = "interactive", value_parser = parse_oracle)]
    pub oracle: OracleArg,
    /// With a command: when a question is asked while the program runs. `ready`: as soon as it
    /// can be shown (the default with `--oracle interactive`); `behind-the-store`: only while
    /// the store keeps pace with the program, so that an oracle answering at once never delays
    /// the complete trace (the default with `answers:` and `reference:`)
    #[arg(long)]
    pub pace: Option<Pace>,
    /// With `--oracle reference:TRACE`: the fixed program's classes (a directory or class path),
    /// so that the oracle can judge a call the fixed run never made in that state by running the
    /// fixed code on it (rule 3, docs/replay-protocol.md; needs `javac` and `java`)
    #[arg(long, value_name = "CLASSPATH")]
    pub reference_classes: Option<PathBuf>,
    /// Methods trusted from the start, as patterns (`java.*,org.slf4j.*`, `pkg.Class.method`);
    /// calls into the JDK are always trusted
    #[arg(long, value_name = "PATTERNS", default_value = "")]
    pub trust: String,
    /// Directories to find source files in, to show the buggy lines (separated by `:`)
    #[arg(long, value_name = "DIRS")]
    pub source_path: Option<String>,
    /// The persistence bound: nodes of the execution tree kept in memory, the others spilled
    /// to scratch files in the temporary directory (0: keep every node in memory)
    #[arg(long, value_name = "NODES", default_value_t = hindsight_core::debugger::DEFAULT_RESIDENT_NODES)]
    pub resident_nodes: usize,
    #[command(flatten)]
    pub forest: ForestArgs,
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

/// The execution forest's switches, shared by `debug` and `tree`.
#[derive(clap::Args, Clone, Copy)]
pub struct ForestArgs {
    /// Never ask about loops and iterations (they are recorded anyway): questions and verdicts
    /// of the tree of calls alone
    #[arg(long)]
    pub no_loops: bool,
    /// Ask about the plain execution tree: no collapsed or projected nodes (by default chains
    /// of calls are collapsed and projected so that fewer questions find the bug)
    #[arg(long)]
    pub no_balance: bool,
    /// The most calls one collapsed or projected node may stand for
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(2..))]
    pub max_chain: Option<u32>,
}

impl ForestArgs {
    pub fn options(self) -> hindsight_core::tree::ForestOptions {
        hindsight_core::tree::ForestOptions {
            balance: !self.no_balance,
            max_chain: self.max_chain.unwrap_or(u32::MAX),
        }
    }
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

impl OracleArg {
    /// A person waits for each question; the other oracles answer at once, so their questions
    /// wait for the store instead (`Pace::BehindTheStore`).
    fn default_pace(&self) -> Pace {
        match self {
            OracleArg::Interactive => Pace::Ready,
            OracleArg::Answers(_) | OracleArg::Reference(_) => Pace::BehindTheStore,
        }
    }
}

fn parse_oracle(s: &str) -> Result<OracleArg, String> {
    match s.split_once(':') {
        None if s == "interactive" => Ok(OracleArg::Interactive),
        Some(("answers", file)) if !file.is_empty() => Ok(OracleArg::Answers(file.into())),
        Some(("reference", trace)) if !trace.is_empty() => Ok(OracleArg::Reference(trace.into())),
        _ => Err(format!(
            "unknown oracle `{s}`: use interactive, answers:FILE or reference:TRACE"
        )),
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
    Interactive(Terminal),
    Rules(AnswerRules),
    Reference(Box<ReferenceRuns>),
}

struct ReferenceRuns {
    /// The debugged trace; live, refreshed when the session has more nodes than when read.
    buggy: Option<(TraceRun, usize)>,
    buggy_path: PathBuf,
    /// Whether this command records the debugged trace (it annotates it at the end, so its
    /// reader must not hold the trace's lock).
    live: bool,
    reference: TraceRun,
    /// The oracle's answers and reference index, kept from one question to the next.
    memory: OracleMemory,
    /// Rule 3, with its compiled classes (kept alive as long as the replayer).
    replayer: Option<(ProcessReplayer, tempfile::TempDir)>,
}

impl Oracle {
    /// `live`: this command records `trace` (see [`ReferenceRuns::live`]).
    fn load(
        arg: &OracleArg,
        trace: &Path,
        reference_classes: Option<&Path>,
        live: bool,
    ) -> Result<Oracle> {
        if reference_classes.is_some() && !matches!(arg, OracleArg::Reference(_)) {
            bail!("--reference-classes needs --oracle reference:TRACE");
        }
        Ok(match arg {
            OracleArg::Interactive => Oracle::Interactive(Terminal::default()),
            OracleArg::Answers(file) => Oracle::Rules(AnswerRules::load(file)?),
            OracleArg::Reference(reference) => Oracle::Reference(Box::new(ReferenceRuns {
                buggy: None,
                buggy_path: trace.to_path_buf(),
                live,
                reference: TraceRun::open(reference).with_context(|| {
                    format!("opening the reference trace {}", reference.display())
                })?,
                memory: OracleMemory::default(),
                replayer: match reference_classes {
                    None => None,
                    Some(classes) => {
                        let dir = tempfile::Builder::new()
                            .prefix("hindsight-replayer-")
                            .tempdir()?;
                        let compiled = dir.path().join("classes");
                        compile_replayer(&compiled)?;
                        let replayer = ProcessReplayer::new(
                            classes,
                            &compiled,
                            dir.path().join("replayer.log"),
                        );
                        Some((replayer, dir))
                    }
                },
            })),
        })
    }

    fn reply(
        &mut self,
        debugger: &mut Debugger,
        node: NodeId,
        number: usize,
        text: &str,
        json: bool,
    ) -> Result<Reply> {
        match self {
            Oracle::Interactive(terminal) => terminal.ask(debugger, number, text, json),
            Oracle::Rules(rules) => {
                // A collapsed or projected node is judged by its calls' (or iterations')
                // rules (oracle::forest); a loop or an iteration by METHOD@loop / @iteration.
                let tree = debugger.session().tree();
                let steps: Vec<(NodeId, NodeKind)> =
                    hindsight_core::oracle::forest::steps(tree, node)
                        .into_iter()
                        .map(|c| (c, tree.kind(c)))
                        .collect();
                let mut subjects = std::collections::HashMap::new();
                for (c, kind) in steps {
                    let method = debugger.method_of(c)?.unwrap_or_default();
                    subjects.insert(c, AnswerRules::subject(&method, kind).into_owned());
                }
                let answer = hindsight_core::oracle::forest::judge(
                    debugger.session().tree(),
                    node,
                    &mut |c| Ok(rules.answer(subjects.get(&c).map_or("", String::as_str))),
                )?;
                Ok(Reply::Answer(answer))
            }
            Oracle::Reference(runs) => {
                let len = debugger.session().tree().len();
                match &mut runs.buggy {
                    Some((run, at)) if *at < len => {
                        run.refresh()?;
                        *at = len;
                    }
                    Some(_) => {}
                    None => {
                        let run = if runs.live {
                            TraceRun::open_live(&runs.buggy_path)?
                        } else {
                            TraceRun::open(&runs.buggy_path)?
                        };
                        runs.buggy = Some((run, len));
                    }
                }
                let (buggy, _) = runs.buggy.as_ref().expect("opened above");
                let memory = std::mem::take(&mut runs.memory);
                let mut oracle = ReferenceOracle::resume(buggy, &runs.reference, memory);
                if let Some((replayer, _)) = &mut runs.replayer {
                    oracle = oracle.with_replayer(replayer);
                }
                // A collapsed or projected node is judged by its calls (oracle::forest).
                let answer = hindsight_core::oracle::forest::judge(
                    debugger.session().tree(),
                    node,
                    &mut |c| oracle.answer(c),
                );
                runs.memory = oracle.into_memory();
                Ok(Reply::Answer(answer?))
            }
        }
    }
}

/// The person at the terminal. Lines are read on a thread of their own so that a live session
/// takes in the recording while a question waits for its answer.
#[derive(Default)]
struct Terminal {
    lines: Option<mpsc::Receiver<Option<String>>>,
}

impl Terminal {
    fn read_line(&mut self, debugger: &mut Debugger) -> Result<Option<String>> {
        let lines = self.lines.get_or_insert_with(|| {
            let (tx, rx) = mpsc::channel();
            std::thread::spawn(move || {
                let stdin = std::io::stdin();
                loop {
                    let mut line = String::new();
                    let line = match stdin.lock().read_line(&mut line) {
                        Ok(0) | Err(_) => None,
                        Ok(_) => Some(line),
                    };
                    let end = line.is_none();
                    if tx.send(line).is_err() || end {
                        return;
                    }
                }
            });
            rx
        });
        loop {
            match lines.recv_timeout(Duration::from_millis(20)) {
                Ok(line) => return Ok(line),
                Err(mpsc::RecvTimeoutError::Timeout) => debugger.idle()?,
                Err(mpsc::RecvTimeoutError::Disconnected) => return Ok(None),
            }
        }
    }

    fn ask(
        &mut self,
        debugger: &mut Debugger,
        number: usize,
        text: &str,
        json: bool,
    ) -> Result<Reply> {
        loop {
            let prompt =
                format!("({number}) {text}? [y]es [n]o [t]rust [d]on't know [u]ndo [q]uit ");
            if json {
                eprint!("{prompt}");
                std::io::stderr().flush()?;
            } else {
                print!("{prompt}");
                std::io::stdout().flush()?;
            }
            let Some(line) = self.read_line(debugger)? else {
                // End of input: stop rather than wait forever.
                return Ok(Reply::Quit);
            };
            match line.trim().to_ascii_lowercase().as_str() {
                "y" | "yes" | "valid" => return Ok(Reply::Answer(Answer::Valid)),
                "n" | "no" | "invalid" => return Ok(Reply::Answer(Answer::Invalid)),
                "t" | "trust" | "trusted" => return Ok(Reply::Answer(Answer::Trusted)),
                "d" | "don't know" | "dont-know" | "?" => {
                    return Ok(Reply::Answer(Answer::DontKnow))
                }
                "u" | "undo" => return Ok(Reply::Undo),
                "q" | "quit" => return Ok(Reply::Quit),
                other => {
                    eprintln!("hindsight: `{other}` is not an answer: type y, n, t, d, u or q")
                }
            }
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
    #[serde(flatten)]
    timing: &'a Timing,
}

/// When things happened, in milliseconds from the program's start (from the command's start
/// when debugging a recorded TRACE).
#[derive(Default, Serialize)]
struct Timing {
    /// The first question was ready.
    first_question_ms: Option<u64>,
    /// From the completion of the program's first call to the first question being ready
    /// (live sessions only).
    first_question_latency_ms: Option<f64>,
    /// The session had the whole tree (the recording ended, or the trace was read).
    tree_complete_ms: Option<u64>,
    /// Questions asked before the session had the whole tree (while the program ran).
    questions_before_complete: usize,
    /// Peak resident memory of this process (not the program's JVM).
    peak_rss_bytes: Option<u64>,
    /// How often the recorder waited for the session to take node headers.
    session_waits: Option<u64>,
    /// Frames after which the store was behind the program (the program waited for it).
    store_behind_frames: Option<u64>,
    /// When questions were asked while the program ran (`--pace`; live sessions only).
    pace: Option<&'static str>,
    /// How long questions were held back while the store was behind (`behind-the-store`).
    paced_ms: Option<u64>,
}

fn ms(since: Instant, at: Instant) -> u64 {
    at.saturating_duration_since(since).as_millis() as u64
}

/// A session ready to ask: over a recorded TRACE, or live over the command being recorded.
struct Started {
    trace: PathBuf,
    /// The temporary directory of a trace nobody asked to keep.
    _keep: Option<tempfile::TempDir>,
    debugger: Debugger,
    /// The program being recorded, for a command.
    running: Option<Running>,
    progress: Option<ProgressLine>,
    /// The program's start (the command's, for a TRACE).
    started: Instant,
}

/// What the loop of questions ended with.
struct Dialogue {
    verdict: Option<Verdict>,
    exchanges: Vec<Exchange>,
    stopped: bool,
}

pub fn run(args: Args) -> Result<u8> {
    let options = DebugOptions {
        strategy: args.strategy,
        p: args.p,
        trust: GlobSet::parse(&args.trust),
        resident_nodes: DebugOptions::resident_bound(args.resident_nodes),
        loops: !args.forest.no_loops,
        forest: args.forest.options(),
        pace: args.pace.unwrap_or_else(|| args.oracle.default_pace()),
        ..Default::default()
    };
    let mut timing = Timing::default();
    let mut s = start(&args, options, &mut timing)?;
    let mut oracle = Oracle::load(
        &args.oracle,
        &s.trace,
        args.reference_classes.as_deref(),
        s.running.is_some(),
    )?;
    let dialogue = ask(&args, &mut s, &mut oracle, &mut timing)?;
    finish_recording(&mut s, &mut timing)?;
    let report = match &dialogue.verdict {
        Some(v) => s.debugger.report(v)?,
        None => Report {
            result: "undecided",
            buggy_node: None,
            candidates: Vec::new(),
            traceable: None,
        },
    };
    timing.peak_rss_bytes = peak_rss_bytes();
    if args.json {
        output::print_json(&DebugJson {
            report: &report,
            questions: dialogue.exchanges.len(),
            strategy: args.strategy.as_str(),
            dialogue: &dialogue.exchanges,
            trace: &s.trace,
            stopped: dialogue.stopped,
            timing: &timing,
        })?;
    } else {
        print_report(
            &report,
            dialogue.stopped,
            dialogue.exchanges.len(),
            args.source_path.as_deref(),
            &s.trace,
        );
    }
    Ok(0)
}

/// Opens the TRACE, or starts recording the command with a live session over it.
fn start(args: &Args, options: DebugOptions, timing: &mut Timing) -> Result<Started> {
    match (&args.trace, args.command.is_empty()) {
        (Some(trace), true) => {
            let started = Instant::now();
            let debugger = Debugger::open(trace, options)?;
            timing.tree_complete_ms = Some(ms(started, Instant::now()));
            Ok(Started {
                trace: trace.clone(),
                _keep: None,
                debugger,
                running: None,
                progress: None,
                started,
            })
        }
        (None, false) => {
            let (path, dir) = match &args.output {
                Some(p) => (p.clone(), None),
                None => {
                    let dir = tempfile::Builder::new()
                        .prefix("hindsight-debug-")
                        .tempdir()?;
                    (dir.path().join("run.htrace"), Some(dir))
                }
            };
            let output = if args.json {
                Output::ToStderr
            } else {
                Output::Inherit
            };
            let (sink, feed) = capture::feed(capture::DEFAULT_FEED_CAPACITY);
            let progress = ProgressLine::start(
                sink.state().clone(),
                path.clone(),
                progress::wanted(args.json),
            );
            let running = launch::start(&args.command, &path, &args.agent, output, sink)?;
            let debugger = Debugger::live(feed, &path, options)?;
            Ok(Started {
                trace: path,
                _keep: dir,
                debugger,
                started: running.started,
                running: Some(running),
                progress: Some(progress),
            })
        }
        _ => bail!("give either a TRACE or a command after `--`, not both"),
    }
}

/// Asks until the verdict, or until the user quits.
fn ask(args: &Args, s: &mut Started, oracle: &mut Oracle, timing: &mut Timing) -> Result<Dialogue> {
    let paced_live = s.debugger.pace() == Pace::BehindTheStore && s.running.is_some();
    if !paced_live {
        return ask_from(args, s, oracle, timing, Vec::new(), false);
    }
    // A session at its oracle's pace asks on a thread of its own, which runs behind the program
    // once it has shown its first question, so that its intake of the tree takes what the
    // program leaves, as the store's does (`trace::priority`). An unprivileged thread cannot
    // take its priority back: once the program has ended, this thread carries on.
    let asked = std::thread::scope(|scope| {
        let (s, oracle, timing) = (&mut *s, &mut *oracle, &mut *timing);
        std::thread::Builder::new()
            .name("hindsight-session".into())
            .spawn_scoped(scope, move || {
                ask_from(args, s, oracle, timing, Vec::new(), true)
            })
            .map(|session| session.join())
    });
    let dialogue = match asked {
        Ok(Ok(dialogue)) => dialogue?,
        Ok(Err(panic)) => std::panic::resume_unwind(panic),
        // No thread: ask here, at the program's priority.
        Err(_) => return ask_from(args, s, oracle, timing, Vec::new(), false),
    };
    if dialogue.verdict.is_none() && !dialogue.stopped {
        return ask_from(args, s, oracle, timing, dialogue.exchanges, false);
    }
    Ok(dialogue)
}

/// Asks after `exchanges`. With `behind`, the thread lowers itself after the first question and
/// returns with no verdict, not stopped, once the program has ended.
fn ask_from(
    args: &Args,
    s: &mut Started,
    oracle: &mut Oracle,
    timing: &mut Timing,
    mut exchanges: Vec<Exchange>,
    behind: bool,
) -> Result<Dialogue> {
    let debugger = &mut s.debugger;
    let running = &s.running;
    let program_ended = || running.as_ref().is_some_and(|r| r.program_has_ended());
    let mut lowered = false;
    let carry_on = |exchanges| Dialogue {
        verdict: None,
        exchanges,
        stopped: false,
    };
    loop {
        if lowered && program_ended() {
            return Ok(carry_on(exchanges));
        }
        let step = debugger.next_step_unless(|| lowered && program_ended())?;
        let node = match step {
            None => return Ok(carry_on(exchanges)),
            Some(Step::Ask(node)) => node,
            Some(Step::Done(verdict)) => {
                return Ok(Dialogue {
                    verdict: Some(verdict),
                    exchanges,
                    stopped: false,
                })
            }
            Some(Step::Waiting) => {
                bail!("the session is waiting for nodes of a recording that has ended")
            }
        };
        // Every answer removes a node or marks a don't-know, so a session asks at most about
        // twice as many questions as there are nodes; more means a broken strategy.
        if exchanges.len() > 2 * debugger.session().tree().len() + 10 {
            bail!(
                "the strategy {} kept asking after {} questions: this is a bug in Hindsight",
                args.strategy,
                exchanges.len()
            );
        }
        let question = debugger.question(node)?;
        if timing.first_question_ms.is_none() {
            if behind && !program_ended() {
                // The session waits for the store from now on (`ask`).
                capture::behind_the_program();
                lowered = true;
            }
            let now = Instant::now();
            timing.first_question_ms = Some(ms(s.started, now));
            timing.first_question_latency_ms = debugger
                .recording()
                .and_then(|r| r.first_complete())
                .map(|c| now.saturating_duration_since(c).as_secs_f64() * 1000.0);
        }
        if !debugger.is_sealed() {
            timing.questions_before_complete += 1;
        }
        if let Some(p) = &s.progress {
            p.pause(true);
        }
        let number = exchanges.len() + 1;
        let reply = oracle.reply(debugger, node, number, &question.text, args.json)?;
        if let Some(p) = &s.progress {
            p.pause(false);
        }
        match reply {
            Reply::Answer(answer) => {
                debugger.answer(node, answer)?;
                if !matches!(oracle, Oracle::Interactive(_)) && !args.json {
                    println!("({number}) {} → {}", question.text, answer);
                }
                exchanges.push(Exchange {
                    node,
                    question: question.text,
                    answer,
                });
            }
            Reply::Undo => match debugger.undo() {
                Ok(_) => {
                    exchanges.pop();
                }
                Err(e) => eprintln!("hindsight: {e}"),
            },
            Reply::Quit => {
                return Ok(Dialogue {
                    verdict: None,
                    exchanges,
                    stopped: true,
                })
            }
        }
    }
}

/// For a command: takes in the rest of the recording (the verdict may come before the program
/// ends), waits for the program and says where its traces are.
fn finish_recording(s: &mut Started, timing: &mut Timing) -> Result<()> {
    let Some(running) = s.running.take() else {
        return Ok(());
    };
    s.debugger.finish_recording()?;
    timing.tree_complete_ms = s.debugger.sealed_at().map(|at| ms(s.started, at));
    if let Some(p) = s.debugger.recording().map(|r| r.progress()) {
        timing.session_waits = Some(p.session_waits);
        timing.store_behind_frames = Some(p.store_behind_frames);
        timing.pace = Some(s.debugger.pace().as_str());
        timing.paced_ms = Some(s.debugger.paced().as_millis() as u64);
    }
    let recorded = running.wait()?;
    if let Some(p) = s.progress.take() {
        p.finish();
    }
    record::report(&recorded, false)?;
    if recorded.traces.is_empty() {
        bail!("the command started no JVM with the agent, so there was nothing to debug");
    }
    if let Some(Err(e)) = recorded.traces.first().map(|t| &t.result) {
        bail!("recording failed: {e}");
    }
    Ok(())
}

fn print_report(
    report: &Report,
    stopped: bool,
    questions: usize,
    source_path: Option<&str>,
    trace: &Path,
) {
    let color = std::io::stdout().is_terminal();
    let bold = |s: &str| {
        if color {
            format!("\x1b[1m{s}\x1b[0m")
        } else {
            s.to_string()
        }
    };
    if stopped {
        println!(
            "Stopped after {questions} answers; run `hindsight debug {}` to start again.",
            trace.display()
        );
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
            let lines = bug
                .lines
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(", ");
            let what = match bug.kind {
                NodeKind::Loop => "this loop",
                NodeKind::Iteration => "this iteration",
                _ => "this call",
            };
            println!("  {file}, lines {what} executed itself: {lines}");
            match report.traceable {
                Some(true) => println!("  traceable: every node above it was answered wrong"),
                Some(false) => println!("  not traceable: a node above it was answered right"),
                None => println!("  traceable: not known (some nodes above it were not asked)"),
            }
            if let Some(text) = source::find(file, &bug.method, source_path) {
                for &l in &bug.lines {
                    if let Some(line) = text.lines().nth(l as usize - 1) {
                        println!("  {l:>5} | {line}");
                    }
                }
            }
        }
        ("no-bug", _) => {
            println!("No buggy call: the answers leave no call whose result is wrong.")
        }
        _ => {
            println!(
                "Undecided: don't-know answers leave {} candidates:",
                report.candidates.len()
            );
            for c in &report.candidates {
                println!(
                    "  node #{} {} ({}, lines {:?})",
                    c.id,
                    c.method,
                    c.file.as_deref().unwrap_or("?"),
                    c.lines
                );
            }
        }
    }
}

impl std::fmt::Debug for Oracle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Oracle::Interactive(_) => "interactive",
            Oracle::Rules(_) => "answers",
            Oracle::Reference(_) => "reference",
        })
    }
}
