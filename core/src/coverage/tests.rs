use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use super::*;
use crate::ids::{ObjectId, StringId};
use crate::trace::synthetic::block_def;
use crate::trace::wire::{EventKind, Value};

const M: MethodId = MethodId(1);

fn local(var: u32) -> EventKind {
    EventKind::Local {
        var,
        value: Value::Int(0),
    }
}

fn block(b: u32) -> EventKind {
    EventKind::Block { block: b, line: 0 }
}

/// The entities of `ids`, resolved through everything the interner handed out.
fn resolve(dict: &HashMap<u32, Entity>, ids: &[u32]) -> BTreeSet<String> {
    ids.iter().map(|i| format!("{:?}", dict[i])).collect()
}

fn edge(from: u32, to: u32, exception: bool) -> String {
    format!(
        "{:?}",
        Entity::Edge {
            method: M,
            from,
            to,
            exception
        }
    )
}

fn local_du(var: u32, def: u32, use_site: u32) -> String {
    format!(
        "{:?}",
        Entity::LocalDefUse {
            method: M,
            var,
            def,
            use_site
        }
    )
}

/// `static int count(int n) { int i = 0; while (i < n) i++; return i; }` as four blocks.
fn loop_table() -> Arc<MethodTable> {
    Arc::new(MethodTable::new(vec![
        block_def(0, 10, &[(0, 1)]),         // i = 0           site 0
        block_def(2, 11, &[(1, 1), (1, 0)]), // i < n           sites 1, 2
        block_def(6, 12, &[(1, 1), (0, 1)]), // i++             sites 3, 4
        block_def(9, 13, &[(1, 1)]),         // return i        site 5
    ]))
}

#[test]
fn a_loop_gives_its_edges_once_and_chains_from_each_definition() {
    let mut sh = Shared::default();
    let events = [
        block(0),
        local(1),
        block(1),
        block(2),
        local(1),
        block(1),
        block(3),
    ];
    let c = frame_entities(M, loop_table(), 1, &events, true, &mut sh);
    let dict: HashMap<u32, Entity> = sh.interner.take_unsaved().into_iter().collect();
    let edges: BTreeSet<String> = [
        edge(ENTRY, 0, false),
        edge(0, 1, false),
        edge(1, 2, false),
        edge(2, 1, false),
        edge(1, 3, false),
    ]
    .into();
    assert_eq!(resolve(&dict, &c.edges), edges);
    let chains: BTreeSet<String> = [
        local_du(1, 0, 1),
        local_du(0, ENTRY, 2),
        local_du(1, 0, 3),
        local_du(1, 4, 1),
        local_du(1, 4, 5),
    ]
    .into();
    assert_eq!(resolve(&dict, &c.def_uses), chains);
    // Ids are dense from 0 and unique per entity.
    assert_eq!(dict.len(), 10);
    assert_eq!(dict.keys().max(), Some(&9));
}

#[test]
fn the_same_entity_gets_the_same_id_in_another_call() {
    let mut sh = Shared::default();
    let events = [block(0), local(1), block(1), block(3)];
    let a = frame_entities(M, loop_table(), 1, &events, true, &mut sh);
    let b = frame_entities(M, loop_table(), 1, &events, true, &mut sh);
    assert_eq!(a, b);
    assert_eq!(sh.interner.len(), a.edges.len() + a.def_uses.len());
}

#[test]
fn an_exception_edge_leads_to_the_handler_and_skips_the_rest_of_the_block() {
    let table = Arc::new(MethodTable::new(vec![
        // n is read, a field is read, n again: the exception leaves after the field read.
        block_def(0, 5, &[(1, 0), (3, 7), (1, 0)]),
        block_def(9, 8, &[(0, 1), (1, 1)]), // handler: e = exception; use e
    ]));
    let mut sh = Shared::default();
    let events = [
        block(0),
        EventKind::FieldRead {
            object: ObjectId(3),
            field: FieldId(7),
        },
        EventKind::Catch(Value::Object(ObjectId(9))),
        block(1),
        local(1),
    ];
    let c = frame_entities(M, table, 1, &events, true, &mut sh);
    let dict: HashMap<u32, Entity> = sh.interner.take_unsaved().into_iter().collect();
    let edges: BTreeSet<String> = [edge(ENTRY, 0, false), edge(0, 1, true)].into();
    assert_eq!(resolve(&dict, &c.edges), edges);
    // Site 2 (the second read of n) never ran; the handler's use of e (site 4) did.
    let chains: BTreeSet<String> = [local_du(0, ENTRY, 0), local_du(1, 3, 4)].into();
    assert_eq!(resolve(&dict, &c.def_uses), chains);
}

