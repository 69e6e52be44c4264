//! One module per command: its arguments (clap) and its run function.


pub mod bench;
pub mod debug;
pub mod info;
pub mod record;
pub mod tree;
