use super::*;
use crate::ids::{ClassId, FieldId, MethodId, ObjectId, StringId, ThreadId};

fn hello() -> Hello {
    Hello {
        pid: 42,
        start_ms: 1_700_000_000_000,
        vm: "OpenJDK 17".into(),
        command: "Main".into(),
        agent_version: "0.1".into(),
    }
}

fn sample_frames() -> Vec<Frame> {
    let ev = |ts, kind| Event { ts, kind };
    vec![
        Frame::Hello(hello()),
        Frame::Class(ClassDef {
            id: ClassId(1),
            name: "demo.Main".into(),
            source_file: "Main.java".into(),
            flags: 1,
        }),
        Frame::Method(MethodDef {
            id: MethodId(1),
            class: ClassId(1),
            name: "main".into(),
            descriptor: "([Ljava/lang/String;)V".into(),
            access: 9,
            flags: 1,
            hash: [7; 16],
            first_line: 3,
            last_line: 9,
            vars: vec![VarDef {
                slot: 0,
                name: "args".into(),
                descriptor: "[Ljava/lang/String;".into(),
            }],
            blocks: vec![
                BlockDef {
                    start: 0,
                    line: 3,
                    effects: vec![
                        Effect {
                            kind: EffectKind::LocalRead,
                            target: 0,
                        },
                        Effect {
                            kind: EffectKind::FieldWrite,
                            target: 1,
                        },
                    ],
                    succ: vec![1],
                },
                BlockDef {
                    start: 7,
                    line: 0,
                    effects: vec![Effect {
                        kind: EffectKind::StaticRead,
                        target: 1,
                    }],
                    succ: vec![0, 1],
                },
            ],
        }),
        Frame::Field(FieldDef {
            id: FieldId(1),
            class: ClassId(1),
            name: "count".into(),
            descriptor: "I".into(),
            flags: 1,
        }),
        Frame::Thread(ThreadDef {
            id: ThreadId(1),
            java_id: 1,
            name: "main".into(),
        }),
        Frame::Events {
            thread: ThreadId(1),
            base_ts: 5,
            events: vec![
                ev(
                    5,
                    EventKind::Call {
                        method: MethodId(1),
                        args: vec![Value::Object(ObjectId(1))],
                    },
                ),
                ev(
                    5,
                    EventKind::String {
                        string: StringId(1),
                        text: "héllo".into(),
                    },
                ),
                ev(6, EventKind::Line(4)),
                ev(
                    7,
                    EventKind::Local {
                        var: 0,
                        value: Value::Str(StringId(1)),
                    },
                ),
                ev(
                    9,
                    EventKind::FieldWrite {
                        object: ObjectId(2),
                        field: FieldId(1),
                        value: Value::Long(-3),
                    },
                ),
                ev(
                    10,
                    EventKind::StaticWrite {
                        field: FieldId(1),
                        value: Value::Int(1),
                    },
                ),
                ev(
                    11,
                    EventKind::ArrayWrite {
                        array: ObjectId(1),
                        index: 3,
                        value: Value::Boxed(Primitive::Double(2.5)),
                    },
                ),
                ev(
                    12,
                    EventKind::NewObject {
                        object: ObjectId(3),
                        class: ClassId(1),
                        origin: Origin::Created,
                    },
                ),
                ev(
                    13,
                    EventKind::NewArray {
                        array: ObjectId(4),
                        class: ClassId(1),
                        length: 2,
                        origin: Origin::FirstSeen,
                        elements: vec![Value::Int(1), Value::Null],
                    },
                ),
                ev(
                    14,
                    EventKind::NewArray {
                        array: ObjectId(5),
                        class: ClassId(1),
                        length: 9,
                        origin: Origin::Created,
                        elements: vec![],
                    },
                ),
                ev(15, EventKind::This(ObjectId(3))),
                ev(16, EventKind::Throw(Value::Object(ObjectId(3)))),
                ev(17, EventKind::Catch(Value::Object(ObjectId(3)))),
                ev(
                    18,
                    EventKind::FieldWriteUninit {
                        field: FieldId(1),
                        value: Value::Char(65),
                    },
                ),
                ev(
                    19,
                    EventKind::ExtCall {
                        method: MethodId(1),
                        args: vec![],
                    },
                ),
                ev(20, EventKind::ExtUnwind(Value::Null)),
                ev(
                    21,
                    EventKind::ExtCall {
                        method: MethodId(1),
                        args: vec![],
                    },
                ),
                ev(22, EventKind::ExtReturn(Value::Float(1.0))),
                ev(23, EventKind::Unwind(Value::Object(ObjectId(3)))),
                ev(24, EventKind::Block { block: 1, line: 0 }),
                ev(
                    25,
                    EventKind::FieldRead {
                        object: ObjectId(3),
                        field: FieldId(1),
                    },
                ),
                ev(
                    26,
                    EventKind::ArrayRead {
                        array: ObjectId(4),
                        index: 1,
                    },
                ),
                ev(27, EventKind::StaticRead { field: FieldId(1) }),
                ev(
                    28,
                    EventKind::Content {
                        object: ObjectId(3),
                        kind: ContentKind::Sequence,
                        start: 0,
                        values: vec![Value::Int(1), Value::Null],
                    },
                ),
                ev(
                    29,
                    EventKind::Content {
                        object: ObjectId(6),
                        kind: ContentKind::Map,
                        start: 0,
                        values: vec![Value::Str(StringId(1)), Value::Int(1)],
                    },
                ),
                ev(
                    30,
                    EventKind::Content {
                        object: ObjectId(7),
                        kind: ContentKind::Text,
                        start: 0,
                        values: vec![Value::Str(StringId(1))],
                    },
                ),
                ev(
                    31,
                    EventKind::Content {
                        object: ObjectId(3),
                        kind: ContentKind::Sequence,
                        start: 2,
                        values: vec![Value::Int(5)],
                    },
                ),
                ev(100, EventKind::Return(Value::Void)),
            ],
        },
        Frame::Warning {
            message: "class x left uninstrumented".into(),
        },
        Frame::End { exit_status: -1 },
    ]
}