#[test]
fn an_unwind_leaves_the_rest_of_the_block_unexecuted_but_a_return_does_not() {
    let table = Arc::new(MethodTable::new(vec![block_def(0, 1, &[(1, 0), (1, 0)])]));
    let mut sh = Shared::default();
    let thrown = frame_entities(M, table.clone(), 1, &[block(0)], false, &mut sh);
    assert!(thrown.def_uses.is_empty());
    let returned = frame_entities(M, table, 1, &[block(0)], true, &mut sh);
    assert_eq!(returned.def_uses.len(), 2);
}

#[test]
fn heap_chains_go_from_the_last_writer_in_another_call_to_the_read() {
    let writer = MethodId(1);
    let reader = MethodId(2);
    let f = FieldId(4);
    let w_table = Arc::new(MethodTable::new(vec![block_def(
        0,
        1,
        &[(1, 0), (2, 4), (4, 0), (6, 4)],
    )]));
    let r_table = Arc::new(MethodTable::new(vec![block_def(
        0,
        1,
        &[(3, 4), (5, 0), (7, 4), (5, 0)],
    )]));
    let o = ObjectId(10);
    let a = ObjectId(11);
    let mut sh = Shared::default();
    let writes = [
        block(0),
        EventKind::FieldWrite {
            object: o,
            field: f,
            value: Value::Int(1),
        },
        EventKind::ArrayWrite {
            array: a,
            index: 2,
            value: Value::Int(1),
        },
        EventKind::StaticWrite {
            field: f,
            value: Value::Str(StringId(1)),
        },
    ];
    frame_entities(writer, w_table, 1, &writes, true, &mut sh);
    let reads = [
        block(0),
        EventKind::FieldRead {
            object: o,
            field: f,
        },
        EventKind::ArrayRead { array: a, index: 2 },
        EventKind::StaticRead { field: f },
        // Element 3 was never written by application code: no chain.
        EventKind::ArrayRead { array: a, index: 3 },
    ];
    let c = frame_entities(reader, r_table, 0, &reads, true, &mut sh);
    let dict: HashMap<u32, Entity> = sh.interner.take_unsaved().into_iter().collect();
    let got: BTreeSet<String> = c
        .def_uses
        .iter()
        .map(|i| format!("{:?}", dict[i]))
        .collect();
    let du = |kind, field, def, use_site| {
        format!(
            "{:?}",
            Entity::HeapDefUse {
                kind,
                field,
                def: (writer, def),
                use_site: (reader, use_site)
            }
        )
    };
    let want: BTreeSet<String> = [
        du(HeapKind::Field, f, 1, 0),
        du(HeapKind::Array, FieldId(0), 2, 1),
        du(HeapKind::Static, f, 3, 2),
    ]
    .into();
    assert_eq!(got, want);
}

#[test]
fn a_write_without_a_site_hides_the_writer_before_it() {
    let mut sh = Shared::default();
    let key = HeapKey::Static(FieldId(1));
    sh.writers.write(key, (M, 3));
    sh.unmatched(&EventKind::StaticWrite {
        field: FieldId(1),
        value: Value::Int(0),
    });
    assert_eq!(sh.writers.get(&key), None);
}

