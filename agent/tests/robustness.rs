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

/// The complete frames at the start of a stream that is still being written.
fn complete_prefix(bytes: &[u8]) -> &[u8] {
    let mut p = 8;
    while p + 4 <= bytes.len() {
        let len = u32::from_le_bytes(bytes[p..p + 4].try_into().expect("4 bytes")) as usize;
        if p + 4 + len > bytes.len() {
            break;
        }
        p += 4 + len;
    }
    &bytes[..p.min(bytes.len())]
}

#[test]
fn a_running_thread_sends_its_completed_calls_before_it_returns() {
    use std::io::Read;
    use std::os::unix::net::UnixListener;
    let dir = tempfile::tempdir().expect("temp dir");
    javac(
        &[repo_root().join("tests/java17/LiveFlush.java")],
        None,
        dir.path(),
    );
    let socket = dir.path().join("rec.sock");
    let go = dir.path().join("go");
    let listener = UnixListener::bind(&socket).expect("bind");
    let child = std::process::Command::new("java")
        .arg(format!(
            "-javaagent:{}=socket={}",
            common::AGENT_JAR,
            socket.display()
        ))
        .args(["-cp", dir.path().to_str().expect("utf-8"), "LiveFlush"])
        .arg(&go)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("java starts");
    let (mut conn, _) = listener.accept().expect("accept");
    let mut bytes = Vec::new();
    let mut chunk = [0u8; 1 << 16];
    // main is still running (its loop waits for `go`), so first()'s events can only have been
    // sent by the flush the flusher thread requests; the program's own guard ends the wait.
    loop {
        let n = conn.read(&mut chunk).expect("read");
        assert!(n > 0, "the stream ended before first() was seen");
        bytes.extend_from_slice(&chunk[..n]);
        let t = decode(complete_prefix(&bytes)).expect("well formed prefix");
        if t.lines().iter().any(|l| l.contains("RETURN 42")) {
            assert!(t.end.is_none());
            break;
        }
    }
    fs::write(&go, b"").expect("create go");
    conn.read_to_end(&mut bytes).expect("read rest");
    let out = child.wait_with_output().expect("java ends");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "42\nreleased\n");
    let t = decode(&bytes).expect("well formed");
    assert_eq!(t.end, Some(0));
}

#[test]
fn a_thread_blocked_in_the_jdk_sends_its_completed_calls() {
    use std::io::{Read, Write};
    use std::os::unix::net::UnixListener;
    let dir = tempfile::tempdir().expect("temp dir");
    javac(
        &[repo_root().join("tests/java17/LiveBlocked.java")],
        None,
        dir.path(),
    );
    let socket = dir.path().join("rec.sock");
    let listener = UnixListener::bind(&socket).expect("bind");
    let mut child = std::process::Command::new("java")
        .arg(format!(
            "-javaagent:{}=socket={}",
            common::AGENT_JAR,
            socket.display()
        ))
        .args(["-cp", dir.path().to_str().expect("utf-8"), "LiveBlocked"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("java starts");
    let stdin = std::sync::Arc::new(std::sync::Mutex::new(child.stdin.take()));
    // A guard against a hang, not a speed limit: if first()'s events never come while main is
    // blocked, release the program after a minute; its END then fails the assertion below.
    let guard_stdin = stdin.clone();
    std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_secs(60));
        if let Some(mut s) = guard_stdin.lock().expect("lock").take() {
            let _ = s.write_all(b"g");
        }
    });
    let (mut conn, _) = listener.accept().expect("accept");
    let mut bytes = Vec::new();
    let mut chunk = [0u8; 1 << 16];
    loop {
        let n = conn.read(&mut chunk).expect("read");
        assert!(n > 0, "the stream ended before first() was seen");
        bytes.extend_from_slice(&chunk[..n]);
        let t = decode(complete_prefix(&bytes)).expect("well formed prefix");
        // A flush may come between first()'s return and the blocking read: read on until the
        // stream stops at the read (the guard above releases the program if it never does).
        let blocked = t
            .lines()
            .last()
            .is_some_and(|l| l.contains("EXT_CALL java.io.InputStream.read("));
        if t.lines().iter().any(|l| l.contains("RETURN 42")) && (blocked || t.end.is_some()) {
            assert!(t.end.is_none(), "first() was only sent at exit");
            break;
        }
    }
    if let Some(mut s) = stdin.lock().expect("lock").take() {
        s.write_all(b"x").expect("write stdin");
    }
    conn.read_to_end(&mut bytes).expect("read rest");
    let out = child.wait_with_output().expect("java ends");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "42\nread x\n",
        "if the guard released the program, first()'s events were not sent while main was blocked"
    );
    let t = decode(&bytes).expect("well formed");
    assert_eq!(t.end, Some(0));
    assert_eq!(t.open_calls().values().sum::<i64>(), 0);
}