fn encode(frames: &[Frame]) -> Vec<u8> {
    let mut enc = Encoder::new(Vec::new()).unwrap();
    for f in frames {
        enc.frame(f).unwrap();
    }
    enc.into_inner()
}

fn decode_all(bytes: &[u8]) -> (Vec<Frame>, Option<WireError>) {
    let mut frames = Vec::new();
    let mut dec = match Decoder::new(bytes) {
        Ok(d) => d,
        Err(e) => return (frames, Some(e)),
    };
    loop {
        match dec.next_frame() {
            Ok(Some(f)) => frames.push(f),
            Ok(None) => return (frames, None),
            Err(e) => return (frames, Some(e)),
        }
    }
}

#[test]
fn frames_round_trip_through_encoder_and_decoder() {
    let frames = sample_frames();
    let (decoded, err) = decode_all(&encode(&frames));
    assert!(err.is_none(), "{err:?}");
    assert_eq!(decoded, frames);
}

#[test]
fn missing_end_is_truncation_and_keeps_earlier_frames() {
    let frames = sample_frames();
    let bytes = encode(&frames[..frames.len() - 1]);
    let (decoded, err) = decode_all(&bytes);
    assert_eq!(decoded, frames[..frames.len() - 1]);
    let err = err.expect("an error for the missing END");
    assert!(err.is_truncation(), "{err}");
    assert!(err.to_string().contains("without an END"), "{err}");
}

