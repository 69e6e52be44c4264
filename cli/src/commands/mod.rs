//! One module per command: its arguments (clap) and its run function.

pub mod bench;
pub mod debug;
pub mod events;
pub mod history;
pub mod info;
pub mod node;
pub mod origin;
pub mod record;
pub mod tree;
