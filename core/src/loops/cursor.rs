//! The loops a running frame is in, followed from its `BLOCK` events.

use std::sync::Arc;

use super::graph::LoopTable;

/// What entering a block did to the frame's loops, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoopStep {
    /// The innermost active loop ended (its current iteration with it).
    Exit(u32),
    /// A new execution of the loop started, with its first iteration.
    Enter(u32),
    /// The loop's current iteration ended and the next one started.
    Next(u32),
}

/// The active loops of one frame, outermost first.
#[derive(Clone, Debug)]
pub struct LoopCursor {
    table: Arc<LoopTable>,
    active: Vec<u32>,
}

impl LoopCursor {
    pub fn new(table: Arc<LoopTable>) -> LoopCursor {
        LoopCursor {
            table,
            active: Vec::new(),
        }
    }

    /// A cursor for a new frame of a method with `table`, keeping this one's vector.
    pub fn reset(&mut self, table: Arc<LoopTable>) {
        self.table = table;
        self.active.clear();
    }

    pub fn table(&self) -> &LoopTable {
        &self.table
    }

    /// The active loops, outermost first.
    pub fn active(&self) -> &[u32] {
        &self.active
    }

    /// The frame enters `block`: the loops it leaves, then the loop it enters or iterates.
    pub fn block(&mut self, block: u32, steps: &mut Vec<LoopStep>) {
        while let Some(&top) = self.active.last() {
            if self.table.holds(top, block) {
                break;
            }
            self.active.pop();
            steps.push(LoopStep::Exit(top));
        }
        if let Some(l) = self.table.headed_by(block) {
            if self.active.last() == Some(&l) {
                steps.push(LoopStep::Next(l));
            } else {
                self.active.push(l);
                steps.push(LoopStep::Enter(l));
            }
        }
    }

    /// The frame returns or unwinds: every active loop ends, innermost first.
    pub fn leave_all(&mut self, steps: &mut Vec<LoopStep>) {
        while let Some(top) = self.active.pop() {
            steps.push(LoopStep::Exit(top));
        }
    }
}
