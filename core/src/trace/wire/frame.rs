//! Frames: the units of the stream, and the definitions they carry.

use serde::{Deserialize, Serialize};

use super::event::Event;
use crate::ids::{ClassId, FieldId, MethodId, ThreadId, Timestamp};

/// The first frame: who is recording.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hello {
    pub pid: u64,
    /// Unix time in milliseconds when the agent started.
    pub start_ms: u64,
    pub vm: String,
    pub command: String,
    pub agent_version: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClassDef {
    pub id: ClassId,
    /// Dotted name (`pkg.Outer$Inner`, `int[]`).
    pub name: String,
    /// The `SourceFile` attribute, empty when unknown.
    pub source_file: String,
    /// Bit 0 instrumented, 1 interface, 2 enum, 3 record.
    pub flags: u8,
}

impl ClassDef {
    pub fn is_instrumented(&self) -> bool {
        self.flags & 1 != 0
    }

    /// An enum class, or the class of an enum constant's body.
    pub fn is_enum(&self) -> bool {
        self.flags & 4 != 0
    }
}

/// A local variable of a method; its position in `MethodDef::vars` is its var id.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VarDef {
    pub slot: u32,
    pub name: String,
    pub descriptor: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MethodDef {
    pub id: MethodId,
    pub class: ClassId,
    pub name: String,
    pub descriptor: String,
    /// JVM access flags.
    pub access: u32,
    /// Bit 0: instrumented (an application method).
    pub flags: u8,
    /// First 16 bytes of SHA-256 over the normalised bytecode (zero when not instrumented).
    pub hash: [u8; 16],
    /// 0 when unknown.
    pub first_line: u32,
    pub last_line: u32,
    pub vars: Vec<VarDef>,
    /// The basic blocks of the bytecode (version 2), empty for uninstrumented methods.
    #[serde(default)]
    pub blocks: Vec<BlockDef>,
}

/// A basic block of a method: where it starts and the variable effects of its instructions,
/// in instruction order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlockDef {
    /// Index of its first instruction in the original method.
    pub start: u32,
    /// The source line it starts on, 0 when none.
    pub line: u32,
    pub effects: Vec<Effect>,
    /// Its successors in the control flow graph (block indices: jump and switch targets, the
    /// next block, the handlers of the try ranges it overlaps); empty before wire format 3 and
    /// in the store's `methods.blocks`.
    #[serde(default)]
    pub succ: Vec<u32>,
}

/// What an instruction does to a variable; `target` is a var id for locals, a field id for
/// fields and statics, 0 for array elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Effect {
    pub kind: EffectKind,
    pub target: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EffectKind {
    LocalWrite = 0,
    LocalRead = 1,
    FieldWrite = 2,
    FieldRead = 3,
    ArrayWrite = 4,
    ArrayRead = 5,
    StaticWrite = 6,
    StaticRead = 7,
}

impl EffectKind {
    pub fn from_byte(b: u8) -> Option<EffectKind> {
        use EffectKind::*;
        [
            LocalWrite,
            LocalRead,
            FieldWrite,
            FieldRead,
            ArrayWrite,
            ArrayRead,
            StaticWrite,
            StaticRead,
        ]
        .get(usize::from(b))
        .copied()
    }

    /// Writes define a variable; reads use it.
    pub fn is_write(self) -> bool {
        matches!(
            self,
            EffectKind::LocalWrite
                | EffectKind::FieldWrite
                | EffectKind::ArrayWrite
                | EffectKind::StaticWrite
        )
    }
}

/// JVM access flag `ACC_STATIC`.
pub const ACC_STATIC: u32 = 0x0008;

impl MethodDef {
    pub fn is_instrumented(&self) -> bool {
        self.flags & 1 != 0
    }

    pub fn is_static(&self) -> bool {
        self.access & ACC_STATIC != 0
    }

    pub fn is_constructor(&self) -> bool {
        self.name == "<init>"
    }

    /// The var id that the `i`-th value of a `CALL` of this method sets: arguments come first
    /// in the var list, `this` included, except a constructor's `this`, which `THIS` sets.
    pub fn arg_var(&self, i: usize) -> u32 {
        let shift = usize::from(self.is_constructor() && !self.is_static());
        (i + shift) as u32
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FieldDef {
    pub id: FieldId,
    /// The owner class named by the bytecode.
    pub class: ClassId,
    pub name: String,
    pub descriptor: String,
    /// Bit 0: static.
    pub flags: u8,
}

impl FieldDef {
    pub fn is_static(&self) -> bool {
        self.flags & 1 != 0
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ThreadDef {
    pub id: ThreadId,
    /// `Thread.getId()` in the debuggee.
    pub java_id: u64,
    pub name: String,
}

/// One decoded frame.
#[derive(Clone, Debug, PartialEq)]
pub enum Frame {
    Hello(Hello),
    Class(ClassDef),
    Method(MethodDef),
    Field(FieldDef),
    Thread(ThreadDef),
    /// Events of one thread in timestamp order (`base_ts` is already applied).
    Events {
        thread: ThreadId,
        base_ts: Timestamp,
        events: Vec<Event>,
    },
    End {
        exit_status: i64,
    },
    Warning {
        message: String,
    },
}

pub mod frame_type {
    pub const HELLO: u8 = 0x01;
    pub const CLASS: u8 = 0x02;
    pub const METHOD: u8 = 0x03;
    pub const FIELD: u8 = 0x04;
    pub const THREAD: u8 = 0x05;
    pub const EVENTS: u8 = 0x06;
    pub const END: u8 = 0x07;
    pub const WARNING: u8 = 0x08;
}

/// The name docs/wire-format.md gives a frame type, `None` for an unknown type.
pub fn frame_name(t: u8) -> Option<&'static str> {
    const NAMES: [&str; 8] = [
        "HELLO", "CLASS", "METHOD", "FIELD", "THREAD", "EVENTS", "END", "WARNING",
    ];
    NAMES.get(usize::from(t).wrapping_sub(1)).copied()
}

impl Frame {
    pub fn frame_type(&self) -> u8 {
        match self {
            Frame::Hello(_) => frame_type::HELLO,
            Frame::Class(_) => frame_type::CLASS,
            Frame::Method(_) => frame_type::METHOD,
            Frame::Field(_) => frame_type::FIELD,
            Frame::Thread(_) => frame_type::THREAD,
            Frame::Events { .. } => frame_type::EVENTS,
            Frame::End { .. } => frame_type::END,
            Frame::Warning { .. } => frame_type::WARNING,
        }
    }
}
