//! `hindsight query`: the built-in queries over the whole history (JavaTA's catalogue).

use std::path::PathBuf;

use anyhow::Result;
use hindsight_core::query::chain::EventInfo;
use hindsight_core::query::objects::Written;
use hindsight_core::query::refs::{CallInfo, Shown};
use hindsight_core::query::tree::CallTreeNode;
use hindsight_core::query::{catalogue, Answer, Request};
use hindsight_core::trace::store::TraceReader;

use crate::output;
use crate::progress;
use crate::scan_progress::ScanBar;

/// Ask a built-in query over the whole history: call-chain EVENT, where EVENT,
/// where-exception-is-thrown [THREAD], object-state OBJECT, field-history OBJECT|CLASS FIELD,
/// pre-event-called-methods EVENT, call-tree CALL, executed FILE:LINE, calls METHOD,
/// last-write PATH, values VALUE, exceptions, threads. Events are timestamps, calls node ids.
#[derive(clap::Args)]
pub struct Args {
    /// The trace file
    pub trace: PathBuf,
    /// The query (docs/cli.md lists them with JavaTA's names)
    pub name: String,
    /// The query's arguments
    #[arg(allow_negative_numbers = true)]
    pub args: Vec<String>,
    /// Only the history from this event (timestamp) on
    #[arg(long)]
    pub from: Option<u64>,
    /// Only the history up to this event (timestamp)
    #[arg(long)]
    pub to: Option<u64>,
    /// The event a state is asked at (object-state, last-write; default: the end)
    #[arg(long)]
    pub at: Option<u64>,
    /// calls: only the calls made by this method
    #[arg(long)]
    pub caller: Option<String>,
    /// calls: conditions such as 'arg0 == null && result != 0' (argN, parameter names, this, result)
    #[arg(long = "where")]
    pub condition: Option<String>,
    /// call-tree: levels below the call (default 2)
    #[arg(long)]
    pub depth: Option<u32>,
    /// List at most N items (default 100); counts cover all of them
    #[arg(long)]
    pub limit: Option<usize>,
    /// Print JSON (docs/cli.md)
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args) -> Result<u8> {
    let reader = TraceReader::open(&args.trace)?;
    let req = Request {
        name: args.name.clone(),
        args: args.args.clone(),
        from: args.from,
        to: args.to,
        at: args.at,
        caller: args.caller.clone(),
        condition: args.condition.clone(),
        depth: args.depth,
        limit: args.limit,
    };
    let mut bar = ScanBar::new(progress::wanted(args.json) && catalogue::scans(&args.name));
    let mut update = |p| bar.update(p);
    let answer = catalogue::run(&reader, &req, Some(&mut update))?;
    bar.finish();
    if args.json {
        output::print_json(&answer)?;
        return Ok(0);
    }
    print(&answer);
    Ok(0)
}

/// A value as rendered, with its object id when the rendering does not show it (an object
/// shown by its content): the id is what `object-state` and `obj:ID.field` take.
fn shown(s: &Shown) -> String {
    match s.object {
        Some(id) if !s.value.contains(&format!("#{id}")) => format!("#{id} {}", s.value),
        _ => s.value.clone(),
    }
}

fn place(file: &Option<String>, line: Option<u32>) -> String {
    match (file, line) {
        (Some(f), Some(l)) => format!("{f}:{l}"),
        (Some(f), None) => f.clone(),
        (None, Some(l)) => format!("line {l}"),
        (None, None) => "?".into(),
    }
}

/// `#8 Example.mN(result=null) = void  [Example.java:14, events 25-30]`
fn call(c: &CallInfo) -> String {
    let args: Vec<String> = c
        .args
        .iter()
        .map(|a| format!("{}={}", a.name, a.shown.value))
        .collect();
    let this = c
        .receiver
        .as_ref()
        .map_or(String::new(), |r| format!(" on {}", r.value));
    let result = match (c.outcome.as_deref(), &c.result) {
        (Some("returned"), Some(r)) if r.value == "void" => String::new(),
        (Some("returned"), Some(r)) => format!(" = {}", r.value),
        (Some("threw"), Some(r)) => format!(" threw {}", r.value),
        _ => " (running)".into(),
    };
    let exit = c.exit_event.map_or("…".into(), |e| e.to_string());
    format!(
        "#{} {}({}){this}{result}  [{}, events {}-{exit}]",
        c.node,
        c.method,
        args.join(", "),
        place(&c.file, c.line),
        c.call_event
    )
}

fn event(e: &EventInfo) -> String {
    format!(
        "event {} ({}) in #{} at {}: {}",
        e.timestamp,
        e.kind,
        e.node,
        place(&e.file, e.line),
        e.text
    )
}

fn written(w: &Written) -> String {
    format!(
        "event {} by #{} {} at {}",
        w.timestamp,
        w.node,
        w.method.as_deref().unwrap_or("?"),
        place(&w.file, w.line)
    )
}

fn tree(n: &CallTreeNode, depth: usize) {
    println!("{}{}", "  ".repeat(depth), call(&n.call));
    for c in &n.children {
        tree(c, depth + 1);
    }
    if n.omitted > 0 {
        println!("{}… {} more calls", "  ".repeat(depth + 1), n.omitted);
    }
}

