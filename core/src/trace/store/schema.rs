//! The SQL schema of a trace file and its format version (documented in docs/trace-schema.md).

/// `PRAGMA application_id` of a trace file: "HSTR".
pub const APPLICATION_ID: i32 = 0x4853_5452;
/// Bumped on any change of the tables or the block and page encodings.
pub const FORMAT_VERSION: i64 = 5;
/// The oldest version this Hindsight still reads: version 5 keeps nodes in pages instead of
/// the rows of version 4's `nodes` table.
pub const OLDEST_READABLE_VERSION: i64 = 5;

pub const CREATE: &str = r#"
CREATE TABLE meta(key TEXT PRIMARY KEY, value) WITHOUT ROWID;
CREATE TABLE classes(id INTEGER PRIMARY KEY, name TEXT NOT NULL, source_file TEXT NOT NULL, flags INTEGER NOT NULL);
CREATE TABLE methods(id INTEGER PRIMARY KEY, class INTEGER NOT NULL, name TEXT NOT NULL, descriptor TEXT NOT NULL,
    access INTEGER NOT NULL, flags INTEGER NOT NULL, hash BLOB NOT NULL, first_line INTEGER NOT NULL, last_line INTEGER NOT NULL,
    blocks BLOB NOT NULL);
CREATE TABLE method_vars(method INTEGER NOT NULL, var INTEGER NOT NULL, slot INTEGER NOT NULL, name TEXT NOT NULL,
    descriptor TEXT NOT NULL, PRIMARY KEY(method, var)) WITHOUT ROWID;
CREATE TABLE fields(id INTEGER PRIMARY KEY, class INTEGER NOT NULL, name TEXT NOT NULL, descriptor TEXT NOT NULL, flags INTEGER NOT NULL);
CREATE TABLE threads(id INTEGER PRIMARY KEY, java_id INTEGER, name TEXT, node INTEGER);
CREATE TABLE strings(id INTEGER PRIMARY KEY, text TEXT NOT NULL);
CREATE TABLE objects(id INTEGER PRIMARY KEY, class INTEGER NOT NULL, length INTEGER, origin INTEGER NOT NULL,
    created_ts INTEGER NOT NULL, node INTEGER);
CREATE TABLE node_pages(first INTEGER PRIMARY KEY, last INTEGER NOT NULL, data BLOB NOT NULL);
CREATE TABLE node_ends(id INTEGER PRIMARY KEY, exit_ts INTEGER NOT NULL, outcome INTEGER);
CREATE TABLE node_children(parent INTEGER NOT NULL, chunk INTEGER NOT NULL, count INTEGER NOT NULL, data BLOB NOT NULL,
    PRIMARY KEY(parent, chunk)) WITHOUT ROWID;
CREATE TABLE blocks(id INTEGER PRIMARY KEY, thread INTEGER NOT NULL, first_ts INTEGER NOT NULL, last_ts INTEGER NOT NULL,
    count INTEGER NOT NULL, min_depth INTEGER NOT NULL, start_stack BLOB NOT NULL, data BLOB NOT NULL);
CREATE INDEX blocks_by_thread ON blocks(thread, last_ts);
CREATE TABLE segments(id INTEGER PRIMARY KEY, level INTEGER NOT NULL, first_ts INTEGER NOT NULL, last_ts INTEGER NOT NULL,
    writes INTEGER NOT NULL);
CREATE TABLE index_pages(id INTEGER PRIMARY KEY, segment INTEGER NOT NULL, start BLOB NOT NULL, data BLOB NOT NULL);
CREATE UNIQUE INDEX index_pages_by_start ON index_pages(segment, start);
CREATE TABLE contents(object INTEGER PRIMARY KEY, kind INTEGER NOT NULL, first_ts INTEGER NOT NULL);
CREATE TABLE coverage_entities(id INTEGER PRIMARY KEY, kind INTEGER NOT NULL, method INTEGER NOT NULL, a INTEGER NOT NULL,
    b INTEGER NOT NULL, c INTEGER NOT NULL, d INTEGER NOT NULL);
CREATE TABLE coverage_pages(id INTEGER PRIMARY KEY, first_node INTEGER NOT NULL, last_node INTEGER NOT NULL, data BLOB NOT NULL);
CREATE INDEX coverage_pages_by_node ON coverage_pages(first_node, last_node);
CREATE TABLE warnings(id INTEGER PRIMARY KEY, ts INTEGER, source TEXT NOT NULL, message TEXT NOT NULL);
"#;
