//! `hindsight tree`: the execution tree of a trace.

use std::path::PathBuf;

use anyhow::Result;
use hindsight_core::debugger::{DebugOptions, Debugger};
use hindsight_core::ids::NodeId;
use hindsight_core::omniscient::names::MethodNames;
use hindsight_core::trace::store::{NodeRow, TraceReader};
use hindsight_core::tree::{ExecutionTree, NodeKind};
use serde::Serialize;

use super::debug::ForestArgs;
use crate::output;

/// Print the execution tree of a trace: one line per node, in preorder. By default the
/// execution forest the debugger asks about: chains of calls collapsed and projected.
#[derive(clap::Args)]
pub struct Args {
    /// The trace file
    pub trace: PathBuf,
    /// Print JSON: {"nodes": [{"id", "parent", "kind", "method", "thread", "entry", "exit",
    /// "complete", "trusted", "calls"}]}
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub forest: ForestArgs,
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
    /// A collapsed or projected node: the first and last recorded call it stands for.
    #[serde(skip_serializing_if = "Option::is_none")]
    calls: Option<[u32; 2]>,
}

type ForestRow = (NodeId, Option<NodeId>, NodeKind, Option<NodeRow>, u32);
/// Forest nodes by id: the first and last recorded call each stands for.
type Spans = std::collections::HashMap<u32, [u32; 2]>;

/// The recorder's rows in the order of the forest, each with the forest node (and its parent)
/// it stands as: a collapsed node is its first call's row, a projected node has none.
fn forest_rows(
    reader: &TraceReader,
    trace: &std::path::Path,
    forest: ForestArgs,
) -> Result<(Vec<ForestRow>, Spans)> {
    let mut rows: Vec<Option<NodeRow>> = Vec::new();
    for row in reader.preorder() {
        let row = row?;
        let i = row.header.id.0 as usize;
        if rows.len() <= i {
            rows.resize(i + 1, None);
        }
        rows[i] = Some(row);
    }
    let options = DebugOptions {
        forest: forest.options(),
        ..Default::default()
    };
    let debugger = Debugger::open(trace, options)?;
    let tree: &ExecutionTree = debugger.session().tree();
    let mut out = Vec::new();
    let mut spans = Spans::new();
    for x in tree.iter() {
        if matches!(tree.kind(x), NodeKind::Collapsed | NodeKind::Projected) {
            if let Some((a, b)) = tree.span(x) {
                spans.insert(x.0, [a.0, b.0]);
            }
        }
        let depth = std::iter::successors(tree.parent(x), |&p| tree.parent(p)).count() as u32;
        let row = rows.get(x.0 as usize).cloned().flatten();
        out.push((x, tree.parent(x), tree.kind(x), row, depth));
    }
    // Forest nodes' entries and exits: their calls'.
    for item in &mut out {
        if matches!(item.2, NodeKind::Collapsed | NodeKind::Projected) {
            if let Some((first, last)) = tree.span(item.0) {
                let first_row = rows.get(first.0 as usize).cloned().flatten();
                let exit = rows
                    .get(last.0 as usize)
                    .cloned()
                    .flatten()
                    .and_then(|r| r.header.exit);
                if let Some(mut r) = first_row {
                    r.header.id = item.0;
                    r.header.exit = exit;
                    r.header.kind = item.2;
                    r.header.method = tree.method(item.0);
                    item.3 = Some(r);
                }
            }
        }
    }
    Ok((out, spans))
}

pub fn run(args: Args) -> Result<u8> {
    let reader = TraceReader::open(&args.trace)?;
    let (forest, spans) = forest_rows(&reader, &args.trace, args.forest)?;
    let threads: std::collections::HashMap<_, _> = reader
        .threads()?
        .into_iter()
        .map(|(t, _)| (t.id, t.name))
        .collect();
    let mut names = MethodNames::default();
    let mut nodes = Vec::new();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for (id, parent, kind, row, depth) in forest {
        let Some(mut row) = row else { continue };
        row.header.id = id;
        row.header.parent = parent;
        row.header.kind = kind;
        row.depth = depth;
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
                calls: spans.get(&h.id.0).copied(),
            });
            continue;
        }
        use std::io::Write;
        let indent = "  ".repeat(row.depth as usize);
        let label = match h.kind {
            NodeKind::Root => "run".to_string(),
            NodeKind::Thread => format!("thread {}", thread.as_deref().unwrap_or("?")),
            NodeKind::Collapsed | NodeKind::Projected => {
                let [a, b] = spans.get(&h.id.0).copied().unwrap_or_default();
                format!(
                    "[{}] {} (calls #{a}..#{b})",
                    if h.kind == NodeKind::Collapsed {
                        "collapsed"
                    } else {
                        "projected"
                    },
                    method.unwrap_or_else(|| "several methods".into())
                )
            }
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
