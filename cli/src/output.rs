//! Printing: human text or one JSON document on stdout.

use anyhow::{Context, Result};
use serde::Serialize;

/// Prints `value` as pretty JSON on stdout.
pub fn print_json<T: Serialize>(value: &T) -> Result<()> {
    let text = serde_json::to_string_pretty(value).context("writing JSON")?;
    println!("{text}");
    Ok(())
}