#[test]
fn a_frame_cut_in_the_middle_is_truncation() {
    let frames = sample_frames();
    let full = encode(&frames[..6]);
    let before = encode(&frames[..5]).len();
    let cut = &full[..before + 20];
    let (decoded, err) = decode_all(cut);
    assert_eq!(decoded, frames[..5]);
    let err = err.unwrap();
    assert!(err.is_truncation(), "{err}");
    assert!(err.to_string().contains("EVENTS frame"), "{err}");
    assert!(err.to_string().contains(&format!("byte {before}")), "{err}");
}

#[test]
fn wrong_magic_and_version_are_named() {
    let err = Decoder::new(&b"GIF89a\x01\x00"[..]).err().unwrap();
    assert!(matches!(err, WireError::BadMagic { .. }), "{err}");
    assert!(err.to_string().contains("GIF89a"));
    // Version 1 (before blocks, reads and content) is no longer read.
    let err = Decoder::new(&b"HSWIRE\x01\x00"[..]).err().unwrap();
    assert!(
        matches!(
            err,
            WireError::UnsupportedVersion {
                found: 1,
                supported: 3
            }
        ),
        "{err}"
    );
    assert!(
        err.to_string().contains("version 1 is not supported"),
        "{err}"
    );
    let err = Decoder::new(&b"HSW"[..]).err().unwrap();
    assert!(err.is_truncation(), "{err}");
}

#[test]
fn malformed_frames_say_where_and_what() {
    // An unknown value tag inside the second event of an EVENTS frame.
    let mut enc = Encoder::new(Vec::new()).unwrap();
    enc.hello(&hello()).unwrap();
    let header_and_hello = enc.into_inner();
    let frame_at = header_and_hello.len() as u64;
    let mut payload = Vec::new();
    put_varint(&mut payload, 1); // thread
    put_varint(&mut payload, 10); // base_ts
    put_varint(&mut payload, 2); // count
    payload.extend_from_slice(&[op::LINE, 0, 5]);
    let bad_at = payload.len() + 2;
    payload.extend_from_slice(&[op::RETURN, 1, 0x3f]);
    let mut enc = Encoder::continuing(header_and_hello);
    enc.raw_frame(frame_type::EVENTS, &payload).unwrap();
    let (_, err) = decode_all(&enc.into_inner());
    let err = err.unwrap();
    match &err {
        WireError::Malformed {
            frame_offset,
            offset,
            frame,
            problem,
        } => {
            assert_eq!(*frame_offset, frame_at);
            assert_eq!(*offset, frame_at + 5 + bad_at as u64);
            assert_eq!(frame, "EVENTS");
            assert!(
                problem.contains("event 1 of 2") && problem.contains("tag 0x3f"),
                "{problem}"
            );
        }
        other => panic!("expected Malformed, got {other}"),
    }
}

#[test]
fn other_malformations_are_errors_not_truncations() {
    let cases: Vec<(u8, Vec<u8>, &str)> = vec![
        (0x09, vec![], "unknown frame type"),
        (frame_type::END, vec![0, 0], "left over"),
        (
            frame_type::EVENTS,
            vec![1, 0, 100, 7, 0, 1],
            "event count 100",
        ),
        (
            frame_type::EVENTS,
            vec![1, 0, 2, op::LINE, 0, 1, op::LINE, 0, 2],
            "dts 0",
        ),
        (
            frame_type::EVENTS,
            vec![1, 0, 1, 0x40, 0, 1],
            "unknown event op 0x40",
        ),
        (frame_type::HELLO, vec![], "second HELLO"),
    ];
    for (ty, payload, expected) in cases {
        let mut enc = Encoder::new(Vec::new()).unwrap();
        enc.hello(&hello()).unwrap();
        enc.raw_frame(ty, &payload).unwrap();
        let (frames, err) = decode_all(&enc.into_inner());
        assert_eq!(frames.len(), 1);
        let err = err.unwrap();
        assert!(!err.is_truncation(), "{err}");
        assert!(err.to_string().contains(expected), "{err} lacks {expected}");
    }
    let mut bytes = b"HSWIRE\x02\x00".to_vec();
    bytes.extend_from_slice(&0xffff_fff0u32.to_le_bytes());
    bytes.push(frame_type::HELLO);
    assert!(decode_all(&bytes).1.unwrap().to_string().contains("64 MiB"));
    let mut enc = Encoder::new(Vec::new()).unwrap();
    enc.end(0).unwrap();
    assert!(decode_all(&enc.into_inner())
        .1
        .unwrap()
        .to_string()
        .contains("must be HELLO"));
}

