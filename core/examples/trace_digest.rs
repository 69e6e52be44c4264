//! What a trace holds, as one digest per part: nodes (with their children), events of every
//! thread in order (with node, depth and line), the change index (every write in (variable,
//! timestamp) order), coverage, definitions, objects, strings, contents, warnings. Two traces
//! of the same stream hold the same when every line matches, however their commits cut
//! blocks, pages and segments: a check that work on the store's speed changed nothing stored.
//!
//! Run: `cargo run --release -p hindsight-core --example trace_digest -- TRACE`

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use hindsight_core::ids::NodeId;
use hindsight_core::trace::store::{decode_block, decode_index_page, TraceReader};
use hindsight_core::tree::CoverageKind;

struct Part {
    name: &'static str,
    count: u64,
    hash: DefaultHasher,
}

impl Part {
    fn new(name: &'static str) -> Part {
        Part {
            name,
            count: 0,
            hash: DefaultHasher::new(),
        }
    }
    fn add(&mut self, item: impl std::fmt::Debug) {
        self.count += 1;
        format!("{item:?}").hash(&mut self.hash);
    }
    fn print(&self) {
        println!(
            "{:<18} {:>12} {:016x}",
            self.name,
            self.count,
            self.hash.finish()
        );
    }
}

fn sql_rows(path: &std::path::Path, part: &mut Part, sql: &str) {
    let conn =
        rusqlite::Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .expect("the trace opens");
    let mut st = conn.prepare(sql).expect("the query");
    let n = st.column_count();
    let mut rows = st.query([]).expect("the rows");
    while let Some(r) = rows.next().expect("a row") {
        let row: Vec<String> = (0..n)
            .map(|i| format!("{:?}", r.get_ref(i).expect("a column")))
            .collect();
        part.add(row);
    }
}

fn main() {
    let path =
        std::path::PathBuf::from(std::env::args().nth(1).expect("usage: trace_digest TRACE"));
    let reader = TraceReader::open(&path).expect("the trace opens");

    let mut nodes = Part::new("nodes");
    let mut after: Option<NodeId> = None;
    loop {
        let page = reader.nodes_after(after, 4096).expect("nodes");
        let Some(last) = page.last() else { break };
        after = Some(last.header.id);
        for n in page {
            let children: Vec<u32> = reader
                .children(n.header.id, 0, u64::MAX)
                .expect("children")
                .iter()
                .map(|c| c.header.id.0)
                .collect();
            nodes.add((n, children));
        }
    }
    nodes.print();

    let mut events = Part::new("events");
    for thread in reader.event_threads().expect("threads") {
        let mut from = 0;
        loop {
            let blocks = reader
                .raw_blocks(thread, from, u64::MAX, 64)
                .expect("blocks");
            let Some(last) = blocks.last() else { break };
            from = last.last_ts + 1;
            for b in &blocks {
                for e in decode_block(&b.start_stack, &b.data, b.first_ts).expect("a block") {
                    events.add((thread, e));
                }
            }
        }
    }
    events.print();

    let mut writes = Vec::new();
    reader
        .raw_index_pages(0, u64::MAX, |p| {
            writes.extend(decode_index_page(&p.data).expect("an index page"));
            Ok(true)
        })
        .expect("the change index");
    writes.sort_by_key(|e| (e.key, e.ts));
    let mut index = Part::new("change index");
    for w in writes {
        index.add(w);
    }
    index.print();

    for (name, kind) in [
        ("edges", CoverageKind::Edge),
        ("def-uses", CoverageKind::DefUse),
    ] {
        let mut part = Part::new(name);
        for c in reader.all_coverage(kind).expect("coverage") {
            part.add(c);
        }
        part.print();
    }

    for (name, sql) in [
        ("classes", "SELECT * FROM classes ORDER BY id"),
        ("methods", "SELECT * FROM methods ORDER BY id"),
        (
            "method_vars",
            "SELECT * FROM method_vars ORDER BY method, var",
        ),
        ("fields", "SELECT * FROM fields ORDER BY id"),
        ("threads", "SELECT * FROM threads ORDER BY id"),
        ("strings", "SELECT * FROM strings ORDER BY id"),
        ("objects", "SELECT * FROM objects ORDER BY id"),
        ("contents", "SELECT * FROM contents ORDER BY object"),
        ("entities", "SELECT * FROM coverage_entities ORDER BY id"),
        (
            "warnings",
            "SELECT ts, source, message FROM warnings ORDER BY id",
        ),
        (
            "meta",
            "SELECT * FROM meta WHERE key NOT IN ('wall_ms') ORDER BY key",
        ),
    ] {
        let mut part = Part::new(name);
        sql_rows(&path, &mut part, sql);
        part.print();
    }
}
