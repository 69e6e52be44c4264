//! The agent never breaks the program: its ASM is invisible to the program, and a recorder that
//! cannot be reached leaves the program running unrecorded with one clear message.

mod common;

use common::{decode, java, javac, repo_root};
use std::fs;

#[test]
fn a_program_with_its_own_asm_is_unaffected() {
    let dir = tempfile::tempdir().expect("temp dir");
    let src = repo_root().join("tests/java17/ownasm");
    let sources = vec![
        src.join("OwnAsm.java"),
        src.join("org/objectweb/asm/ClassReader.java"),
    ];
    javac(&sources, None, dir.path());
    let cp = dir.path().to_str().expect("utf-8 path");
    let plain = java(cp, "OwnAsm", None);
    let stream = dir.path().join("t.hsw");
    let recorded = java(cp, "OwnAsm", Some(&format!("file={}", stream.display())));
    let out = String::from_utf8_lossy(&recorded.stdout);
    assert_eq!(out, String::from_utf8_lossy(&plain.stdout));
    assert_eq!(
        out,
        "the program's own ASM\ntrue\nthe program's own ASM\nno ClassWriter\n"
    );
    assert!(
        recorded.status.success(),
        "{}",
        String::from_utf8_lossy(&recorded.stderr)
    );
    // The program's fake ASM class is application code and was instrumented like any other.
    let trace = decode(&fs::read(&stream).expect("stream")).expect("well formed");
    assert!(trace
        .lines()
        .iter()
        .any(|l| l.contains("CALL org.objectweb.asm.ClassReader.who()")));
}

fn run_unrecorded(options: &str, expected_message: &str) {
    let dir = tempfile::tempdir().expect("temp dir");
    javac(
        &[repo_root().join("tests/java17/Varargs.java")],
        None,
        dir.path(),
    );
    let cp = dir.path().to_str().expect("utf-8 path");
    let plain = java(cp, "Varargs", None);
    let recorded = java(cp, "Varargs", Some(options));
    assert_eq!(
        String::from_utf8_lossy(&recorded.stdout),
        String::from_utf8_lossy(&plain.stdout)
    );
    assert_eq!(recorded.status.code(), plain.status.code());
    let stderr = String::from_utf8_lossy(&recorded.stderr);
    assert!(stderr.contains(expected_message), "stderr: {stderr}");
    assert!(
        stderr.contains("the program runs without recording"),
        "stderr: {stderr}"
    );
    assert_eq!(
        stderr.matches("hindsight:").count(),
        1,
        "one message: {stderr}"
    );
}

#[test]
fn an_unwritable_trace_file_leaves_the_program_running() {
    run_unrecorded(
        "file=/nonexistent-dir/sub/t.hsw",
        "hindsight: cannot open trace file /nonexistent-dir/sub/t.hsw",
    );
}

#[test]
fn an_absent_recorder_socket_leaves_the_program_running() {
    let dir = tempfile::tempdir().expect("temp dir");
    let socket = dir.path().join("absent.sock");
    run_unrecorded(
        &format!("socket={}", socket.display()),
        &format!(
            "hindsight: cannot open recorder socket {}",
            socket.display()
        ),
    );
}

#[test]
fn unknown_options_are_reported() {
    run_unrecorded(
        "flie=/tmp/x.hsw",
        "hindsight: unknown agent option 'flie=/tmp/x.hsw'",
    );
}

#[test]
fn include_and_exclude_select_classes() {
    let dir = tempfile::tempdir().expect("temp dir");
    javac(
        &[repo_root().join("tests/java17/Constructors.java")],
        None,
        dir.path(),
    );
    let cp = dir.path().to_str().expect("utf-8 path");
    let stream = dir.path().join("t.hsw");
    let out = java(
        cp,
        "Constructors",
        Some(&format!(
            "file={},include=Constructors,exclude=Constructors$Base",
            stream.display()
        )),
    );
    assert!(out.status.success());
    let t = decode(&fs::read(&stream).expect("stream")).expect("well formed");
    let lines = t.lines();
    assert!(lines
        .iter()
        .any(|l| l.contains("CALL Constructors$Derived.<init>(7)")));
    // main's `new Base(null)` calls an excluded class: uninstrumented code.
    assert!(lines
        .iter()
        .any(|l| l.contains("EXT_CALL Constructors$Base.<init>(null)")));
    assert!(
        !lines
            .iter()
            .any(|l| l.contains("] CALL Constructors$Base.<init>")),
        "Base is excluded"
    );
}

#[test]
fn a_socket_receives_the_same_stream() {
    use std::io::Read;
    use std::os::unix::net::UnixListener;
    let dir = tempfile::tempdir().expect("temp dir");
    javac(
        &[repo_root().join("tests/java17/MergeSort.java")],
        None,
        dir.path(),
    );
    let socket = dir.path().join("rec.sock");
    let listener = UnixListener::bind(&socket).expect("bind");
    let reader = std::thread::spawn(move || {
        let (mut conn, _) = listener.accept().expect("accept");
        let mut bytes = Vec::new();
        conn.read_to_end(&mut bytes).expect("read");
        bytes
    });
    let cp = dir.path().to_str().expect("utf-8 path");
    let out = java(
        cp,
        "MergeSort",
        Some(&format!("socket={}", socket.display())),
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), "[1, 4, 9, 7]\n");
    let t = decode(&reader.join().expect("reader thread")).expect("well formed");
    assert_eq!(t.end, Some(0));
    assert_eq!(
        t.lines()
            .iter()
            .filter(|l| l.contains("CALL MergeSort.merge("))
            .count(),
        3
    );
}
