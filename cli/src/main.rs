//! `hindsight`: record a Java run and find its bug. Argument parsing and printing only; every
//! decision is made by `hindsight-core`.

mod agent_jar;
mod commands;
mod launch;
mod mutator;
mod output;
mod progress;
mod replayer;
mod scan_progress;
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
    Query(commands::query::Args),
    Sql(commands::sql::Args),
    Export(commands::export::Args),
    Prolog(commands::prolog::Args),
    Diff(commands::diff::Args),
    Bench(commands::bench::Args),
}

fn main() -> ExitCode {
    quiet_when_stdout_closes();
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
        Command::Query(args) => commands::query::run(args),
        Command::Sql(args) => commands::sql::run(args),
        Command::Export(args) => commands::export::run(args),
        Command::Prolog(args) => commands::prolog::run(args),
        Command::Diff(args) => commands::diff::run(args),
        Command::Bench(args) => commands::bench::run(args),
    };
    match result {
        Ok(status) => ExitCode::from(status),
        Err(err) if output::is_stdout_closed(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("hindsight: {}", output::error_message(&err));
            let status = exit_status(&err);
            ExitCode::from(status as u8)
        }
    }
}

/// A reader that stops early (`hindsight events T N | head`) closes our stdout. Printing then
/// fails with a broken pipe: the command ends quietly with status 0, as `rg` does, instead of
/// `println!`'s panic (and `output::stdout`'s writers end the same way). Nothing is lost: only
/// commands that read a trace print a lot, and `record` prints once its trace is complete.
fn quiet_when_stdout_closes() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info.payload_as_str().unwrap_or("");
        if message.starts_with("failed printing to stdout") && message.contains("Broken pipe") {
            std::process::exit(0);
        }
        default(info);
    }));
}

/// The exit status of a failed command (docs/cli.md, "Exit statuses").
fn exit_status(err: &anyhow::Error) -> i32 {
    if let Some(e) = err.downcast_ref::<launch::LaunchError>() {
        return e.status;
    }
    if err
        .downcast_ref::<hindsight_core::query::QueryError>()
        .is_some_and(|e| e.is_usage())
    {
        return USAGE;
    }
    launch::exit::FAILURE
}

/// Bad input: an unknown query, malformed arguments, SQL that does not parse or writes.
const USAGE: i32 = 2;
