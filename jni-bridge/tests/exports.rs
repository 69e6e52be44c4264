//! The Java `native` declarations of `NativeSession` and the library's exports must not drift
//! apart: the header `javac -h` writes for NativeSession.java names exactly the
//! `Java_hindsight_eclipse_core_NativeSession_*` symbols the cdylib exports, and each with the
//! same return and argument types as the export's `extern "system" fn` in `src/lib.rs` (the
//! symbol alone does not say them: an argument added on one side only would crash at run time).

use std::collections::{BTreeMap, BTreeSet};
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

/// The header `javac -h` writes for NativeSession.java. Only NativeSession.java is named: javac
/// takes the classes it uses from the source path, and the package's other classes (which use
/// the Eclipse platform, not on this classpath) are left out.
fn header() -> String {
    let out = tempfile::tempdir().unwrap();
    let src = workspace().join("eclipse-plugin/src");
    let core = src.join("hindsight/eclipse/core");
    let status = Command::new("javac")
        .arg("-h")
        .arg(out.path())
        .arg("-d")
        .arg(out.path().join("classes"))
        .arg("-sourcepath")
        .arg(&src)
        .arg(core.join("NativeSession.java"))
        .status()
        .expect("running javac (JDK 17) to generate the JNI header");
    assert!(status.success(), "javac -h failed on {}", core.display());
    std::fs::read_to_string(out.path().join("hindsight_eclipse_core_NativeSession.h")).unwrap()
}

fn declared() -> BTreeSet<String> {
    header()
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

/// A native method's C types: the return type, then the arguments after `JNIEnv *, jclass`.
type Signature = (String, Vec<String>);

/// The prototypes of the header: `JNIEXPORT jstring JNICALL NAME (JNIEnv *, jclass, jlong);`.
fn header_signatures(header: &str) -> BTreeMap<String, Signature> {
    let mut out = BTreeMap::new();
    for decl in header.split("JNIEXPORT").skip(1) {
        let (ret, rest) = decl.split_once("JNICALL").expect("JNICALL in a prototype");
        let (name, args) = rest.split_once('(').expect("arguments of a prototype");
        let args = args.split_once(')').expect("closing parenthesis").0;
        let args: Vec<String> = args
            .split(',')
            .skip(2)
            .map(|a| a.trim().to_string())
            .collect();
        out.insert(name.trim().to_string(), (ret.trim().to_string(), args));
    }
    out
}

/// The same from the exports' Rust source: `JString<'l>` is a `jstring`, `JObjectArray<'l>` a
/// `jobjectArray`, the `j*` primitives are themselves; no return type is `void`.
fn rust_signatures(source: &str) -> BTreeMap<String, Signature> {
    let c_type = |rust: &str| -> String {
        let t = rust.split('<').next().unwrap().trim();
        match t {
            "JString" => "jstring".into(),
            "JObjectArray" => "jobjectArray".into(),
            "JObject" => "jobject".into(),
            other => other.to_string(),
        }
    };
    let mut out = BTreeMap::new();
    for export in source.split("pub extern \"system\" fn ").skip(1) {
        let name = export.split(['<', '(']).next().unwrap().trim().to_string();
        let open = export.find('(').expect("arguments of an export");
        let close = open + export[open..].find(')').expect("closing parenthesis");
        let args: Vec<String> = export[open + 1..close]
            .split(',')
            .filter(|a| !a.trim().is_empty())
            .skip(2)
            .map(|a| c_type(a.split_once(':').expect("name: type").1))
            .collect();
        let after = export[close + 1..].split('{').next().unwrap().trim();
        let ret = after.strip_prefix("->").map_or("void".into(), c_type);
        out.insert(name, (ret, args));
    }
    out
}

#[test]
fn native_declarations_have_the_exports_types() {
    let declared = header_signatures(&header());
    let source = std::fs::read_to_string(workspace().join("jni-bridge/src/lib.rs")).unwrap();
    let exported = rust_signatures(&source);
    assert!(
        declared.len() > 10,
        "prototypes read from the header: {declared:?}"
    );
    assert_eq!(
        declared.keys().collect::<Vec<_>>(),
        exported.keys().collect::<Vec<_>>(),
        "the same natives on both sides"
    );
    for (name, signature) in &declared {
        assert_eq!(
            Some(signature),
            exported.get(name),
            "{name}: (return, arguments) in NativeSession.java's header, then in src/lib.rs"
        );
    }
}