fn print(answer: &Answer) {
    match answer {
        Answer::CallChain(c) => {
            println!("{}", event(&c.event));
            for x in &c.calls {
                println!("  {}", call(x));
            }
            if c.depth > c.calls.len() {
                println!("  … {} more enclosing calls", c.depth - c.calls.len());
            }
        }
        Answer::Where(w) => {
            println!("{}", event(&w.event));
            match &w.environment {
                Some(c) => println!("  in {}", call(c)),
                None => println!("  outside every call"),
            }
        }
        Answer::Uncaught(u) => {
            if u.exceptions.is_empty() {
                println!("no exception left a thread");
            }
            for x in &u.exceptions {
                println!(
                    "thread {}: {} thrown at {}",
                    x.thread,
                    x.class.as_deref().unwrap_or(&x.exception.value),
                    event(&x.thrown)
                );
                println!("  in {}", call(&x.environment));
                for c in x.chain.iter().skip(1) {
                    println!("  from {}", call(c));
                }
            }
        }
        Answer::ObjectState(o) => {
            println!(
                "{}#{} at event {} (created at {} by #{})",
                o.class, o.object, o.at, o.created, o.created_by
            );
            for f in &o.fields {
                let w = f.written.as_ref().map_or("default value".into(), written);
                println!("  {}.{} = {}  ({w})", f.class, f.name, shown(&f.shown));
            }
            if let Some(len) = o.length {
                println!("  length {len}");
                for e in &o.elements {
                    println!(
                        "  [{}] = {}",
                        e.index,
                        e.value.as_ref().map_or("?".into(), shown)
                    );
                }
            }
        }
        Answer::History(h) => {
            println!("{} ({} changes)", h.path, h.total);
            for e in &h.entries {
                println!(
                    "{:>8}  {:<20} #{} {} {}",
                    e.timestamp,
                    e.value,
                    e.node.map_or("?".into(), |n| n.to_string()),
                    e.method.as_deref().unwrap_or("?"),
                    place(&e.file, e.line)
                );
            }
        }
        Answer::PreEvent(p) => {
            println!("{}", event(&p.event));
            if let Some(env) = &p.environment {
                println!("  in {}", call(env));
            }
            if p.total > p.calls.len() as u64 {
                println!("  … {} earlier calls", p.total - p.calls.len() as u64);
            }
            for c in &p.calls {
                println!("  before: {}", call(c));
            }
        }
        Answer::CallTree(t) => tree(&t.root, 0),
        Answer::Executed(x) => {
            if !x.executed {
                println!(
                    "{}:{} was never executed ({})",
                    x.file,
                    x.line,
                    x.methods.join(", ")
                );
                return;
            }
            println!(
                "{}:{} executed {} times by {} calls (events {}-{})",
                x.file,
                x.line,
                x.count,
                x.total_calls,
                x.first.unwrap_or(0),
                x.last.unwrap_or(0)
            );
            for c in &x.calls {
                println!(
                    "  #{} {} ×{} (first at event {})",
                    c.node, c.method, c.count, c.first
                );
            }
        }
        Answer::Calls(c) => {
            println!("{} calls of {}", c.total, c.methods.join(", "));
            for x in &c.calls {
                println!("  {}", call(x));
            }
            if c.total > c.calls.len() as u64 {
                println!("  … {} more (--limit)", c.total - c.calls.len() as u64);
            }
        }
        Answer::LastWrite(l) => {
            let v = l.value.as_ref().map_or("unknown".into(), shown);
            match &l.write {
                Some(w) => println!("{} = {v} at event {}: written at {}", l.path, l.at, written(w)),
                None => println!(
                    "{} = {v} at event {}: no recorded write (a default value, or set by uninstrumented code)",
                    l.path, l.at
                ),
            }
        }
        Answer::Values(v) => {
            println!("{} writes of {}", v.total, v.value);
            for h in &v.holders {
                println!("  {} = {} at {}", h.path, v.value, written(&h.write));
            }
        }
        Answer::Exceptions(x) => {
            println!("{} exceptions", x.total);
            for e in &x.exceptions {
                let caught = match &e.caught {
                    Some(c) => format!("caught at {}", written(c)),
                    None => e.fate.clone(),
                };
                println!(
                    "  {} ({}) thrown at {}{}; {caught}",
                    e.class.as_deref().unwrap_or("?"),
                    shown(&e.exception),
                    written(&e.thrown),
                    if e.implicit {
                        " (by the JVM or the JDK)"
                    } else {
                        ""
                    }
                );
            }
        }
        Answer::Threads(t) => {
            for x in &t.threads {
                println!(
                    "{} (#{}): {} events {}-{}, {} calls{}",
                    x.name,
                    x.node.map_or("?".into(), |n| n.to_string()),
                    x.status,
                    x.start.map_or("?".into(), |s| s.to_string()),
                    x.end.map_or("?".into(), |s| s.to_string()),
                    x.calls,
                    x.uncaught
                        .as_ref()
                        .map_or(String::new(), |u| format!(", ended by an uncaught {u}"))
                );
            }
        }
    }
}
