//! `hindsight info`: what a trace knows of its recording.

use std::path::PathBuf;

use anyhow::Result;
use hindsight_core::trace::store::TraceReader;

use crate::output;

/// Show what a trace knows of its recording: events, nodes, size, how the program ended.
#[derive(clap::Args)]
pub struct Args {
    /// The trace file
    pub trace: PathBuf,
    /// Print JSON
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args) -> Result<u8> {
    let reader = TraceReader::open(&args.trace)?;
    let info = reader.info()?;
    if args.json {
        output::print_json(&info)?;
        return Ok(0);
    }
    println!("trace           {}", args.trace.display());
    println!("format version  {}", info.format_version);
    println!("status          {}", info.status);
    if let Some(command) = &info.command {
        println!("command         {command}");
    }
    if let Some(vm) = &info.vm {
        println!("vm              {vm}");
    }
    println!("events          {}", info.events);
    println!(
        "nodes           {} ({} complete)",
        info.nodes, info.complete_nodes
    );
    println!("bytes           {}", info.bytes);
    if info.events > 0 {
        println!(
            "bytes per event {:.1}",
            info.bytes as f64 / info.events as f64
        );
    }
    if let Some(ms) = info.wall_ms {
        println!("wall time       {ms} ms");
    }
    match info.exit_status {
        Some(status) => println!("exit status     {status}"),
        None => println!(
            "exit status     unknown ({})",
            info.ending_detail.as_deref().unwrap_or("no END frame")
        ),
    }
    if info.warnings > 0 {
        println!("warnings        {} (the first ones follow)", info.warnings);
        for w in reader.warnings()?.iter().take(10) {
            println!("  {}: {}", w.source, w.message);
        }
    }
    Ok(0)
}
