//! Where whole frames end in a stream that arrives in pieces, from the framing alone (the
//! header's 8 bytes, then frames of a little-endian `u32` length and that many bytes): the
//! spool knows from it how much of the program's stream a store could take in, without
//! decoding anything.

/// The header's length: the magic and the version.
const HEADER_LEN: u64 = 8;

/// Follows the framing of a stream as its pieces arrive.
#[derive(Debug)]
pub struct FrameEnds {
    /// Bytes taken so far.
    seen: u64,
    /// Where the frame being followed starts.
    next: u64,
    /// Its length's bytes gathered so far.
    len: [u8; 4],
    have: usize,
    /// The end of the last whole frame.
    whole: u64,
}

impl Default for FrameEnds {
    fn default() -> Self {
        FrameEnds {
            seen: 0,
            next: HEADER_LEN,
            len: [0; 4],
            have: 0,
            whole: 0,
        }
    }
}

impl FrameEnds {
    /// Takes the stream's next piece; returns the end of the last whole frame so far (0 before
    /// the first). A malformed length only stops the count: the decoder reports it.
    pub fn take(&mut self, piece: &[u8]) -> u64 {
        let start = self.seen;
        self.seen += piece.len() as u64;
        while self.next < self.seen {
            while self.have < 4 {
                let at = self.next + self.have as u64;
                if at >= self.seen {
                    return self.whole;
                }
                // Bytes before `start` were gathered from earlier pieces.
                self.len[self.have] = piece[(at - start) as usize];
                self.have += 1;
            }
            let end = self.next + 4 + u64::from(u32::from_le_bytes(self.len));
            if end > self.seen {
                break;
            }
            self.whole = end;
            self.next = end;
            self.have = 0;
        }
        self.whole
    }
}

/// Where each frame of a whole stream ends, by decoding it (for tests).
#[cfg(test)]
pub(crate) fn frame_ends(stream: &[u8]) -> Vec<u64> {
    let mut d = super::Decoder::new(stream).expect("a stream");
    let mut ends = Vec::new();
    while d.next_frame().expect("a well-formed stream").is_some() {
        ends.push(d.offset());
    }
    ends
}

#[cfg(test)]
mod tests {
    use super::{frame_ends, FrameEnds};
    use crate::trace::synthetic::calls_stream;

    /// A stream of a few frames of different sizes, and where each frame ends (the decoder's
    /// offset after it).
    fn stream() -> (Vec<u8>, Vec<u64>) {
        let bytes = calls_stream(40, 7, true);
        let ends = frame_ends(&bytes);
        (bytes, ends)
    }

    #[test]
    fn follows_the_frames_whatever_the_pieces() {
        let (bytes, ends) = stream();
        assert!(ends.len() > 10, "{} frames", ends.len());
        assert_eq!(*ends.last().unwrap(), bytes.len() as u64);
        for piece in [1, 3, 4, 5, 7, 64, 1000, bytes.len()] {
            let mut f = FrameEnds::default();
            let mut seen = 0;
            for chunk in bytes.chunks(piece) {
                seen += chunk.len() as u64;
                let expected = ends.iter().copied().filter(|&e| e <= seen).max();
                assert_eq!(
                    f.take(chunk),
                    expected.unwrap_or(0),
                    "pieces of {piece}, {seen} bytes"
                );
            }
        }
    }

    #[test]
    fn a_frame_cut_short_is_not_whole() {
        let (bytes, ends) = stream();
        let mut f = FrameEnds::default();
        let cut = ends[4] as usize + 2;
        assert_eq!(f.take(&bytes[..cut]), ends[4]);
        assert_eq!(f.take(&[]), ends[4]);
        assert_eq!(f.take(&bytes[cut..ends[5] as usize]), ends[5]);
    }
}
