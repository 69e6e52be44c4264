//! Rule 3 of the reference oracle: a call of the buggy run whose entry state the correct run
//! never reached is judged by running the correct method from that state
//! (docs/replay-protocol.md). The core writes the request and compares the answer's exit state
//! with the buggy call's, as rule 1 compares two recorded states; running the correct program
//! is the [`Replayer`]'s job (a JVM the command line starts), so this module does no IO.

mod answer;
mod graph;
mod request;
mod token;

#[cfg(test)]
mod tests;

use serde::{Deserialize, Serialize};

pub use answer::{parse_answer, Ran, Replayed};
pub use graph::GraphHeap;
pub use request::{encode_request, Refusal};

use super::recorded::{CallView, RecordedRun};
use super::state::{canonical_exit, exit_state, MAX_STATE_OBJECTS};
use crate::omniscient::{HeapError, HeapResult};
use crate::session::Answer;

/// Runs the correct program: sends one request, returns the text of its answer (up to `END`).
pub trait Replayer {
    fn exchange(&mut self, request: &str) -> Result<String, ReplayError>;
}

/// The replayer could not be reached or answered something that is not an answer.
#[derive(Debug, thiserror::Error)]
#[error("the replayer of the correct program: {0}")]
pub struct ReplayError(pub String);

impl From<ReplayError> for HeapError {
    fn from(e: ReplayError) -> HeapError {
        HeapError(e.to_string())
    }
}

/// What rule 3 did over a session, for the benchmark's report.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReplayStats {
    /// Replayed and equal to the buggy call's exit state.
    pub valid: usize,
    /// Replayed and different.
    pub invalid: usize,
    /// Replayed, but a state that is not completely known makes equality unprovable.
    pub unprovable: usize,
    /// The replayer could not run the call (its reason in [`Replayed::Failed`]).
    pub failed: usize,
    /// Not sent: part of the entry state is not in the trace, or the call writes static fields.
    pub refused: usize,
}

/// How the replay of a call compares with its recording.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Comparison {
    /// Both exit states are completely known and equal.
    Equal,
    /// Both are completely known and differ: the canonical forms, recorded then replayed.
    Different { recorded: String, replayed: String },
    /// Replayed, but one of the states is not completely known: equality proves nothing.
    Unprovable,
    /// Not sent: part of the entry state is not in the trace, or the call writes static fields.
    Refused(Refusal),
    /// The replayer could not run the call; its reason.
    Failed(String),
}

/// Replays `call` of `run` and compares the exit state the correct program reaches from its
/// entry state with the recorded one.
pub fn compare(
    run: &impl RecordedRun,
    call: &CallView,
    replayer: &mut dyn Replayer,
) -> HeapResult<Comparison> {
    if !call.statics.is_empty() {
        // Static fields are not part of a request: the replayer's would be its own.
        return Ok(Comparison::Refused("the call writes static fields".into()));
    }
    let request = match encode_request(run, call, MAX_STATE_OBJECTS)? {
        Ok(r) => r,
        Err(why) => return Ok(Comparison::Refused(why)),
    };
    let text = replayer.exchange(&request)?;
    let ran = match parse_answer(&text)
        .map_err(|e| ReplayError(format!("malformed answer: {e}\nrequest:\n{request}")))?
    {
        Replayed::Failed(reason) => return Ok(Comparison::Failed(reason)),
        Replayed::Ran(ran) => ran,
    };
    let roots = ran.this.iter().chain(&ran.args).copied().collect();
    let replayed = canonical_exit(
        &ran.heap,
        roots,
        Some(ran.outcome),
        0,
        &ran.output,
        MAX_STATE_OBJECTS,
    )?;
    let recorded = exit_state(run, call, &[])?;
    Ok(if !(replayed.complete && recorded.complete) {
        Comparison::Unprovable
    } else if replayed.text == recorded.text {
        Comparison::Equal
    } else {
        Comparison::Different {
            recorded: recorded.text,
            replayed: replayed.text,
        }
    })
}

/// Rule 3 for `call` of the buggy run `run`: valid or invalid when the replayed exit state and
/// the recorded one are both completely known; `None` otherwise.
pub fn judge(
    run: &impl RecordedRun,
    call: &CallView,
    replayer: &mut dyn Replayer,
    stats: &mut ReplayStats,
) -> HeapResult<Option<Answer>> {
    Ok(match compare(run, call, replayer)? {
        Comparison::Equal => {
            stats.valid += 1;
            Some(Answer::Valid)
        }
        Comparison::Different { .. } => {
            stats.invalid += 1;
            Some(Answer::Invalid)
        }
        Comparison::Unprovable => {
            stats.unprovable += 1;
            None
        }
        Comparison::Refused(_) => {
            stats.refused += 1;
            None
        }
        Comparison::Failed(_) => {
            stats.failed += 1;
            None
        }
    })
}
