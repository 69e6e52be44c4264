//! Records a wire stream file (the agent's `file=PATH` option) into a trace and prints what
//! the trace holds: a tool for checking an agent's output by hand.
//!
//! `cargo run -p hindsight-core --example record_file -- STREAM.hsw TRACE.htrace`

use std::path::PathBuf;

use hindsight_core::trace::recorder::{record, NullSink};
use hindsight_core::trace::store::{TraceReader, WriterConfig};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    let [input, trace] = &args[..] else {
        eprintln!("usage: record_file STREAM TRACE");
        std::process::exit(2);
    };
    let file = std::io::BufReader::new(std::fs::File::open(input)?);
    let summary = record(file, trace, NullSink, WriterConfig::default())?;
    println!("{summary:?}");
    let r = TraceReader::open(trace)?;
    for w in r.warnings()? {
        println!("warning ({}): {}", w.source, w.message);
    }
    for node in r.preorder() {
        let node = node?;
        let h = &node.header;
        let name = match h.method {
            Some(m) => match r.method(m)? {
                Some(def) => format!(
                    "{}.{}",
                    r.class(def.class)?.map(|c| c.name).unwrap_or_default(),
                    def.name
                ),
                None => format!("method {m}"),
            },
            None => format!("{:?}", h.kind),
        };
        let detail = r.node_detail(h.id)?.expect("the node exists");
        let args: Vec<String> = detail
            .args
            .iter()
            .map(|a| format!("{}={:?}", a.name, a.value))
            .collect();
        println!(
            "{:indent$}{} #{} [{}..{:?}] ({}) -> {:?}  lines {:?}",
            "",
            name,
            h.id,
            h.entry,
            h.exit,
            args.join(", "),
            detail.result,
            r.node_lines(h.id)?,
            indent = 2 * node.depth as usize + if h.parent.is_some() { 2 } else { 0 }
        );
    }
    Ok(())
}
