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

/// An error and its causes as one line, `what went wrong: why: ...` (docs/cli.md). A cause
/// whose text the message already ends with is left out: many library errors show their source
/// in their own text and also report it as their source, which `{:#}` would print twice.
pub fn error_message(err: &anyhow::Error) -> String {
    let mut message = String::new();
    for cause in err.chain() {
        let text = cause.to_string();
        if message.is_empty() {
            message = text;
        } else if !message.ends_with(&text) {
            message.push_str(": ");
            message.push_str(&text);
        }
    }
    message
}

#[cfg(test)]
mod tests {
    use super::error_message;

    /// As a `thiserror` error with `#[error("...: {source}")]` and `#[source]`.
    #[derive(Debug)]
    struct Shows {
        source: std::io::Error,
    }

    impl std::fmt::Display for Shows {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "t.htrace: opening the trace failed: {}", self.source)
        }
    }

    impl std::error::Error for Shows {
        fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
            Some(&self.source)
        }
    }

    #[test]
    fn a_cause_is_printed_once() {
        let io = || std::io::Error::new(std::io::ErrorKind::NotFound, "No such file");
        let err = anyhow::Error::new(Shows { source: io() });
        assert_eq!(
            error_message(&err),
            "t.htrace: opening the trace failed: No such file"
        );
        // Context whose text does not include the cause still gets it.
        let err = anyhow::Error::new(io()).context("reading answers.txt");
        assert_eq!(error_message(&err), "reading answers.txt: No such file");
        let err = anyhow::Error::new(Shows { source: io() }).context("debugging");
        assert_eq!(
            error_message(&err),
            "debugging: t.htrace: opening the trace failed: No such file"
        );
    }
}
