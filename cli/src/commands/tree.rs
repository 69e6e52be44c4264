//! `hindsight tree`: the execution tree of a trace, or a part of it.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;
use hindsight_core::ids::NodeId;
use hindsight_core::omniscient::names::MethodNames;
use hindsight_core::query::tree::walk_subtree;
use hindsight_core::trace::store::{NodeRow, TraceReader};
use hindsight_core::tree::NodeKind;
use serde::Serialize;

/// Print the execution tree of a trace: one line per node, in preorder; --from, --depth and
/// --limit print a part of it.
#[derive(clap::Args)]
pub struct Args {
    /// The trace file
    pub trace: PathBuf,
    /// Start at this node (default: the run's root)
    #[arg(long)]
    pub from: Option<u32>,
    /// Only N levels below the start
    #[arg(long)]
    pub depth: Option<u32>,
    /// At most N nodes
    #[arg(long)]
    pub limit: Option<u64>,
    /// Print JSON: {"nodes": [{"id", "parent", "method", "thread", "entry", "exit", "complete", "trusted"}], "truncated"}
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
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let limit = args.limit.unwrap_or(u64::MAX);
    let mut printed = 0u64;
    let mut truncated = false;
    if args.json {
        write!(out, "{{\"nodes\": [")?;
    }
    // Prints one node (streamed: a whole run's tree never sits in memory); `false` at the limit.
    let mut print = |row: &NodeRow, level: Option<u32>| -> Result<bool> {
        if printed >= limit {
            truncated = true;
            return Ok(false);
        }
        let h = &row.header;
        let method = match h.method {
            Some(m) => Some(names.qualified(&reader, m)?),
            None => None,
        };
        let thread = h.thread.and_then(|t| threads.get(&t).cloned());
        // Calls into uninstrumented code are trusted by default.
        let trusted = h.kind == NodeKind::External;
        if args.json {
            let node = NodeJson {
                id: h.id.0,
                parent: h.parent.map(|p| p.0),
                kind: h.kind,
                method,
                thread,
                entry: h.entry,
                exit: h.exit,
                complete: h.exit.is_some(),
                trusted,
            };
            let sep = if printed == 0 { "\n  " } else { ",\n  " };
            write!(out, "{sep}{}", serde_json::to_string(&node)?)?;
            printed += 1;
            return Ok(true);
        }
        let indent = "  ".repeat(match (level, h.kind) {
            (Some(l), _) => l as usize,
            (None, NodeKind::Root) => 0,
            (None, NodeKind::Thread) => 1,
            (None, _) => row.depth as usize + 1,
        });
        let label = match h.kind {
            NodeKind::Root => "run".to_string(),
            NodeKind::Thread => format!("thread {}", thread.as_deref().unwrap_or("?")),
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
        printed += 1;
        Ok(true)
    };
    if args.from.is_some() || args.depth.is_some() {
        let from = NodeId(args.from.unwrap_or(0));
        let mut failed = None;
        let cut = walk_subtree(&reader, from, args.depth, |row, level| {
            match print(row, Some(level)) {
                Ok(go_on) => Ok(go_on),
                Err(e) => {
                    failed = Some(e);
                    Ok(false)
                }
            }
        })?;
        if let Some(e) = failed {
            return Err(e);
        }
        truncated |= cut;
    } else {
        for row in reader.preorder() {
            if !print(&row?, None)? {
                break;
            }
        }
    }
    if args.json {
        writeln!(out, "\n], \"truncated\": {truncated}}}")?;
    } else if truncated {
        writeln!(out, "… (more nodes: --depth and --limit cut the tree here)")?;
    }
    out.flush()?;
    Ok(0)
}
