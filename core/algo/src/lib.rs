//! Hindsight's algorithmic-debugging layer: the execution tree (`tree`), the session with its
//! suspicious set and answers (`session`), and the strategies that choose the next question
//! (`strategy`), with the identifiers (`ids`) and method patterns (`glob`) they speak in.
//!
//! Pure code: no files, sockets, processes or terminal. The crate's dependencies allow none, and
//! its `clippy.toml` refuses the standard library's (CI runs clippy with `-D warnings`). What
//! needs storage takes it through a trait the caller implements: the execution tree's pages
//! spill through [`tree::PageStorage`], which `hindsight-core` backs with scratch files. Tests
//! run on hand-made and seeded random trees. `hindsight-core` re-exports every module under
//! its own name (`hindsight_core::tree`, ...), so the front ends do not name this crate.
//!
//! See `docs/ARCHITECTURE.md` ("Layers") for which module may use which.

#![forbid(unsafe_code)]
#![deny(clippy::print_stdout, clippy::print_stderr, clippy::dbg_macro)]

pub mod glob;
pub mod ids;
pub mod session;
pub mod strategy;
pub mod tree;

#[cfg(test)]
mod testutil;