/// xorshift64*: a seeded PRNG so that failures reproduce.
pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

/// Decodes to the end; the decoder must stop (error or END) within a bounded number of frames.
fn must_terminate(bytes: &[u8]) {
    let Ok(mut dec) = Decoder::new(bytes) else {
        return;
    };
    for _ in 0..=bytes.len() {
        match dec.next_frame() {
            Ok(Some(_)) => {}
            Ok(None) | Err(_) => return,
        }
    }
    panic!("decoder did not stop on a {}-byte stream", bytes.len());
}

#[test]
fn random_and_mutated_streams_never_panic() {
    let mut rng = Rng::new(0x5eed);
    let valid = encode(&sample_frames());
    for round in 0..3000 {
        let mut bytes = valid.clone();
        match round % 4 {
            0 => {
                for _ in 0..=rng.below(8) {
                    let i = rng.below(bytes.len() as u64) as usize;
                    bytes[i] = rng.next() as u8;
                }
            }
            1 => bytes.truncate(rng.below(bytes.len() as u64) as usize),
            2 => {
                let i = 8 + rng.below(bytes.len() as u64 - 8) as usize;
                let junk: Vec<u8> = (0..rng.below(40)).map(|_| rng.next() as u8).collect();
                bytes.splice(i..i, junk);
            }
            _ => {
                bytes.truncate(8);
                for _ in 0..rng.below(200) {
                    bytes.push(rng.next() as u8);
                }
            }
        }
        must_terminate(&bytes);
    }
}

#[test]
fn a_map_content_counts_entries_and_bad_kinds_are_malformed() {
    let ev = Event {
        ts: 1,
        kind: EventKind::Content {
            object: ObjectId(1),
            kind: ContentKind::Map,
            start: 0,
            values: vec![Value::Int(1), Value::Int(2), Value::Int(3), Value::Int(4)],
        },
    };
    let mut b = Vec::new();
    put_event(&mut b, &ev, 0);
    // op, dts, object, kind, count = 2 entries, then 4 values of 2 bytes.
    assert_eq!(&b[..5], &[op::CONTENT, 1, 1, 1, 2]);
    assert_eq!(b.len(), 5 + 8);
    let mut ts = 0;
    assert_eq!(
        read_event(&mut ByteReader::new(&b), &mut ts, true).unwrap(),
        ev
    );
    b[3] = 9;
    let err = read_event(&mut ByteReader::new(&b), &mut 0, true).unwrap_err();
    assert!(err.problem.contains("content kind 9"), "{}", err.problem);
    // A sequence's tail: kind 3, then the start.
    let tail = Event {
        ts: 1,
        kind: EventKind::Content {
            object: ObjectId(1),
            kind: ContentKind::Sequence,
            start: 200,
            values: vec![Value::Int(1)],
        },
    };
    let mut t = Vec::new();
    put_event(&mut t, &tail, 0);
    assert_eq!(&t[..7], &[op::CONTENT, 1, 1, 3, 200, 1, 1]);
    assert_eq!(
        read_event(&mut ByteReader::new(&t), &mut 0, true).unwrap(),
        tail
    );
    let mut m = Vec::new();
    put_blocks(
        &mut m,
        &[BlockDef {
            start: 0,
            line: 1,
            effects: vec![],
            succ: vec![],
        }],
    );
    m.extend_from_slice(&[1, 0, 1, 8, 0]);
    m[0] = 2;
    let err = read_blocks(&mut ByteReader::new(&m)).unwrap_err();
    assert!(err.problem.contains("effect kind 8"), "{}", err.problem);
}

