//! `hindsight history`: every change of one variable over the whole run.

use std::path::PathBuf;

use anyhow::{Context, Result};
use hindsight_core::omniscient::{history, RenderLimits, VarPath};
use hindsight_core::trace::store::TraceReader;

use crate::output;

/// List every change of a variable over the whole run: value, timestamp, the node and method
/// that wrote it, file:line. `7:c[2]` is the element of the array `c` refers to at node 7's
/// exit (or at --at).
#[derive(clap::Args)]
pub struct Args {
    /// The trace file
    pub trace: PathBuf,
    /// The variable: NODE:name, NODE:name[3], NODE:name.field, static:pkg.Class.field, obj:ID.field, obj:ID[3]
    pub path: String,
    /// Resolve the path's references at this timestamp (default: a local's call exit, else the end)
    #[arg(long)]
    pub at: Option<u64>,
    /// Skip the first N changes
    #[arg(long, default_value_t = 0)]
    pub offset: usize,
    /// List at most N changes (default: all)
    #[arg(long)]
    pub limit: Option<usize>,
    /// Print JSON: {"entries": [{"value", "timestamp", "node", "method", "file", "line"}]}
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args) -> Result<u8> {
    let reader = TraceReader::open(&args.trace)?;
    let path = VarPath::parse(&args.path)?;
    let h = history(
        &reader,
        &path,
        args.at,
        args.offset,
        args.limit,
        RenderLimits::default(),
    )
    .with_context(|| format!("the history of {path}"))?;
    if args.json {
        output::print_json(&h)?;
        return Ok(0);
    }
    println!("{} ({} changes)", h.path, h.total);
    for e in &h.entries {
        let place = match (&e.file, e.line) {
            (Some(f), Some(l)) => format!("{f}:{l}"),
            _ => "?".into(),
        };
        let node = e.node.map_or_else(|| "?".into(), |n| n.to_string());
        println!(
            "{:>8}  {:<20} node {node:<6} {:<40} {place}",
            e.timestamp,
            e.value,
            e.method.as_deref().unwrap_or("?")
        );
    }
    Ok(0)
}
