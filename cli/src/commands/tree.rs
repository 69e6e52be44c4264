//! `hindsight tree`: the execution tree of a trace, or a part of it; with `--forest`, the
//! execution forest the debugger asks about.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;
use hindsight_core::debugger::{DebugOptions, Debugger};
use hindsight_core::ids::NodeId;
use hindsight_core::omniscient::names::MethodNames;
use hindsight_core::query::tree::walk_subtree;
use hindsight_core::trace::store::{NodeRow, TraceReader};
use hindsight_core::tree::{ExecutionTree, NodeKind};
use serde::Serialize;

use super::debug::ForestArgs;

/// Print the execution tree of a trace: one line per node, in preorder; --from, --depth and
/// --limit print a part of it. With --forest, the execution forest the debugger asks about
/// (chains of calls collapsed and projected), which is built in memory first.
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
    /// Print JSON: {"nodes": [{"id", "parent", "kind", "method", "thread", "entry", "exit",
    /// "complete", "trusted", "calls"}], "truncated"}
    #[arg(long)]
    pub json: bool,
    /// Print the execution forest the debugger asks about instead of the recorded tree
    #[arg(long)]
    pub forest: bool,
    #[command(flatten)]
    pub forest_options: ForestArgs,
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
        loops: !forest.no_loops,
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
    let (forest, spans) = if args.forest {
        forest_rows(&reader, &args.trace, args.forest_options)?
    } else {
        Default::default()
    };
    let threads: std::collections::HashMap<_, _> = reader
        .threads()?
        .into_iter()
        .map(|(t, _)| (t.id, t.name))
        .collect();
    let mut names = MethodNames::default();
    let mut out = std::io::BufWriter::new(crate::output::stdout());
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
                calls: spans.get(&h.id.0).copied(),
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
            NodeKind::Loop => format!("loop in {}", method.unwrap_or_default()),
            NodeKind::Iteration => "iteration".to_string(),
            NodeKind::Collapsed | NodeKind::Projected => {
                let [a, b] = spans.get(&h.id.0).copied().unwrap_or_default();
                let shape = if h.kind == NodeKind::Collapsed {
                    "collapsed"
                } else {
                    "projected"
                };
                let method = method.unwrap_or_else(|| "several methods".into());
                format!("[{shape}] {method} (#{a}..#{b})")
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
        printed += 1;
        Ok(true)
    };
    if args.forest {
        let from = NodeId(args.from.unwrap_or(0));
        // The forest's preorder: a subtree is the run of rows after its node that are deeper.
        let mut start = None;
        let mut cut = false;
        for (id, parent, kind, row, depth) in forest {
            let Some(mut row) = row else { continue };
            if start.is_none() && id == from {
                start = Some(depth);
            }
            let Some(top) = start else { continue };
            if id != from && depth <= top {
                break;
            }
            let level = depth - top;
            if args.depth.is_some_and(|d| level > d) {
                cut = true;
                continue;
            }
            row.header.id = id;
            row.header.parent = parent;
            row.header.kind = kind;
            row.depth = depth;
            if !print(&row, Some(depth))? {
                break;
            }
        }
        truncated |= cut;
    } else if args.from.is_some() || args.depth.is_some() {
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
