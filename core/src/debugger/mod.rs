//! The debugger as the front ends use it: a trace, its execution tree, a session with a
//! strategy, questions rendered for people, and results with the buggy code's lines.

pub mod names;
