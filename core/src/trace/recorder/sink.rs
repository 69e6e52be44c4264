//! Where the recorder sends node headers as nodes start and complete: the session consumes
//! them live while the program runs.

use std::sync::mpsc::{Sender, SyncSender};

use crate::ids::NodeId;
use crate::trace::store::WriteCounts;
use crate::tree::NodeHeader;

/// Receives every node header twice: when the node starts (`exit == None`) and when it
/// completes. Nodes that never complete are sent once.
pub trait NodeSink {
    fn node(&mut self, header: &NodeHeader);

    /// The entities a call covered itself, sent just before its completion header (only for
    /// calls that covered any). Ignored unless the consumer weighs by coverage.
    fn coverage(&mut self, _node: NodeId, _edges: &[u32], _def_uses: &[u32]) {}

    /// Whether the consumer waits for everything so far to be readable from the trace (a live
    /// session about to render a question): the recorder then commits at once. Asking clears
    /// the request.
    fn commit_wanted(&mut self) -> bool {
        false
    }

    /// Whether the store's threads may now run behind the program, at a lower priority
    /// (`WriterConfig::behind_the_program`): not while a live session waits for its first
    /// question, which a store at nice 19 on a busy machine would delay by seconds. Once true,
    /// it stays true (a lowered thread cannot take its priority back).
    fn store_may_fall_behind(&mut self) -> bool {
        true
    }

    /// Whether a front end waits for the store to reach the program's present moment (a
    /// person looks at a suspended thread's history): threads that run behind the program
    /// then carry on at the recorder's priority, as once the program has ended. Once true, it
    /// stays true.
    fn store_awaited(&mut self) -> bool {
        false
    }

    /// Everything of the stream up to byte `stream_bytes` (the end of the last frame stored)
    /// is committed and readable. Said after each commit the consumer asked for
    /// (`commit_wanted`), after its `progress`.
    fn committed(&mut self, _stream_bytes: u64) {}

    /// The recorder's counts after a frame, and whether the store is behind the stream (the
    /// frames waiting to be stored fill their queue, so the program waits on its socket).
    fn progress(&mut self, _counts: &WriteCounts, _store_behind: bool) {}
}

/// Drops every header.
pub struct NullSink;

impl NodeSink for NullSink {
    fn node(&mut self, _: &NodeHeader) {}
}

impl NodeSink for Vec<NodeHeader> {
    fn node(&mut self, header: &NodeHeader) {
        self.push(header.clone());
    }
}

/// Sends to a channel; a receiver that hung up is ignored (recording goes on).
impl NodeSink for Sender<NodeHeader> {
    fn node(&mut self, header: &NodeHeader) {
        let _ = self.send(header.clone());
    }
}

/// A bounded channel: the recorder waits while the consumer is behind (visible back-pressure,
/// no loss).
impl NodeSink for SyncSender<NodeHeader> {
    fn node(&mut self, header: &NodeHeader) {
        let _ = self.send(header.clone());
    }
}

/// Calls a closure.
pub struct FnSink<F>(pub F);

impl<F: FnMut(&NodeHeader)> NodeSink for FnSink<F> {
    fn node(&mut self, header: &NodeHeader) {
        (self.0)(header)
    }
}
