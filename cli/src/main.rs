//! `hindsight`: record a Java run and find its bug. Argument parsing and printing only; every
//! decision is made by `hindsight-core`.

mod agent_jar;
mod commands;
mod launch;
mod mutator;
mod output;
mod progress;
mod replayer;
mod source;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Record a run of a Java program, then find the bug in it by answering questions.
#[derive(Parser)]
#[command(name = "hindsight", version, about, long_about = None, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Record(commands::record::Args),
    Debug(commands::debug::Args),
    Tree(commands::tree::Args),
    Info(commands::info::Args),
    Node(commands::node::Args),
    Events(commands::events::Args),
    History(commands::history::Args),
    Origin(commands::origin::Args),
    Bench(commands::bench::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Record(args) => commands::record::run(args),
        Command::Debug(args) => commands::debug::run(args),
        Command::Tree(args) => commands::tree::run(args),
        Command::Info(args) => commands::info::run(args),
        Command::Node(args) => commands::node::run(args),
        Command::Events(args) => commands::events::run(args),
        Command::History(args) => commands::history::run(args),
        Command::Origin(args) => commands::origin::run(args),
        Command::Bench(args) => commands::bench::run(args),
    };
    match result {
        Ok(status) => ExitCode::from(status),
        Err(err) => {
            eprintln!("hindsight: {err:#}");
            let status = err
                .downcast_ref::<launch::LaunchError>()
                .map_or(launch::exit::FAILURE, |e| e.status);
            ExitCode::from(status as u8)
        }
    }
}