#[test]
fn last_writers_stay_within_their_capacity_forgetting_the_oldest() {
    let mut w = LastWriters::new(4);
    for i in 0..5u32 {
        w.write(HeapKey::Static(FieldId(i)), (M, i));
        assert!(w.len() <= 4, "{} variables kept", w.len());
    }
    assert_eq!(w.get(&HeapKey::Static(FieldId(0))), None);
    assert_eq!(w.get(&HeapKey::Static(FieldId(4))), Some((M, 4)));
    assert_eq!(w.get(&HeapKey::Static(FieldId(3))), Some((M, 3)));
}

#[test]
fn events_that_do_not_fit_the_table_are_ignored() {
    let mut sh = Shared::default();
    // Block 9 does not exist; the write has no effect in block 0.
    let events = [block(0), local(5), block(9), local(1)];
    let c = frame_entities(M, loop_table(), 1, &events, true, &mut sh);
    let dict: HashMap<u32, Entity> = sh.interner.take_unsaved().into_iter().collect();
    assert_eq!(
        resolve(&dict, &c.edges),
        [edge(ENTRY, 0, false)].into_iter().collect()
    );
}

#[test]
fn entities_survive_their_table_row() {
    let all = [
        Entity::Edge {
            method: M,
            from: ENTRY,
            to: 3,
            exception: true,
        },
        Entity::LocalDefUse {
            method: M,
            var: 2,
            def: ENTRY,
            use_site: 9,
        },
        Entity::HeapDefUse {
            kind: HeapKind::Array,
            field: FieldId(0),
            def: (MethodId(4), 1),
            use_site: (MethodId(5), 2),
        },
    ];
    for e in all {
        assert_eq!(Entity::from_row(e.to_row()), Some(e));
    }
    assert_eq!(Entity::from_row([9, 1, 0, 0, 0, 0]), None);
}

#[test]
fn a_field_written_before_this_is_defined_by_that_write() {
    let ctor = MethodId(3);
    let user = MethodId(4);
    let f = FieldId(2);
    let o = ObjectId(8);
    let ctor_table = Arc::new(MethodTable::new(vec![block_def(0, 1, &[(1, 1), (2, 2)])]));
    let user_table = Arc::new(MethodTable::new(vec![block_def(0, 1, &[(3, 2)])]));
    let mut sh = Shared::default();
    let init = [
        block(0),
        EventKind::FieldWriteUninit {
            field: f,
            value: Value::Int(1),
        },
        EventKind::This(o),
    ];
    frame_entities(ctor, ctor_table, 2, &init, true, &mut sh);
    let read = [
        block(0),
        EventKind::FieldRead {
            object: o,
            field: f,
        },
    ];
    let c = frame_entities(user, user_table, 0, &read, true, &mut sh);
    let dict: HashMap<u32, Entity> = sh.interner.take_unsaved().into_iter().collect();
    let want = Entity::HeapDefUse {
        kind: HeapKind::Field,
        field: f,
        def: (ctor, 1),
        use_site: (user, 0),
    };
    assert_eq!(
        c.def_uses.iter().map(|i| dict[i]).collect::<Vec<_>>(),
        vec![want]
    );
}

#[test]
fn random_tables_and_events_never_panic_and_edges_stay_in_the_table() {
    let mut rng = crate::trace::wire::tests_rng(0xc0de);
    let mut sh = Shared::default();
    for _ in 0..300 {
        let nblocks = 1 + rng.below(6) as u32;
        let blocks = (0..nblocks)
            .map(|b| {
                let effects: Vec<(u8, u32)> = (0..rng.below(6))
                    .map(|_| (rng.below(8) as u8, rng.below(4) as u32))
                    .collect();
                block_def(b, rng.below(3) as u32, &effects)
            })
            .collect();
        let table = Arc::new(MethodTable::new(blocks));
        let events: Vec<EventKind> = (0..rng.below(40))
            .map(|_| {
                let small = rng.below(nblocks as u64 + 2) as u32;
                match rng.below(9) {
                    0 | 1 => block(small),
                    2 => local(small),
                    3 => EventKind::FieldRead {
                        object: ObjectId(1),
                        field: FieldId(small),
                    },
                    4 => EventKind::FieldWrite {
                        object: ObjectId(1),
                        field: FieldId(small),
                        value: Value::Null,
                    },
                    5 => EventKind::ArrayRead {
                        array: ObjectId(2),
                        index: small,
                    },
                    6 => EventKind::Catch(Value::Null),
                    7 => EventKind::Throw(Value::Null),
                    _ => EventKind::StaticRead {
                        field: FieldId(small),
                    },
                }
            })
            .collect();
        let normally = rng.below(2) == 0;
        let c = frame_entities(M, table, rng.below(3) as u32, &events, normally, &mut sh);
        let dict: HashMap<u32, Entity> = sh.interner.take_unsaved().into_iter().collect();
        for id in &c.edges {
            if let Some(Entity::Edge { from, to, .. }) = dict.get(id) {
                assert!(*to < nblocks && (*from < nblocks || *from == ENTRY));
            }
        }
    }
}