#[test]
fn a_block_line_is_only_in_the_store_form() {
    let ev = Event {
        ts: 3,
        kind: EventKind::Block { block: 5, line: 42 },
    };
    let (mut wire, mut store) = (Vec::new(), Vec::new());
    put_event_ext(&mut wire, &ev, 2, false);
    put_event_ext(&mut store, &ev, 2, true);
    assert_eq!(wire, vec![op::BLOCK, 1, 5]);
    assert_eq!(store, vec![op::BLOCK, 1, 5, 42]);
    let mut ts = 2;
    let from_wire = read_event_ext(&mut ByteReader::new(&wire), &mut ts, true, false).unwrap();
    assert_eq!(from_wire.kind, EventKind::Block { block: 5, line: 0 });
    let mut ts = 2;
    let from_store = read_event_ext(&mut ByteReader::new(&store), &mut ts, true, true).unwrap();
    assert_eq!(from_store, ev);
}

#[test]
fn a_version_2_stream_has_no_successor_table() {
    // Version 2 wrote the block table without successors: the same frames, read without them.
    let mut frames = sample_frames();
    for f in &mut frames {
        if let Frame::Method(m) = f {
            for b in &mut m.blocks {
                b.succ.clear();
            }
        }
    }
    let mut bytes = encode(&frames);
    assert_eq!(&bytes[6..8], &VERSION.to_le_bytes());
    // Find the METHOD frame in the version 3 stream, then cut its successor table (one zero
    // byte per block, now that they are empty) and fix its length.
    let mut dec = Decoder::new(&bytes[..]).unwrap();
    let mut offset = dec.offset() as usize;
    let mut cut = None;
    while let Some(f) = dec.next_frame().unwrap() {
        if let Frame::Method(m) = f {
            cut = Some((offset, m.blocks.len()));
            break;
        }
        offset = dec.offset() as usize;
    }
    let (offset, n) = cut.unwrap();
    let len = u32::from_le_bytes(bytes[offset..offset + 4].try_into().unwrap());
    let end = offset + 4 + len as usize;
    assert!(bytes[end - n..end].iter().all(|&b| b == 0));
    bytes.drain(end - n..end);
    bytes[offset..offset + 4].copy_from_slice(&(len - n as u32).to_le_bytes());
    bytes[6] = 2;
    let (decoded, err) = decode_all(&bytes);
    assert!(err.is_none(), "{err:?}");
    assert_eq!(decoded, frames);
}

#[test]
fn a_successor_outside_the_table_is_malformed() {
    let mut blocks = vec![BlockDef {
        start: 0,
        line: 1,
        effects: vec![],
        succ: vec![],
    }];
    let mut m = Vec::new();
    put_blocks(&mut m, &blocks);
    m.extend_from_slice(&[1, 1]);
    let mut r = ByteReader::new(&m);
    read_blocks(&mut r).unwrap();
    let err = read_successors(&mut r, &mut blocks).unwrap_err();
    assert!(err.problem.contains("successor block 1"), "{}", err.problem);
}

/// The payload of the first `EVENTS` frame of `frames` once encoded.
fn events_payload(frames: &[Frame]) -> Vec<u8> {
    let bytes = encode(frames);
    let mut at = 8;
    loop {
        let len = u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
        if bytes[at + 4] == frame_type::EVENTS {
            return bytes[at + 5..at + 4 + len].to_vec();
        }
        at += 4 + len;
    }
}

