//! Printing: human text or one JSON document on stdout.

use std::io::{self, Write};

use anyhow::{Context, Result};
use serde::Serialize;

/// Prints `value` as pretty JSON on stdout. A reader that went away (`| head`) is an error, not
/// a panic.
pub fn print_json<T: Serialize>(value: &T) -> Result<()> {
    let text = serde_json::to_string_pretty(value).context("writing JSON")?;
    writeln!(stdout(), "{text}").context("writing to stdout")?;
    Ok(())
}

/// Stdout for the commands that print through a writer. A reader that stops early (`hindsight
/// tree T | head`) closes it: the broken pipe then carries [`StdoutClosed`], on which `main`
/// ends quietly, and no other broken pipe does (a replaying JVM that went away is an error).
pub fn stdout() -> Stdout {
    Stdout(io::stdout().lock())
}

pub struct Stdout(io::StdoutLock<'static>);

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.write(buf).map_err(closed)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush().map_err(closed)
    }
}

fn closed(e: io::Error) -> io::Error {
    if e.kind() == io::ErrorKind::BrokenPipe {
        io::Error::new(io::ErrorKind::BrokenPipe, StdoutClosed)
    } else {
        e
    }
}

/// The reader of stdout went away.
#[derive(Debug)]
pub struct StdoutClosed;

impl std::fmt::Display for StdoutClosed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("stdout was closed")
    }
}

impl std::error::Error for StdoutClosed {}

/// Whether `err` comes from writing to a stdout whose reader went away.
pub fn is_stdout_closed(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<io::Error>()
            .and_then(|e| e.get_ref())
            .is_some_and(|inner| inner.is::<StdoutClosed>())
    })
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