/// The interner's `near` cache gives the ids a plain map would: dense from 0 in the order first
/// met, one id per entity, also for crowded slots (more entities than a list holds) and ids
/// beyond what the cache covers.
#[test]
fn interned_ids_are_those_of_a_plain_map() {
    let mut rng = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = |n: u64| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng % n) as u32
    };
    let mut interner = Interner::default();
    let mut model: HashMap<Entity, u32> = HashMap::new();
    for _ in 0..50_000 {
        let method = MethodId(match next(10) {
            0 => 5_000_000,
            _ => next(4),
        });
        let site = match next(20) {
            0 => 100_000,
            _ => next(3),
        };
        let e = match next(3) {
            0 => Entity::Edge {
                method,
                from: next(30),
                to: site,
                exception: next(2) == 1,
            },
            1 => Entity::LocalDefUse {
                method,
                var: next(4),
                def: next(40),
                use_site: site,
            },
            _ => Entity::HeapDefUse {
                kind: HeapKind::Field,
                field: FieldId(next(3)),
                def: (MethodId(next(5)), next(20)),
                use_site: (method, site),
            },
        };
        let want = model.len() as u32;
        let want = *model.entry(e).or_insert(want);
        assert_eq!(interner.id(e), want, "{e:?}");
    }
    let unsaved = interner.take_unsaved();
    assert_eq!(unsaved.len(), model.len());
    assert!(unsaved.iter().all(|(id, e)| model[e] == *id));
}

#[test]
fn the_interner_gives_one_id_per_entity_however_crowded_its_slot() {
    // Entities sharing a method, kind and block or site (the interner's near slot), more than
    // the slot holds inline, and heap def-uses at one use site that differ only in their kind
    // or field: each gets its own id, the same one every time, and is saved once.
    let mut all = Vec::new();
    for from in 0..9 {
        for exception in [false, true] {
            all.push(Entity::Edge {
                method: M,
                from,
                to: 3,
                exception,
            });
        }
    }
    for def in 0..9 {
        all.push(Entity::LocalDefUse {
            method: M,
            var: def % 2,
            def,
            use_site: 7,
        });
    }
    for (kind, field) in [
        (HeapKind::Field, 1),
        (HeapKind::Field, 2),
        (HeapKind::Static, 1),
        (HeapKind::Array, 0),
    ] {
        for site in 0..6 {
            all.push(Entity::HeapDefUse {
                kind,
                field: FieldId(field),
                def: (MethodId(2 + site % 2), site),
                use_site: (M, 7),
            });
        }
    }
    let mut i = Interner::default();
    let first: Vec<u32> = all.iter().map(|&e| i.id(e)).collect();
    let again: Vec<u32> = all.iter().rev().map(|&e| i.id(e)).collect();
    assert_eq!(first, again.into_iter().rev().collect::<Vec<_>>());
    assert_eq!(first.iter().collect::<BTreeSet<_>>().len(), all.len());
    let saved: HashMap<u32, Entity> = i.take_unsaved().into_iter().collect();
    assert_eq!(saved.len(), all.len());
    for (e, id) in all.iter().zip(&first) {
        assert_eq!(saved[id], *e);
    }
}
