//! `hindsight prolog`: a Prolog goal over the run's Java Event Log facts and JavaTA's rules,
//! run by SWI-Prolog (`swipl`).

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};
use hindsight_core::ids::NodeId;
use hindsight_core::query::jel::{export, JelOptions, RULES};
use hindsight_core::query::Span;
use hindsight_core::trace::store::TraceReader;
use serde::Serialize;

use crate::launch::{exit, LaunchError};
use crate::output;
use crate::progress;
use crate::scan_progress::ScanBar;

/// Run a Prolog goal over the trace exported as Java Event Log facts, with the rule library of
/// the JavaTA paper (call_chain, full_detail_call_chain, where_exception_is_thrown,
/// pre_event_called_methods, object_state, instance_field_history, ...). Needs SWI-Prolog.
/// Exit status 1 when the goal has no solution.
#[derive(clap::Args)]
pub struct Args {
    /// The trace file
    pub trace: PathBuf,
    /// The goal, e.g. "where_exception_is_thrown(main, E)"
    pub goal: String,
    /// Consult these Prolog files too (your own rules, e.g. the paper's behaviour views)
    #[arg(long = "consult")]
    pub consult: Vec<PathBuf>,
    /// Only the history from this event (timestamp) on
    #[arg(long)]
    pub from: Option<u64>,
    /// Only the history up to this event (timestamp)
    #[arg(long)]
    pub to: Option<u64>,
    /// Only this call (node id)
    #[arg(long, conflicts_with_all = ["from", "to"])]
    pub call: Option<u32>,
    /// At most N solutions
    #[arg(long, default_value_t = 100)]
    pub limit: usize,
    /// Print JSON: {"solutions": [{"Var": "term"}], "output": "what the goal wrote"}
    #[arg(long)]
    pub json: bool,
}

const DRIVER: &str = r#"
:- initialization(main, main).
main :-
    current_prolog_flag(argv, [Facts, Rules, Out, GoalText, LimitText | Consults]),
    atom_number(LimitText, Limit),
    consult(Facts), consult(Rules), maplist(consult, Consults),
    catch(term_string(Goal, GoalText, [variable_names(Vs)]), E,
          ( print_message(error, E), halt(2) )),
    open(Out, write, S, [encoding(utf8)]),
    nb_setval(solutions, 0),
    catch(forall(limit(Limit, call(Goal)), solution(S, Vs)), E2,
          ( close(S), print_message(error, E2), halt(3) )),
    close(S),
    nb_getval(solutions, N),
    ( N > 0 -> halt(0) ; halt(1) ).
solution(S, Vs) :-
    nb_getval(solutions, N0), N is N0 + 1, nb_setval(solutions, N),
    format(S, "solution~n", []),
    forall(member(Name = Value, Vs), format(S, "~w\t~q~n", [Name, Value])).
"#;

#[derive(Serialize)]
struct Solutions {
    goal: String,
    solutions: Vec<serde_json::Map<String, serde_json::Value>>,
    /// What the goal itself wrote (write/1, format/2).
    output: String,
}

fn swipl_missing() -> anyhow::Error {
    LaunchError {
        status: exit::NOT_FOUND,
        message: "SWI-Prolog is not installed (`swipl` is not on the PATH): install it with `apt-get install swi-prolog-nox` on Debian or Ubuntu, or from https://www.swi-prolog.org".into(),
    }
    .into()
}

pub fn run(args: Args) -> Result<u8> {
    for f in &args.consult {
        if !f.is_file() {
            bail!("--consult {}: there is no such file", f.display());
        }
    }
    match Command::new("swipl").arg("--version").output() {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(swipl_missing()),
        Err(e) => return Err(e).context("running swipl --version"),
        Ok(_) => {}
    }
    let reader = TraceReader::open(&args.trace)?;
    let dir = tempfile::tempdir().context("creating a scratch directory")?;
    let facts = dir.path().join("facts.pl");
    let rules = dir.path().join("javata.pl");
    let driver = dir.path().join("driver.pl");
    let out = dir.path().join("solutions.txt");
    std::fs::write(&rules, RULES).context("writing the rule library")?;
    std::fs::write(&driver, DRIVER).context("writing the Prolog driver")?;
    {
        let file = std::fs::File::create(&facts).context("writing the facts")?;
        let mut bar = ScanBar::new(progress::wanted(args.json));
        let mut update = |p| bar.update(p);
        export(
            &reader,
            JelOptions {
                span: Span::new(args.from, args.to),
                call: args.call.map(NodeId),
            },
            file,
            Some(&mut update),
        )?;
    }
    let mut cmd = Command::new("swipl");
    cmd.args(["-q", "--no-tty"])
        .arg(&driver)
        // After `--` every argument is the driver's (a `.pl` before it would be loaded too).
        .arg("--")
        .arg(&facts)
        .arg(&rules)
        .arg(&out)
        .arg(&args.goal)
        .arg(args.limit.to_string())
        .args(args.consult.iter().map(|p| absolute(p)));
    let result = cmd.output().context("running swipl")?;
    let goal_output = String::from_utf8_lossy(&result.stdout).into_owned();
    let errors = String::from_utf8_lossy(&result.stderr).into_owned();
    match result.status.code() {
        Some(0) | Some(1) => {}
        Some(2) => {
            return Err(hindsight_core::query::QueryError::Syntax {
                what: "Prolog goal",
                text: args.goal.clone(),
                problem: errors.trim().to_string(),
            }
            .into())
        }
        _ => bail!(
            "the goal `{}` raised an error: {}",
            args.goal,
            errors.trim()
        ),
    }
    if !args.json && !errors.trim().is_empty() {
        eprint!("{errors}");
    }
    let solutions = parse(&std::fs::read_to_string(&out).unwrap_or_default());
    let failed = solutions.is_empty();
    if args.json {
        output::print_json(&Solutions {
            goal: args.goal.clone(),
            solutions,
            output: goal_output,
        })?;
    } else {
        print!("{goal_output}");
        if failed {
            println!("false.");
        }
        for (i, s) in solutions.iter().enumerate() {
            if s.is_empty() {
                println!("true.");
                continue;
            }
            let lines: Vec<String> = s
                .iter()
                .map(|(k, v)| format!("{k} = {}", v.as_str().unwrap_or_default()))
                .collect();
            let end = if i + 1 < solutions.len() { " ;" } else { "." };
            println!("{}{end}", lines.join(",\n"));
        }
    }
    Ok(if failed { 1 } else { 0 })
}

fn absolute(p: &Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf())
}

fn parse(text: &str) -> Vec<serde_json::Map<String, serde_json::Value>> {
    let mut out: Vec<serde_json::Map<String, serde_json::Value>> = Vec::new();
    for line in text.lines() {
        if line == "solution" {
            out.push(serde_json::Map::new());
        } else if let (Some((name, value)), Some(last)) = (line.split_once('\t'), out.last_mut()) {
            last.insert(
                name.to_string(),
                serde_json::Value::String(value.to_string()),
            );
        }
    }
    out
}
