//! Loops of a method, found from its control flow graph (the block table's successors, wire
//! format 3), and the loops a running frame is in, followed block by block.
//!
//! Definitions (also in docs/ARCHITECTURE.md, "Loops"):
//!
//! - The graph's nodes are the method's blocks, entered at block 0; its edges are each block's
//!   successors, exception edges (to the handlers of the try ranges a block overlaps) included,
//!   so that a handler inside a loop is inside it. Blocks not reachable from block 0 are in no
//!   loop.
//! - A block `d` *dominates* `b` when every path from the entry to `b` passes through `d`. An
//!   edge `u → h` is a *back edge* when `h` dominates `u`; `h` is then a loop *header*.
//! - The *body* of the loop of header `h` is `h` and every block that reaches the source of one
//!   of `h`'s back edges without passing through `h` (the natural loops of all back edges to `h`
//!   merged: one loop per header). Its *exits* are the edges from the body to a block outside.
//! - Loops nest: two bodies are disjoint or one holds the other; a loop's *parent* is the
//!   smallest loop whose body holds its header. A retreating edge whose target does not dominate
//!   its source (irreducible flow, which javac does not produce) makes no loop.
//!
//! At run time ([`LoopCursor`]) a frame's `BLOCK` events say where it is: entering a block
//! first leaves every active loop whose body does not hold it (the loop ends: a normal exit,
//! a `break`, or a handler outside the loop), then, at a header, starts the next iteration of
//! its loop if that loop is active (a back edge: the loop's end or a `continue`), else a new
//! execution of it. So an iteration runs from one entry of the header to the next, or to the
//! loop's exit; with javac's loops, whose header tests the condition, the last iteration is
//! the test that ends the loop. A frame that returns or unwinds leaves all its loops (a
//! `return` inside a loop, an exception no handler of the loop catches).

mod cursor;
mod graph;

#[cfg(test)]
mod tests;

pub use cursor::{LoopCursor, LoopStep};
pub use graph::{Loop, LoopTable};
