//! `hindsight origin`: the write that produced a value, and what that write read.

use std::path::PathBuf;

use anyhow::{Context, Result};
use hindsight_core::omniscient::{origin, InputSource, RenderLimits, VarPath};
use hindsight_core::trace::store::TraceReader;

use crate::{output, source};

/// Show where the value of a variable at a timestamp came from: the write that produced it
/// (node, method, file:line and the source line) and the values that statement read.
#[derive(clap::Args)]
pub struct Args {
    /// The trace file
    pub trace: PathBuf,
    /// The variable: NODE:name, NODE:name[3], NODE:name.field, static:pkg.Class.field, obj:ID.field, obj:ID[3]
    pub path: String,
    /// The timestamp of the value
    #[arg(long)]
    pub at: u64,
    /// Directories holding the program's sources (separated like PATH)
    #[arg(long, value_name = "DIRS")]
    pub source_path: Option<String>,
    /// Print JSON: {"write": {"timestamp", "node", "method", "file", "line", "source", "inputs": [{"path", "value", "at"}], "inputs_from"}}
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args) -> Result<u8> {
    let reader = TraceReader::open(&args.trace)?;
    let path = VarPath::parse(&args.path)?;
    let source_path = args.source_path.clone();
    let lookup = move |file: &str, method: &str| source::find(file, method, source_path.as_deref());
    let o = origin(&reader, &path, args.at, &lookup, RenderLimits::default())
        .with_context(|| format!("the origin of {path}"))?;
    if args.json {
        output::print_json(&o)?;
        return Ok(0);
    }
    println!(
        "{} = {} at {}",
        o.path,
        o.value.as_deref().unwrap_or("(unknown)"),
        o.at
    );
    let Some(w) = &o.write else {
        println!("  no recorded write: a default value, or set by uninstrumented code");
        return Ok(0);
    };
    let place = match (&w.file, w.line) {
        (Some(f), Some(l)) => format!("{f}:{l}"),
        _ => "?".into(),
    };
    println!(
        "  written at {} by node {} {} ({place})",
        w.timestamp,
        w.node,
        w.method.as_deref().unwrap_or("?")
    );
    if let Some(s) = &w.source {
        println!("    {s}");
    }
    match w.inputs_from {
        InputSource::Reads => {
            println!("  it read (each is the next step back: origin PATH --at AT):")
        }
        InputSource::SourceLine => {
            println!("  no recorded reads for this method; inputs guessed from the source line:")
        }
        InputSource::None => println!("  no recorded reads and no source: inputs unknown"),
    }
    for i in &w.inputs {
        println!(
            "    {} = {}  --at {}",
            i.path,
            i.value.as_deref().unwrap_or("(unknown)"),
            i.at
        );
    }
    Ok(0)
}
