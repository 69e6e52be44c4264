//! `hindsight export --jel`: the run as Java Event Log facts for Prolog (JavaTA, Table 2).

use std::io::Write;
use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use hindsight_core::ids::NodeId;
use hindsight_core::query::jel::{export, JelOptions};
use hindsight_core::query::Span;
use hindsight_core::trace::store::TraceReader;

use crate::output;
use crate::progress;
use crate::scan_progress::ScanBar;

/// Export a trace (or a span of it, or one call) as Java Event Log facts: event(Id, Thread,
/// methodcall(...)), methodexit, setfield, step, exception, ... (docs/cli.md).
#[derive(clap::Args)]
pub struct Args {
    /// Write JEL facts (the only format so far)
    #[arg(long, required = true)]
    pub jel: bool,
    /// The trace file
    pub trace: PathBuf,
    /// Write to this file instead of stdout
    #[arg(short = 'o', long)]
    pub output: Option<PathBuf>,
    /// Only the history from this event (timestamp) on
    #[arg(long)]
    pub from: Option<u64>,
    /// Only the history up to this event (timestamp)
    #[arg(long)]
    pub to: Option<u64>,
    /// Only this call (node id): its thread's events from its call to its exit
    #[arg(long, conflicts_with_all = ["from", "to"])]
    pub call: Option<u32>,
    /// Print what was written as JSON ({"events", "facts"}); needs -o
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args) -> Result<u8> {
    if args.json && args.output.is_none() {
        bail!(
            "--json prints the export's figures on stdout, so the facts need a file: add -o FILE"
        );
    }
    let reader = TraceReader::open(&args.trace)?;
    let opts = JelOptions {
        span: Span::new(args.from, args.to),
        call: args.call.map(NodeId),
    };
    let mut bar = ScanBar::new(progress::wanted(args.json) && args.output.is_some());
    let mut update = |p| bar.update(p);
    let stats = match &args.output {
        Some(path) => {
            let file = std::fs::File::create(path)
                .with_context(|| format!("creating {}", path.display()))?;
            export(&reader, opts, file, Some(&mut update))?
        }
        None => export(&reader, opts, crate::output::stdout(), None)?,
    };
    bar.finish();
    if args.json {
        output::print_json(&stats)?;
    } else if args.output.is_some() {
        writeln!(
            std::io::stderr(),
            "{} facts from {} events",
            stats.facts,
            stats.events
        )?;
    }
    Ok(0)
}
