//! What can be wrong with a wire stream.

/// An error of the wire decoder. Offsets count bytes from the start of the stream.
#[derive(Debug, thiserror::Error)]
pub enum WireError {
    #[error("not a Hindsight wire stream: it starts with {found:?} instead of \"HSWIRE\"; is the agent writing to this socket or file?")]
    BadMagic { found: String },
    #[error("wire format version {found} is not supported (this Hindsight reads versions 2 to {supported}); use the agent jar that comes with this hindsight binary")]
    UnsupportedVersion { found: u16, supported: u16 },
    #[error(
        "malformed {frame} frame at byte {frame_offset} (problem at byte {offset}): {problem}"
    )]
    Malformed {
        /// Where the frame starts (its length field).
        frame_offset: u64,
        /// Where the problem is.
        offset: u64,
        /// The frame's type name, or `type 0x..` when unknown.
        frame: String,
        problem: String,
    },
    #[error("stream truncated at byte {offset}: {detail}; everything before is usable")]
    Truncated { offset: u64, detail: String },
    #[error("reading the stream failed at byte {offset}: {source}")]
    Io {
        offset: u64,
        #[source]
        source: std::io::Error,
    },
}

impl WireError {
    /// The stream stopped early (no `END` frame, or a frame cut in the middle): the frames
    /// decoded before are valid, the run was likely killed.
    pub fn is_truncation(&self) -> bool {
        matches!(self, WireError::Truncated { .. })
    }
}
