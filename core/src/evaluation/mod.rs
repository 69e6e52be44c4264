//! The strategy benchmark of issue 4 (the jhyde paper's evaluation, section 6): a corpus of
//! correct programs with single-line mutants; each mutant's run is debugged by every strategy
//! with the correct program's run as the reference oracle, and the questions counted.
//!
//! This module holds what is not IO: the corpus's files as data ([`corpus`]), applying a mutant
//! to a source text, running the sessions of one mutant over two recorded traces ([`mutant`]),
//! the balanced-ET paper's every-node-is-buggy method on a recorded tree, and the tables
//! ([`table`]). Compiling and running the JVM is the command line's job.

pub mod corpus;
pub mod mutant;
pub mod replay_check;
pub mod table;

pub use corpus::{apply_mutant, Mutant, MutantList, Program};
pub use mutant::{balanced, debug_mutant, has_coverage, MutantDebug, StrategyRun, TreeShape};
pub use replay_check::{replay_check, ReplayCheck};
pub use table::{
    render_balanced, render_strategies, summarize, BalancedRow, MutantResult, ProgramRow,
    StrategyCell,
};

use thiserror::Error;

use crate::debugger::DebugError;
use crate::omniscient::HeapError;
use crate::strategy::eval::EvalError;
use crate::trace::store::StoreError;

#[derive(Debug, Error)]
pub enum EvaluationError {
    #[error("mutant {id}: line {line} of {file} does not exist (the file has {lines} lines); fix `line` in mutants.toml")]
    NoSuchLine {
        id: String,
        file: String,
        line: usize,
        lines: usize,
    },
    #[error("mutant {id}: line {line} of {file} reads `{found}`, not `{expected}`; fix `from` or `line` in mutants.toml")]
    LineMismatch {
        id: String,
        file: String,
        line: usize,
        found: String,
        expected: String,
    },
    #[error("{0}")]
    Debug(#[from] DebugError),
    #[error("opening a trace: {0}")]
    Store(#[from] StoreError),
    #[error("the reference oracle failed: {0}")]
    Oracle(#[from] HeapError),
    #[error("{0}")]
    Eval(#[from] EvalError),
    #[error("strategy {strategy} kept asking after {questions} questions on a tree of {nodes} nodes: this is a bug in Hindsight")]
    TooManyQuestions {
        strategy: crate::strategy::StrategyName,
        questions: usize,
        nodes: usize,
    },
    #[error("the session waits for nodes of a recording that has ended")]
    Waiting,
}
