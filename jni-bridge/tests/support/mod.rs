//! What the bridge's Java-running tests share: compiling a program with `javac -g`, the agent's
//! jar beside it, and a JVM started with the agent on a live session's socket, as the plugin's
//! launch starts it.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Compiles `sources` into `dir` with debug information (variable names for the Node view).
pub fn javac(dir: &Path, sources: &[PathBuf]) {
    let status = Command::new("javac")
        .arg("-g")
        .arg("-d")
        .arg(dir)
        .args(sources)
        .status()
        .expect("running javac (JDK 17)");
    assert!(status.success(), "javac {sources:?}");
}

/// Writes the agent's jar into `dir`.
pub fn agent_jar(dir: &Path) -> PathBuf {
    let jar = dir.join("hindsight-agent.jar");
    std::fs::write(&jar, hindsight_agent::AGENT_JAR).unwrap();
    jar
}

/// `java -javaagent:JAR=socket=SOCKET -cp CLASSPATH MAIN`, to be run or spawned.
pub fn java_with_agent(jar: &Path, socket: &Path, classpath: &Path, main: &str) -> Command {
    let mut java = Command::new("java");
    java.arg(format!(
        "-javaagent:{}=socket={}",
        jar.display(),
        socket.display()
    ))
    .arg("-cp")
    .arg(classpath)
    .arg(main);
    java
}
