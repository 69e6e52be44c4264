//! Helpers shared by the end-to-end tests: the repository's paths, compiling Java programs,
//! running the `hindsight` binary.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The repository root.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// Compiles every `.java` file under `src` into `out` with line and variable tables.
pub fn javac(src: &Path, out: &Path) {
    let mut files = Vec::new();
    collect_java(src, &mut files);
    assert!(!files.is_empty(), "no Java sources under {}", src.display());
    let status = Command::new("javac")
        .args(["--release", "17", "-g", "-encoding", "UTF-8", "-d"])
        .arg(out)
        .args(&files)
        .status()
        .expect("running javac (install a JDK 17)");
    assert!(status.success(), "javac failed on {}", src.display());
}

/// Compiles a mutant of the package `package` under `src` into `out`: its sources with the
/// first `from` in the file `file` replaced by `to` (which must be there), copied to `scratch`.
pub fn javac_mutant(
    src: &Path,
    package: &str,
    (file, from, to): (&str, &str, &str),
    scratch: &Path,
    out: &Path,
) {
    let copy = scratch.join(package);
    std::fs::create_dir_all(&copy).unwrap();
    for entry in std::fs::read_dir(src.join(package)).unwrap() {
        let path = entry.unwrap().path();
        let mut text = std::fs::read_to_string(&path).unwrap();
        if path.ends_with(file) {
            assert!(text.contains(from), "{from} not in {}", path.display());
            text = text.replacen(from, to, 1);
        }
        std::fs::write(copy.join(path.file_name().unwrap()), text).unwrap();
    }
    javac(scratch, out);
}

fn collect_java(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            collect_java(&path, files);
        } else if path.extension().is_some_and(|e| e == "java") {
            files.push(path);
        }
    }
}

/// Runs `hindsight ARGS`.
pub fn hindsight(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hindsight"))
        .args(args)
        .output()
        .expect("running hindsight")
}

/// Runs `hindsight ARGS` and parses its stdout as JSON, failing with its stderr.
pub fn hindsight_json(args: &[&str]) -> serde_json::Value {
    let out = hindsight(args);
    assert!(
        out.status.success(),
        "hindsight {args:?} failed ({}):\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "hindsight {args:?} printed no JSON ({e}):\n{}",
            String::from_utf8_lossy(&out.stdout)
        )
    })
}

/// Records `java -cp classes main` into `trace`. The program's exit status (which `record`
/// passes through) may be anything: a buggy program may well end with an exception.
pub fn record(classes: &Path, main: &str, trace: &Path) -> serde_json::Value {
    let args = [
        "record",
        "--json",
        "-o",
        trace.to_str().unwrap(),
        "--",
        "java",
        "-cp",
        classes.to_str().unwrap(),
        main,
    ];
    let out = hindsight(&args);
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "hindsight {args:?} printed no JSON ({e}, {}):\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        )
    })
}
