//! Printing: human text or one JSON document on stdout.

use std::io::Write;

use anyhow::{Context, Result};
use serde::Serialize;

/// Prints `value` as pretty JSON on stdout. A reader that went away (`| head`) is an error, not
/// a panic.
pub fn print_json<T: Serialize>(value: &T) -> Result<()> {
    let text = serde_json::to_string_pretty(value).context("writing JSON")?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "{text}").context("writing to stdout")?;
    Ok(())
}
