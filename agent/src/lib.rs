//! Hindsight's Java agent, `hindsight-agent.jar`.
//!
//! `build.rs` compiles the Java sources in `src/main/java/` with `javac --release 17` and
//! assembles the jar (ASM from Debian's `libasm-java`, nested and loaded by a class loader of its
//! own). The command line writes [`AGENT_JAR`] to a cache file and passes
//! `-javaagent:PATH=socket=...` itself. The agent's behaviour and options are described in
//! `agent/README.md`; the stream it writes in `docs/wire-format.md`.

/// The bytes of `hindsight-agent.jar`.
pub const AGENT_JAR: &[u8] = include_bytes!(env!("HINDSIGHT_AGENT_JAR_PATH"));

/// JVM options that go with the agent: the JIT keeps every method declared in
/// `hindsight.runtime.Buf` -- the entry points of instrumented code -- out of line, so that an
/// instrumented method compiles to calls instead of a copy of the encoder per event (a third of
/// the recorded program's time on the workloads, docs/benchmarks.md). `quiet` keeps HotSpot from
/// printing the command on the program's stdout. The Eclipse launcher passes the same options
/// (`HindsightModeDelegate.JIT_OPTIONS`).
pub const JIT_OPTIONS: &[&str] = &[
    "-XX:CompileCommand=quiet",
    "-XX:CompileCommand=dontinline,hindsight.runtime.Buf::*",
];

/// The agent's version, as sent in the stream's `HELLO` frame.
pub const AGENT_VERSION: &str = env!("CARGO_PKG_VERSION");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jar_is_a_zip_with_the_premain_manifest() {
        assert_eq!(&AGENT_JAR[..4], b"PK\x03\x04");
        let needle = b"hindsight/agent/Premain.class";
        assert!(AGENT_JAR.windows(needle.len()).any(|w| w == needle));
    }

    #[test]
    fn the_eclipse_launcher_passes_the_same_jit_options() {
        let delegate = include_str!(
            "../../eclipse-plugin/src/hindsight/eclipse/launch/HindsightModeDelegate.java"
        );
        for option in JIT_OPTIONS {
            assert!(
                delegate.contains(&format!("\"{option}\"")),
                "HindsightModeDelegate.java lacks {option}"
            );
        }
    }
}