/// Both ways of reading an `EVENTS` payload: the fast path's events (`None` when it refuses
/// the payload) and the careful path's frame or error.
fn both_paths(payload: &[u8]) -> (Option<Vec<Event>>, Result<Frame, ParseError>) {
    let mut r = ByteReader::new(payload);
    let careful =
        super::decoder::parse_payload(frame_type::EVENTS, &mut r, VERSION).and_then(|f| {
            if r.is_empty() {
                Ok(f)
            } else {
                r.error("bytes left over")
            }
        });
    let mut h = ByteReader::new(payload);
    let fast = (|| {
        h.varint32("thread").ok()?;
        let base_ts = h.varint().ok()?;
        let count = h.count("count", 2).ok()?;
        let (mut events, mut spans) = (Vec::new(), Vec::new());
        let mut spares = super::fast::Spares::default();
        super::fast::read_events(
            payload,
            h.pos(),
            base_ts,
            count,
            &mut events,
            &mut spans,
            &mut spares,
        )?;
        Some(events)
    })();
    (fast, careful)
}

#[test]
fn the_fast_path_reads_events_as_the_careful_path_does() {
    let payload = events_payload(&sample_frames());
    let (fast, careful) = both_paths(&payload);
    let Ok(Frame::Events { events, .. }) = careful else {
        panic!("the sample's events are read: {careful:?}");
    };
    assert_eq!(fast.as_ref(), Some(&events));
    // Broken payloads: the fast path refuses exactly what the careful one refuses (which then
    // says why), and reads the rest the same.
    let mut rng = Rng::new(0xfa57);
    let (mut refused, mut read) = (0, 0);
    for round in 0..20_000 {
        let mut bytes = payload.clone();
        match round % 3 {
            0 => {
                for _ in 0..=rng.below(3) {
                    let i = rng.below(bytes.len() as u64) as usize;
                    bytes[i] = rng.next() as u8;
                }
            }
            1 => bytes.truncate(rng.below(bytes.len() as u64) as usize),
            _ => {
                let i = rng.below(bytes.len() as u64) as usize;
                let junk: Vec<u8> = (0..1 + rng.below(6)).map(|_| rng.next() as u8).collect();
                bytes.splice(i..i, junk);
            }
        }
        match both_paths(&bytes) {
            (None, Err(_)) => refused += 1,
            (Some(fast), Ok(Frame::Events { events, .. })) => {
                assert_eq!(fast, events, "round {round}");
                read += 1;
            }
            (fast, careful) => panic!("round {round}: fast {fast:?}, careful {careful:?}"),
        }
    }
    assert!(
        refused > 1000 && read > 100,
        "{refused} refused, {read} read"
    );
}

#[test]
fn frames_given_back_are_reused_and_the_wire_bytes_are_each_events_operands() {
    let sample = sample_frames();
    let events = sample
        .iter()
        .find(|f| matches!(f, Frame::Events { .. }))
        .unwrap()
        .clone();
    let mut frames = vec![Frame::Hello(hello())];
    frames.extend(std::iter::repeat_n(events.clone(), 4));
    frames.push(Frame::End { exit_status: 0 });
    let bytes = encode(&frames);
    let mut dec = Decoder::new(&bytes[..]).unwrap();
    assert_eq!(dec.next_frame().unwrap(), Some(Frame::Hello(hello())));
    assert!(dec.take_wire().is_none(), "no events in HELLO");
    let Frame::Events { events: want, .. } = &events else {
        unreachable!()
    };
    for _ in 0..4 {
        let frame = dec.next_frame().unwrap().unwrap();
        assert_eq!(frame, events);
        let wire = dec.take_wire().expect("the events' bytes");
        for (i, ev) in want.iter().enumerate() {
            let mut expect = Vec::new();
            match &ev.kind {
                EventKind::String { string, text } => {
                    put_varint(&mut expect, string.0);
                    put_str(&mut expect, text);
                }
                kind => super::event::put_operands(&mut expect, kind, false),
            }
            assert_eq!(wire.operands(i), Some(&expect[..]), "event {i}: {ev:?}");
        }
        assert_eq!(wire.operands(want.len()), None);
        dec.recycle(frame, Some(wire));
    }
    assert_eq!(
        dec.next_frame().unwrap(),
        Some(Frame::End { exit_status: 0 })
    );
}
