//! `hindsight events`: a call's event list.

use std::path::PathBuf;

use anyhow::{Context, Result};
use hindsight_core::ids::NodeId;
use hindsight_core::omniscient::{node_events, EventMark, VarPath};
use hindsight_core::trace::store::TraceReader;

use crate::output;

/// List the events inside a call in time order (calls, returns, writes, lines, exceptions,
/// object creation); with --var, mark the events that changed that variable and the calls
/// whose subtree changed it.
#[derive(clap::Args)]
pub struct Args {
    /// The trace file
    pub trace: PathBuf,
    /// The node id (a call, or a thread node)
    pub node: u32,
    /// Mark the changes of this variable (`7:c[2]`, `static:pkg.Class.field`, `obj:42.next`)
    #[arg(long, value_name = "PATH")]
    pub var: Option<String>,
    /// First timestamp to list (the "next" of the previous page)
    #[arg(long, default_value_t = 0)]
    pub from: u64,
    /// Events per page
    #[arg(long, default_value_t = 100)]
    pub limit: usize,
    /// Print JSON: {"events": [{"timestamp", "thread", "kind", "file", "line", "text", "mark"}], "next"}
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args) -> Result<u8> {
    let reader = TraceReader::open(&args.trace)?;
    let var = args.var.as_deref().map(VarPath::parse).transpose()?;
    let node = NodeId(args.node);
    let page = node_events(&reader, node, args.from, args.limit, var.as_ref())
        .with_context(|| format!("listing the events of node {node}"))?;
    if args.json {
        output::print_json(&page)?;
        return Ok(0);
    }
    for e in &page.events {
        let mark = match e.mark {
            Some(EventMark::Changed) => "*",
            Some(EventMark::ContainsChange) => "+",
            None => " ",
        };
        let place = match (&e.file, e.line) {
            (Some(f), Some(l)) => format!("{f}:{l}"),
            _ => String::new(),
        };
        println!(
            "{mark} {:>8} {:<10} {:<22} {}",
            e.timestamp, e.thread, place, e.text
        );
    }
    if let Some(next) = page.next {
        println!("(more: --from {next})");
    }
    Ok(0)
}
