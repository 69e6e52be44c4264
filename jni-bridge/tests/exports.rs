//! The Java `native` declarations of `NativeSession` and the library's exports must not drift
//! apart: the header `javac -h` writes for NativeSession.java names exactly the
//! `Java_hindsight_eclipse_core_NativeSession_*` symbols the cdylib exports.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

const PREFIX: &str = "Java_hindsight_eclipse_core_NativeSession_";

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// The cdylib of this crate's current source: cargo builds only the rlib for integration
/// tests, so the test builds the cdylib itself (`target/debug/libhindsight_jni.so`).
fn library() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let target = exe.ancestors().nth(3).unwrap();
    let status = Command::new(env!("CARGO"))
        .args(["build", "-p", "hindsight-jni", "--lib", "--target-dir"])
        .arg(target)
        .current_dir(workspace())
        .status()
        .expect("running cargo build for the cdylib");
    assert!(status.success(), "cargo build -p hindsight-jni failed");
    let lib = target.join("debug/libhindsight_jni.so");
    assert!(
        lib.is_file(),
        "{} is missing after cargo build",
        lib.display()
    );
    lib
}

fn declared() -> BTreeSet<String> {
    let out = tempfile::tempdir().unwrap();
    let core = workspace().join("eclipse-plugin/src/hindsight/eclipse/core");
    let sources: Vec<PathBuf> = std::fs::read_dir(&core)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "java"))
        .collect();
    let status = Command::new("javac")
        .arg("-h")
        .arg(out.path())
        .arg("-d")
        .arg(out.path().join("classes"))
        .args(&sources)
        .status()
        .expect("running javac (JDK 17) to generate the JNI header");
    assert!(status.success(), "javac -h failed on {}", core.display());
    let header =
        std::fs::read_to_string(out.path().join("hindsight_eclipse_core_NativeSession.h")).unwrap();
    header
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| w.starts_with(PREFIX))
        .map(str::to_string)
        .collect()
}

fn exported() -> BTreeSet<String> {
    let out = Command::new("nm")
        .args(["-D", "--defined-only"])
        .arg(library())
        .output()
        .expect("running nm (binutils)");
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter_map(|l| l.split_whitespace().last())
        .filter(|s| s.starts_with(PREFIX))
        .map(str::to_string)
        .collect()
}

#[test]
fn native_declarations_match_the_exports() {
    let declared = declared();
    let exported = exported();
    assert!(
        !declared.is_empty(),
        "the header declares no native method of NativeSession"
    );
    let missing: Vec<_> = declared.difference(&exported).collect();
    let extra: Vec<_> = exported.difference(&declared).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "declared in NativeSession.java but not exported: {missing:?}; exported but not declared: {extra:?}"
    );
}
