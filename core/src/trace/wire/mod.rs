//! The wire format of docs/wire-format.md: a streaming decoder and an encoder.

mod bytes;
mod decoder;
mod encoder;
mod error;
mod event;
mod fast;
mod frame;
mod framing;
mod value;

#[cfg(test)]
mod java_tables;
#[cfg(test)]
pub(crate) mod tests;

/// A seeded PRNG for tests in other modules.
#[cfg(test)]
pub(crate) fn tests_rng(seed: u64) -> tests::Rng {
    tests::Rng::new(seed)
}

pub use bytes::{put_str, put_svarint, put_varint, ByteReader, ParseError, ParseResult};
pub use decoder::{
    read_blocks, read_successors, Decoder, MAGIC, MAX_FRAME_LEN, OLDEST_VERSION, VERSION,
};
pub use encoder::{put_blocks, put_successors, Encoder};
pub use error::WireError;
pub use event::{
    op, op_name, put_event, put_event_ext, put_operands, read_event, read_event_ext, ContentKind,
    Event, EventKind, Origin, VarId, DTS_ONE,
};
pub use fast::WireEvents;
pub use frame::{
    frame_name, frame_type, BlockDef, ClassDef, Effect, EffectKind, FieldDef, Frame, Hello,
    MethodDef, ThreadDef, VarDef, ACC_STATIC,
};
#[cfg(test)]
pub(crate) use framing::frame_ends;
pub use framing::FrameEnds;
pub use value::{put_value, read_value, Primitive, Value};
