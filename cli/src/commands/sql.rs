//! `hindsight sql`: read-only SQL over a trace's relations (docs/trace-schema.md).

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};
use hindsight_core::query::sql::{Sql, SqlValue};

use crate::progress;
use crate::scan_progress::ScanBar;

/// Run a read-only SQL statement over a trace: the relations events, calls, writes, reads,
/// lines and objects (docs/trace-schema.md), beside the trace's own tables. Rows are printed as
/// they come.
#[derive(clap::Args)]
pub struct Args {
    /// The trace file
    pub trace: PathBuf,
    /// The statement (or use -f)
    #[arg(required_unless_present = "file", conflicts_with = "file")]
    pub statement: Option<String>,
    /// Read the statement from a file
    #[arg(short = 'f', long = "file")]
    pub file: Option<PathBuf>,
    /// Print JSON: {"columns": [...], "rows": [[...]], "count": N}
    #[arg(long)]
    pub json: bool,
}

/// Rows looked at to size the table's columns before printing.
const SIZING_ROWS: usize = 200;
const MAX_WIDTH: usize = 60;

pub fn run(args: Args) -> Result<u8> {
    let statement = match (&args.statement, &args.file) {
        (Some(s), _) => s.clone(),
        (None, Some(f)) => std::fs::read_to_string(f)
            .with_context(|| format!("reading the statement from {}", f.display()))?,
        (None, None) => unreachable!("clap requires one"),
    };
    let sql = Sql::open(&args.trace)?;
    // The progress line, drawn by a thread from the statement's shared counters.
    let stop = Arc::new(AtomicBool::new(false));
    let drawer = progress::wanted(args.json).then(|| {
        let (stop, shared) = (Arc::clone(&stop), sql.progress());
        std::thread::spawn(move || {
            let mut bar: Option<ScanBar> = None;
            let mut ticks = 0;
            while !stop.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(100));
                ticks += 1;
                let p = shared.get();
                if ticks >= 5 && p.total > 0 {
                    bar.get_or_insert_with(|| ScanBar::new(true)).update(p);
                }
            }
        })
    });
    let printer = std::cell::RefCell::new(Printer {
        out: std::io::BufWriter::new(crate::output::stdout()),
        columns: Vec::new(),
        pending: Vec::new(),
        widths: None,
        json: args.json,
        rows: 0,
    });
    let result = sql.run(
        &statement,
        |c| Ok(printer.borrow_mut().columns(c)?),
        |row| {
            printer.borrow_mut().row(row)?;
            Ok(true)
        },
    );
    stop.store(true, Ordering::Relaxed);
    if let Some(d) = drawer {
        let _ = d.join();
    }
    let count = result?;
    printer.into_inner().finish(count)?;
    Ok(0)
}

/// Prints rows as they come: JSON at once; a table once its first rows have sized the columns.
struct Printer<W: Write> {
    out: W,
    columns: Vec<String>,
    pending: Vec<Vec<SqlValue>>,
    widths: Option<Vec<usize>>,
    json: bool,
    rows: u64,
}

impl<W: Write> Printer<W> {
    fn columns(&mut self, c: &[String]) -> std::io::Result<()> {
        self.columns = c.to_vec();
        if self.json {
            let cols = serde_json::to_string(&self.columns).unwrap_or_default();
            write!(self.out, "{{\"columns\": {cols}, \"rows\": [")?;
        }
        Ok(())
    }

    fn row(&mut self, row: Vec<SqlValue>) -> std::io::Result<()> {
        self.rows += 1;
        if self.json {
            let sep = if self.rows == 1 { "\n" } else { ",\n" };
            let text = serde_json::to_string(&row).unwrap_or_default();
            return write!(self.out, "{sep}  {text}");
        }
        match &self.widths {
            Some(w) => print_row(&mut self.out, &row, w),
            None => {
                self.pending.push(row);
                if self.pending.len() >= SIZING_ROWS {
                    self.flush_pending()?;
                }
                Ok(())
            }
        }
    }

    fn flush_pending(&mut self) -> std::io::Result<()> {
        let widths = sizes(&self.columns, &self.pending);
        print_header(&mut self.out, &self.columns, &widths)?;
        for r in std::mem::take(&mut self.pending) {
            print_row(&mut self.out, &r, &widths)?;
        }
        self.widths = Some(widths);
        Ok(())
    }

    fn finish(mut self, count: u64) -> std::io::Result<()> {
        if self.json {
            writeln!(self.out, "\n], \"count\": {count}}}")?;
        } else {
            if self.widths.is_none() {
                self.flush_pending()?;
            }
            writeln!(self.out, "({count} rows)")?;
        }
        self.out.flush()
    }
}

fn sizes(columns: &[String], rows: &[Vec<SqlValue>]) -> Vec<usize> {
    columns
        .iter()
        .enumerate()
        .map(|(i, c)| {
            rows.iter()
                .map(|r| r.get(i).map_or(0, |v| v.to_string().chars().count()))
                .chain([c.chars().count()])
                .max()
                .unwrap_or(0)
                .min(MAX_WIDTH)
        })
        .collect()
}

fn cell(text: &str, width: usize) -> String {
    let n = text.chars().count();
    if n > width {
        let cut: String = text.chars().take(width.saturating_sub(1)).collect();
        format!("{cut}…")
    } else {
        format!("{text}{}", " ".repeat(width - n))
    }
}

fn print_header(out: &mut impl Write, columns: &[String], widths: &[usize]) -> std::io::Result<()> {
    let cells: Vec<String> = columns
        .iter()
        .zip(widths)
        .map(|(c, w)| cell(c, *w))
        .collect();
    writeln!(out, "{}", cells.join("  ").trim_end())?;
    let rules: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
    writeln!(out, "{}", rules.join("  "))
}

fn print_row(out: &mut impl Write, row: &[SqlValue], widths: &[usize]) -> std::io::Result<()> {
    let cells: Vec<String> = row
        .iter()
        .zip(widths)
        .map(|(v, w)| cell(&v.to_string(), *w))
        .collect();
    writeln!(out, "{}", cells.join("  ").trim_end())
}
