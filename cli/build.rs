//! Embeds the replayer's Java sources (`java/hindsight/replay/`), which `hindsight bench
//! strategies` compiles next to each correct program (docs/replay-protocol.md), and the
//! mutant generator's (`java/hindsight/mutate/`), which `hindsight bench library` compiles.

use std::env;
use std::fmt::Write;
use std::fs;
use std::path::PathBuf;

fn main() {
    embed("replay", "REPLAYER_SOURCES", "replayer_sources.rs");
    embed("mutate", "MUTATOR_SOURCES", "mutator_sources.rs");
}

/// Writes `OUT_DIR/file`: the constant `name` listing the `.java` files of
/// `java/hindsight/package` as (file name, text).
fn embed(package: &str, name: &str, file: &str) {
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let dir = manifest.join("java/hindsight").join(package);
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut names: Vec<String> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".java"))
        .collect();
    names.sort();
    assert!(!names.is_empty(), "no .java file in {}", dir.display());
    let mut out = format!("/// The sources of `hindsight.{package}`: (file name, text).\npub const {name}: &[(&str, &str)] = &[\n");
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
    let target = PathBuf::from(env::var("OUT_DIR").expect("cargo sets it")).join(file);
    fs::write(&target, out).unwrap_or_else(|e| panic!("writing {}: {e}", target.display()));
}
