//! The inputs of a write: the values its statement read, each with a path and the timestamp of
//! the read, so that `origin(path, at)` of an input is the next step back.
//!
//! For a method with a block table (wire format 2) they are the statement's recorded reads
//! (`reads`); for the others, a guess from the source line (`tokens`).
//!
//! **From the recorded reads.** The statement starts at the writing call's last `LINE` event, or
//! line-starting `BLOCK`, before the write; the thread's events are walked back
//! (`TraceReader::walk_back`, skipping blocks that lie entirely inside callees) to the `BLOCK`
//! holding that start, and the call's own events from there to the write are replayed against
//! the method's block table as coverage does: each write or read event consumes the next effect
//! of its kind in the current block, and the local-read effects passed over are the locals read
//! just before it (at the previous timestamp); a `BLOCK` or `THROW` means the previous block ran
//! to its end, a `CATCH` that it did not. What was consumed before the statement's start is not
//! the statement's, which is why the replay starts at the block and not at the line. The read
//! events after the start give the field, element and static reads (values at their own
//! timestamps). Paths name an element or field through the local (or earlier input) the
//! statement read its reference from, so `8:a[1]` rather than `obj:2[1]`, and each input carries
//! its `at`: `origin(input.path, input.at)` is the next step back.
//!
//! Limits: reads inside callees are not inputs (a callee's result is not a variable); a
//! statement whose `LINE` falls in the middle of a block also gets the locals read after the
//! previous event but before the `LINE` (`foo(a); x = b;` lists `a` for `x`), since effects carry
//! no line; for an argument (the write is the `CALL`, which is not an effect) the locals read
//! right before the next non-local effect are taken, which may include one read after the call.
//!
//! **From the source line** (traces of wire format 1 agents, synthetic tests): locals named on
//! the line, `a[i]`, `x.f` right of the assignment, values at the statement's start. The result
//! says which source it used (`InputSource`).

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
