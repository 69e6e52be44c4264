//! Oracles: who answers the session's questions. The answer rules of `--oracle answers:FILE`
//! (`rules`) and the reference oracle of `--oracle reference:TRACE` (`reference`, with rule 3 in
//! `replay`) live here; the interactive oracle is the command line's, since it needs a terminal.

pub mod reference;
pub mod replay;
pub mod rules;

pub use reference::{RecordedRun, ReferenceOracle};
pub use replay::{ReplayError, ReplayStats, Replayer};
pub use rules::{AnswerRules, RulesError};
