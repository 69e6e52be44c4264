//! `hindsight tree`: the execution tree of a trace.

use std::path::PathBuf;

use anyhow::Result;
use hindsight_core::omniscient::names::MethodNames;
use hindsight_core::trace::store::TraceReader;
use hindsight_core::tree::NodeKind;
use serde::Serialize;

use crate::output;

/// Print the execution tree of a trace: one line per node, in preorder.
#[derive(clap::Args)]
pub struct Args {
    /// The trace file
    pub trace: PathBuf,
    /// Print JSON: {"nodes": [{"id", "parent", "kind", "method", "thread", "entry", "exit", "complete", "trusted"}]}
    #[arg(long)]
    pub json: bool,
}

#[derive(Serialize)]
struct NodeJson {
    id: u32,
    parent: Option<u32>,
    kind: NodeKind,
    method: Option<String>,
    thread: Option<String>,
    entry: u64,
    exit: Option<u64>,
    complete: bool,
    trusted: bool,
}

pub fn run(args: Args) -> Result<u8> {
    let reader = TraceReader::open(&args.trace)?;
    let threads: std::collections::HashMap<_, _> = reader
        .threads()?
        .into_iter()
        .map(|(t, _)| (t.id, t.name))
        .collect();
    let mut names = MethodNames::default();
    let mut nodes = Vec::new();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for row in reader.preorder() {
        let row = row?;
        let h = &row.header;
        let method = match h.method {
            Some(m) => Some(names.qualified(&reader, m)?),
            None => None,
        };
        let thread = h.thread.and_then(|t| threads.get(&t).cloned());
        // Calls into uninstrumented code are trusted by default.
        let trusted = h.kind == NodeKind::External;
        if args.json {
            nodes.push(NodeJson {
                id: h.id.0,
                parent: h.parent.map(|p| p.0),
                kind: h.kind,
                method,
                thread,
                entry: h.entry,
                exit: h.exit,
                complete: h.exit.is_some(),
                trusted,
            });
            continue;
        }
        use std::io::Write;
        let indent = "  ".repeat(match h.kind {
            NodeKind::Root => 0,
            NodeKind::Thread => 1,
            _ => row.depth as usize + 1,
        });
        let label = match h.kind {
            NodeKind::Root => "run".to_string(),
            NodeKind::Thread => format!("thread {}", thread.as_deref().unwrap_or("?")),
            NodeKind::Loop => format!("loop in {}", method.unwrap_or_default()),
            NodeKind::Iteration => "iteration".to_string(),
            _ => method.unwrap_or_default(),
        };
        let mut marks = String::new();
        if h.exit.is_none() {
            marks.push_str(" (incomplete)");
        }
        if trusted {
            marks.push_str(" (trusted)");
        }
        writeln!(out, "{indent}#{} {label}{marks}", h.id)?;
    }
    if args.json {
        drop(out);
        output::print_json(&serde_json::json!({ "nodes": nodes }))?;
    }
    Ok(0)
}
