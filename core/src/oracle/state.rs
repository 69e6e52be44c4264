//! The states of a call as the oracle compares them: canonical forms ([`canonical_state`]) of
//! `this`, the arguments and the named static fields at entry, and at exit with the outcome and
//! the call's output (see `super::reference`). Rules 1 and 3 compare these texts.

use super::recorded::{CallView, Outcome, OutputCall, RecordedRun};
use crate::ids::Timestamp;
use crate::omniscient::{canonical_state, CanonicalState, Heap, HeapResult};
use crate::trace::wire::Value;

/// How many objects of a state the oracle compares; beyond it states are cut (see
/// [`canonical_state`]) and a match is no longer proof.
pub const MAX_STATE_OBJECTS: usize = 100_000;
/// The same for a loop or an iteration, whose state is its whole frame's: compared only when
/// its footprint decided nothing, for each execution of the loop in the reference run, so a
/// frame that reaches a library's whole object graph (a Jackson `ObjectMapper`) is cut early.
pub const MAX_FRAGMENT_STATE_OBJECTS: usize = 4_096;

fn limit(call: &CallView) -> usize {
    if call.fragment.is_some() {
        MAX_FRAGMENT_STATE_OBJECTS
    } else {
        MAX_STATE_OBJECTS
    }
}

/// The roots of a call's state: `this`, the arguments, then the named static fields.
fn roots(
    run: &impl RecordedRun,
    call: &CallView,
    statics: &[String],
    at: Timestamp,
) -> HeapResult<Vec<Value>> {
    let mut roots: Vec<Value> = call
        .this
        .iter()
        .copied()
        .chain(call.args.iter().copied())
        .collect();
    for field in statics {
        roots.push(run.static_at(field, at)?.unwrap_or(Value::Void));
    }
    Ok(roots)
}

pub(super) fn entry_state(
    run: &impl RecordedRun,
    call: &CallView,
    statics: &[String],
) -> HeapResult<CanonicalState> {
    // Just before the call event: what the caller passed in.
    let at = call.entry.saturating_sub(1);
    canonical_state(run, &roots(run, call, statics, at)?, at, limit(call))
}

pub(super) fn exit_state(
    run: &impl RecordedRun,
    call: &CallView,
    statics: &[String],
) -> HeapResult<CanonicalState> {
    let at = call.exit.unwrap_or(Timestamp::MAX);
    let mut roots = roots(run, call, statics, at)?;
    if call.fragment.is_some() {
        // A loop or iteration: the frame's locals as they are at its exit.
        let this = usize::from(call.this.is_some());
        for (r, v) in roots[this..].iter_mut().zip(&call.exit_locals) {
            *r = *v;
        }
    }
    canonical_exit(run, roots, call.outcome, at, &call.output, limit(call))
}

/// The canonical form of an exit state: the state of `roots` at `at`, the outcome, then each
/// output call's arguments as they were when it was made.
pub(super) fn canonical_exit(
    heap: &impl Heap,
    mut roots: Vec<Value>,
    outcome: Option<Outcome>,
    at: Timestamp,
    output: &[OutputCall],
    limit: usize,
) -> HeapResult<CanonicalState> {
    match outcome {
        Some(Outcome::Returned(v)) => roots.push(v),
        // An exception compares by its class and recorded fields, marked apart from a return.
        Some(Outcome::Threw(v)) => {
            roots.push(Value::Void);
            roots.push(v);
        }
        None => {}
    }
    let mut state = canonical_state(heap, &roots, at, limit)?;
    for out in output {
        let args = canonical_state(heap, &out.args, out.at, limit)?;
        state
            .text
            .push_str(&format!("|{}({})", out.method, args.text));
        state.complete &= args.complete;
    }
    Ok(state)
}
