//! `cargo xtask`: build tasks around the Eclipse plugin (see xtask/README.md).

mod bundles;
mod jar;
mod manifest;
mod p2;
mod packages;
mod paths;
mod platform;
mod process;
mod timestamp;

use anyhow::Result;
use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "cargo xtask",
    about = "Build tasks for Hindsight's Eclipse plugin"
)]
struct Cli {
    #[command(subcommand)]
    task: Task,
}

#[derive(Subcommand)]
enum Task {
    /// Print the Debian packages the Eclipse tasks need, one per line
    EclipseDeps,
    /// Assemble an Eclipse 4.26 platform from Debian's packages into target/eclipse/platform
    EclipsePlatform,
}

fn main() {
    let cli = Cli::parse();
    if let Err(e) = run(cli) {
        eprintln!("error: {e:#}");
        std::process::exit(1);
    }
}

fn run(cli: Cli) -> Result<()> {
    let layout = paths::Layout::from_env();
    match cli.task {
        Task::EclipseDeps => {
            for p in packages::list() {
                println!("{p}");
            }
        }
        Task::EclipsePlatform => {
            platform::ensure(&layout)?;
        }
    }
    Ok(())
}
