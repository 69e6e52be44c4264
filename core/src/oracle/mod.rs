//! Oracles: who answers the session's questions. The answer rules of `--oracle answers:FILE`
//! (`rules`) and the reference oracle of `--oracle reference:TRACE` (`reference`, with rule 3 in
//! `replay`) live here; the interactive oracle is the command line's, since it needs a terminal.
//!
//! Both the reference oracle and rule 3 read runs through the data model of `recorded` (a run's
//! calls as [`RecordedRun`] and [`CallView`]) and compare the canonical states of `state`;
//! `trace_run` reads a trace file as a [`RecordedRun`], as `omniscient::trace_heap` reads it as
//! a heap. `reference` uses `replay` (rule 3), never the other way.

pub mod footprint;
pub mod forest;
mod recorded;
pub mod reference;
pub mod replay;
pub mod rules;
mod state;
mod trace_run;

#[cfg(test)]
mod tests_loops;

pub use recorded::{ending, CallView, Fragment, MethodKey, Outcome, OutputCall, RecordedRun};
pub use reference::{OracleMemory, ReferenceOracle};
pub use replay::{ReplayError, ReplayStats, Replayer};
pub use rules::{AnswerRules, RulesError};
pub use state::MAX_STATE_OBJECTS;
pub use trace_run::TraceRun;
