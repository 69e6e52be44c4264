//! One module per command: its arguments (clap) and its run function.

pub mod bench;
pub mod debug;
pub mod diff;
pub mod events;
pub mod export;
pub mod history;
pub mod info;
pub mod node;
pub mod origin;
pub mod prolog;
pub mod query;
pub mod record;
pub mod sql;
pub mod tree;
