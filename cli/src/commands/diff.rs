//! `hindsight diff`: compare two runs call by call, or a built-in query's answers on both.

use std::path::PathBuf;

use anyhow::Result;
use hindsight_core::query::diff::{diff_answers, diff_runs};
use hindsight_core::query::refs::CallInfo;
use hindsight_core::query::{catalogue, Request};
use hindsight_core::trace::store::TraceReader;

use crate::output;

/// Compare two runs (a passing and a failing one, two versions): their calls lined up by
/// method and call path with ordinals, and the first calls whose arguments, results or
/// presence differ; or with --query the answers of a built-in query on both. Exit status 0
/// when they are the same, 1 when they differ.
#[derive(clap::Args)]
pub struct Args {
    /// The first trace (a)
    pub a: PathBuf,
    /// The second trace (b)
    pub b: PathBuf,
    /// Compare a built-in query's answers instead: NAME and its arguments
    #[arg(long, num_args = 1.., value_name = "NAME ARGS", allow_negative_numbers = true)]
    pub query: Vec<String>,
    /// At most N differences (default 20)
    #[arg(long, default_value_t = 20)]
    pub limit: usize,
    /// Print JSON
    #[arg(long)]
    pub json: bool,
}

fn call(c: &Option<CallInfo>) -> String {
    match c {
        None => "-".into(),
        Some(c) => {
            let args: Vec<String> = c
                .args
                .iter()
                .map(|a| format!("{}={}", a.name, a.shown.value))
                .collect();
            let result = match (c.outcome.as_deref(), &c.result) {
                (Some("threw"), Some(r)) => format!(" threw {}", r.value),
                (Some(_), Some(r)) => format!(" = {}", r.value),
                _ => " (running)".into(),
            };
            format!("#{} ({}){result}", c.node, args.join(", "))
        }
    }
}

pub fn run(args: Args) -> Result<u8> {
    let a = TraceReader::open(&args.a)?;
    let b = TraceReader::open(&args.b)?;
    if let Some((name, rest)) = args.query.split_first() {
        let req = Request {
            name: name.clone(),
            args: rest.to_vec(),
            limit: Some(args.limit.max(100)),
            ..Request::default()
        };
        let qa = serde_json::to_value(catalogue::run(&a, &req, None)?)?;
        let qb = serde_json::to_value(catalogue::run(&b, &req, None)?)?;
        let d = diff_answers(&qa, &qb);
        if args.json {
            output::print_json(&d)?;
        } else if d.same {
            println!("same answer");
        } else {
            for x in d.differences.iter().take(args.limit) {
                let show = |v: &Option<serde_json::Value>| {
                    v.as_ref().map_or("-".into(), |v| v.to_string())
                };
                println!("{}: {} | {}", x.path, show(&x.a), show(&x.b));
            }
        }
        return Ok(u8::from(!d.same));
    }
    let d = diff_runs(&a, &b, args.limit)?;
    if args.json {
        output::print_json(&d)?;
    } else if d.same {
        println!(
            "same calls, arguments and results ({} calls compared)",
            d.compared
        );
    } else {
        for x in &d.differences {
            println!("{} ({}):", x.path, x.kind);
            println!("  a: {}", call(&x.a));
            println!("  b: {}", call(&x.b));
        }
        if d.stopped {
            println!(
                "… stopped after {} differences (--limit)",
                d.differences.len()
            );
        }
    }
    Ok(u8::from(!d.same))
}
