//! Prints a wire-format stream as one text line per event (with the test-only reader of
//! `tests/common`): `cargo run -p hindsight-agent --example hsw_dump -- FILE.hsw`.

#[path = "../tests/common/mod.rs"]
mod common;

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: hsw_dump FILE.hsw");
        std::process::exit(2);
    };
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("error: cannot read {path}: {e}");
            std::process::exit(1);
        }
    };
    match common::decode(&bytes) {
        Ok(t) => {
            for l in t.lines() {
                println!("{l}");
            }
            for w in &t.warnings {
                println!("WARNING {w}");
            }
            println!("END {:?}", t.end);
        }
        Err(e) => {
            eprintln!("error: {path}: malformed stream: {e}");
            std::process::exit(1);
        }
    }
}
