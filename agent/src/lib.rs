//! Hindsight's Java agent, `hindsight-agent.jar`.
//!
//! `build.rs` compiles the Java sources in `src/main/java/` with `javac --release 17` and
//! assembles the jar (ASM from Debian's `libasm-java`, nested and loaded by a class loader of its
//! own). The command line writes [`AGENT_JAR`] to a cache file and passes
//! `-javaagent:PATH=socket=...` itself. The agent's behaviour and options are described in
//! `agent/README.md`; the stream it writes in `docs/wire-format.md`.

/// The bytes of `hindsight-agent.jar`.
pub const AGENT_JAR: &[u8] = include_bytes!(env!("HINDSIGHT_AGENT_JAR_PATH"));

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
}
