//! Feeds arbitrary bytes to the wire decoder: it must return frames or an error, never panic
//! or loop; every frame it accepts must survive an encode/decode round trip.
//!
//! Run (nightly): `cd core/fuzz && cargo +nightly fuzz run decode`

#![no_main]

use hindsight_core::trace::wire::{Decoder, Encoder, Frame};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(decoder) = Decoder::new(data) else { return };
    let mut frames: Vec<Frame> = Vec::new();
    for frame in decoder {
        match frame {
            Ok(f) => frames.push(f),
            Err(_) => break,
        }
    }
    let mut enc = Encoder::new(Vec::new()).expect("writing to a Vec");
    for f in &frames {
        enc.frame(f).expect("writing to a Vec");
    }
    let bytes = enc.into_inner();
    let again: Vec<Frame> = Decoder::new(&bytes[..]).expect("own header").map_while(Result::ok).collect();
    assert_eq!(again, frames);
});
