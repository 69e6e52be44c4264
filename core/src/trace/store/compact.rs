//! Keeps index segments few: a lookup reads one page per segment. Each commit adds a segment,
//! so a long, slow run (few writes per commit) would pile up small segments. When `fan_in`
//! small segments (at most `small` writes each) exist at one level, they are merged into one
//! segment of the next level (a streaming k-way merge holding one decoded page per segment),
//! inside the writer's current transaction. Big segments, as a busy run produces, are never
//! rewritten, so recording at full speed pays nothing.

use std::collections::VecDeque;
use std::path::Path;

use rusqlite::{params, Connection, OptionalExtension};

use super::error::StoreError;
use super::index::{decode_page, IndexEntry, PageWriter};

struct Cursor {
    segment: i64,
    /// `start` of the last page read.
    after: Vec<u8>,
    entries: VecDeque<IndexEntry>,
    done: bool,
}

/// Merges small segments level by level while a level holds `fan_in` of them.
pub fn compact(
    conn: &Connection,
    path: &Path,
    fan_in: usize,
    small: u64,
    page_bytes: usize,
) -> Result<(), StoreError> {
    if fan_in < 2 {
        return Ok(());
    }
    let err = |action| move |e| StoreError::sqlite(path, action, e);
    for level in 0..16i64 {
        let ids: Vec<(i64, i64, i64, i64)> = {
            let mut st = conn
                .prepare_cached("SELECT id, first_ts, last_ts, writes FROM segments WHERE level = ?1 AND writes <= ?3
                     ORDER BY id LIMIT ?2")
                .map_err(err("reading index segments"))?;
            let rows = st
                .query_map(
                    params![level, fan_in as i64, small.min(i64::MAX as u64) as i64],
                    |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
                )
                .map_err(err("reading index segments"))?;
            rows.collect::<Result<_, _>>()
                .map_err(err("reading index segments"))?
        };
        if ids.len() == fan_in {
            merge(conn, path, level + 1, &ids, page_bytes)?;
        }
    }
    Ok(())
}

fn merge(
    conn: &Connection,
    path: &Path,
    level: i64,
    segs: &[(i64, i64, i64, i64)],
    page_bytes: usize,
) -> Result<(), StoreError> {
    let err = |action| move |e| StoreError::sqlite(path, action, e);
    let first = segs.iter().map(|s| s.1).min().unwrap_or(0);
    let last = segs.iter().map(|s| s.2).max().unwrap_or(0);
    let writes: i64 = segs.iter().map(|s| s.3).sum();
    conn.prepare_cached(
        "INSERT INTO segments(level, first_ts, last_ts, writes) VALUES (?1, ?2, ?3, ?4)",
    )
    .and_then(|mut st| st.execute(params![level, first, last, writes]))
    .map_err(err("merging index segments"))?;
    let target = conn.last_insert_rowid();
    let mut cursors: Vec<Cursor> = segs
        .iter()
        .map(|s| Cursor {
            segment: s.0,
            after: Vec::new(),
            entries: VecDeque::new(),
            done: false,
        })
        .collect();
    let mut out = PageWriter::new(first as u64, page_bytes);
    let insert = |page: super::index::Page| -> Result<(), StoreError> {
        conn.prepare_cached("INSERT INTO index_pages(segment, start, data) VALUES (?1, ?2, ?3)")
            .and_then(|mut st| st.execute(params![target, page.start, page.data]))
            .map_err(err("merging index segments"))?;
        Ok(())
    };
    loop {
        for c in cursors.iter_mut() {
            if c.entries.is_empty() && !c.done {
                refill(conn, path, c)?;
            }
        }
        let next = cursors
            .iter()
            .enumerate()
            .filter_map(|(i, c)| c.entries.front().map(|e| (i, (e.key.packed(), e.ts))))
            .min_by_key(|(_, k)| *k)
            .map(|(i, _)| i);
        let Some(i) = next else { break };
        let e = cursors[i]
            .entries
            .pop_front()
            .expect("chosen for its front entry");
        if let Some(page) = out.push(&e) {
            insert(page)?;
        }
    }
    if let Some(page) = out.finish() {
        insert(page)?;
    }
    for s in segs {
        conn.prepare_cached("DELETE FROM index_pages WHERE segment = ?1")
            .and_then(|mut st| st.execute([s.0]))
            .map_err(err("merging index segments"))?;
        conn.prepare_cached("DELETE FROM segments WHERE id = ?1")
            .and_then(|mut st| st.execute([s.0]))
            .map_err(err("merging index segments"))?;
    }
    Ok(())
}

/// Reads the cursor's next page, or marks it done.
fn refill(conn: &Connection, path: &Path, c: &mut Cursor) -> Result<(), StoreError> {
    let row: Option<(Vec<u8>, Vec<u8>)> = conn
        .prepare_cached("SELECT start, data FROM index_pages WHERE segment = ?1 AND start > ?2 ORDER BY start LIMIT 1")
        .and_then(|mut st| st.query_row(params![c.segment, c.after], |r| Ok((r.get(0)?, r.get(1)?))).optional())
        .map_err(|e| StoreError::sqlite(path, "merging index segments", e))?;
    match row {
        None => c.done = true,
        Some((start, data)) => {
            let entries = decode_page(&data).map_err(|e| StoreError::Corrupt {
                path: path.into(),
                detail: format!("index page of segment {}: {}", c.segment, e.problem),
            })?;
            c.entries.extend(entries);
            c.after = start;
        }
    }
    Ok(())
}
