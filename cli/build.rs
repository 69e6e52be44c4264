//! Embeds the replayer's Java sources (`java/hindsight/replay/`), which `hindsight bench
//! strategies` compiles next to each correct program (docs/replay-protocol.md).

use std::env;
use std::fmt::Write;
use std::fs;
use std::path::PathBuf;

fn main() {
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let dir = manifest.join("java/hindsight/replay");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut names: Vec<String> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".java"))
        .collect();
    names.sort();
    assert!(!names.is_empty(), "no .java file in {}", dir.display());
    let mut out = String::from("/// The replayer's sources: (file name, text).\npub const REPLAYER_SOURCES: &[(&str, &str)] = &[\n");
    for n in &names {
        let path = dir.join(n);
        println!("cargo:rerun-if-changed={}", path.display());
        let _ = writeln!(
            out,
            "    ({n:?}, include_str!({:?})),",
            path.display().to_string()
        );
    }
    out.push_str("];\n");
    let target =
        PathBuf::from(env::var("OUT_DIR").expect("cargo sets it")).join("replayer_sources.rs");
    fs::write(&target, out).unwrap_or_else(|e| panic!("writing {}: {e}", target.display()));
}
