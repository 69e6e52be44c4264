//! `hindsight node`: the state of a call at any moment.

use std::path::PathBuf;

use anyhow::{Context, Result};
use hindsight_core::ids::NodeId;
use hindsight_core::omniscient::{
    children_of, node_state, Children, Mark, RenderLimits, VarPath, VarState,
};
use hindsight_core::trace::store::TraceReader;
use serde::Serialize;

use crate::output;

/// Show every variable of a call at a moment: locals, `this`, the static fields it touched,
/// each with its value at the call's entry and at that moment, marked changed,
/// contents-changed or unchanged.
#[derive(clap::Args)]
pub struct Args {
    /// The trace file
    pub trace: PathBuf,
    /// The call's node id (`hindsight tree TRACE` lists them)
    pub node: u32,
    /// The timestamp to show (default: the call's exit); must lie within the call
    #[arg(long)]
    pub at: Option<u64>,
    /// Expand this object or array by path (`7:c`, `7:this.next`); repeatable
    #[arg(long, value_name = "PATH")]
    pub expand: Vec<String>,
    /// With --expand: list the children of the last expanded path from this one on (paging
    /// through long arrays); adds "page" to the output
    #[arg(long)]
    pub offset: Option<u32>,
    /// With --offset: how many children to list
    #[arg(long, default_value_t = 100)]
    pub limit: u32,
    /// Print JSON: {"node", "at", "variables": [{"name", "path", "entry", "value", "mark", "size", "children"}]}
    #[arg(long)]
    pub json: bool,
}

#[derive(Serialize)]
struct Out {
    #[serde(flatten)]
    state: hindsight_core::omniscient::NodeState,
    #[serde(skip_serializing_if = "Option::is_none")]
    page: Option<Children>,
}

pub fn run(args: Args) -> Result<u8> {
    let reader = TraceReader::open(&args.trace)?;
    let expand: Vec<VarPath> = args
        .expand
        .iter()
        .map(|p| VarPath::parse(p))
        .collect::<Result<_, _>>()?;
    let limits = RenderLimits::default();
    let node = NodeId(args.node);
    let state = node_state(&reader, node, args.at, &expand, limits)
        .with_context(|| format!("showing node {node}"))?;
    let page = match (args.offset, expand.last()) {
        (Some(offset), Some(path)) => Some(children_of(
            &reader,
            path,
            state.entry_ts,
            state.at,
            offset,
            args.limit,
            limits,
        )?),
        (Some(_), None) => {
            anyhow::bail!("--offset pages through the children of an --expand path: give one")
        }
        _ => None,
    };
    if args.json {
        output::print_json(&Out { state, page })?;
        return Ok(0);
    }
    let method = state.method.as_deref().unwrap_or("?");
    let exit = state
        .exit_ts
        .map_or_else(|| "(incomplete)".to_string(), |t| t.to_string());
    println!(
        "node {} {method}, entry {} exit {exit}, at {}",
        state.node, state.entry_ts, state.at
    );
    if let Some(r) = &state.result {
        println!("  result: {r}");
    }
    for v in &state.variables {
        print_var(v, 1);
    }
    if let Some(page) = page {
        println!(
            "{} from [{}] of {}:",
            page.path,
            page.offset,
            page.size.map_or("?".into(), |s| s.to_string())
        );
        for v in &page.children {
            print_var(v, 1);
        }
    }
    Ok(0)
}

fn print_var(v: &VarState, depth: usize) {
    let indent = "  ".repeat(depth);
    let value = v.value.as_deref().unwrap_or("(undefined)");
    let entry = v.entry.as_deref().unwrap_or("(undefined)");
    let mark = match v.mark {
        Mark::Changed => format!("  changed, was {entry}"),
        Mark::ContentsChanged => format!("  contents changed, was {entry}"),
        Mark::Unchanged => String::new(),
    };
    println!("{indent}{} = {value}{mark}", v.name);
    for c in &v.children {
        print_var(c, depth + 1);
    }
}
