//! The inputs of a write: the values its statement read, each with a path and the timestamp of
//! the read, so that `origin(path, at)` of an input is the next step back.
//!
//! For a method with a block table (wire format 2) they are the statement's recorded reads
//! (`reads`); for the others, a guess from the source line (`tokens`).

mod reads;
mod tokens;

use serde::{Deserialize, Serialize};

use crate::ids::Timestamp;

pub use reads::read_inputs;
pub use tokens::line_inputs;

/// A value the writing statement read.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Input {
    /// The variable read: `NODE:name` for a local, `NODE:a[3]` / `NODE:p.f` when the statement
    /// reached the array or object through a local it read, else `obj:ID[3]`, `obj:ID.f`,
    /// `static:pkg.Class.f`.
    pub path: String,
    /// Rendered; `None` when unknown at that time.
    pub value: Option<String>,
    /// When it was read: the origin of `path` at `at` is the write this value came from.
    pub at: Timestamp,
}

/// Where the inputs of a write come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum InputSource {
    /// The statement's recorded reads: read events and the local reads of its executed blocks.
    Reads,
    /// Guessed from the tokens of the source line (the method has no block table).
    SourceLine,
    /// Neither: no block table and no source.
    None,
}
