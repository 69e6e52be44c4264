//! Raw access for whole-history scans (`core::query`): a thread's event blocks over a span of
//! timestamps, a page at a time, and every page of the change index. The caller decodes them
//! (`decode_block`, `decode_index_page`) as it goes, so nothing of the run is held in memory.

use super::TraceReader;
use crate::ids::{NodeId, ThreadId, Timestamp};
use crate::trace::store::error::StoreResult;

/// An event block as stored, still compressed.
pub struct RawBlock {
    pub id: i64,
    pub first_ts: Timestamp,
    pub last_ts: Timestamp,
    pub count: u32,
    pub start_stack: Vec<u8>,
    pub data: Vec<u8>,
}

/// A page of the change index as stored, still compressed, with its segment's span.
pub struct RawIndexPage {
    pub segment_first_ts: Timestamp,
    pub segment_last_ts: Timestamp,
    pub data: Vec<u8>,
}

fn ts_param(t: Timestamp) -> i64 {
    t.min(i64::MAX as u64) as i64
}

impl TraceReader {
    /// Up to `limit` blocks of `thread` holding events in `from..=to` whose last timestamp is
    /// at least `after_last`, in timestamp order (pass the last block's `last_ts + 1` for the
    /// next page).
    pub fn raw_blocks(
        &self,
        thread: ThreadId,
        after_last: Timestamp,
        to: Timestamp,
        limit: usize,
    ) -> StoreResult<Vec<RawBlock>> {
        let mut st = self
            .conn
            .prepare_cached(
                "SELECT id, first_ts, last_ts, count, start_stack, data FROM blocks
                 WHERE thread = ?1 AND last_ts >= ?2 AND first_ts <= ?3 ORDER BY last_ts LIMIT ?4",
            )
            .map_err(self.err("reading event blocks"))?;
        let rows = st
            .query_map(
                rusqlite::params![
                    i64::from(thread.0),
                    ts_param(after_last),
                    ts_param(to),
                    limit.min(i64::MAX as usize) as i64
                ],
                |r| {
                    Ok(RawBlock {
                        id: r.get(0)?,
                        first_ts: r.get::<_, i64>(1)? as u64,
                        last_ts: r.get::<_, i64>(2)? as u64,
                        count: r.get(3)?,
                        start_stack: r.get(4)?,
                        data: r.get(5)?,
                    })
                },
            )
            .map_err(self.err("reading event blocks"))?;
        rows.collect::<Result<_, _>>()
            .map_err(self.err("reading event blocks"))
    }

    /// The number of events stored in blocks that overlap `from..=to` (what a scan of that
    /// span decodes; for a progress line).
    pub fn events_between(&self, from: Timestamp, to: Timestamp) -> StoreResult<u64> {
        self.conn
            .prepare_cached(
                "SELECT coalesce(sum(count), 0) FROM blocks WHERE last_ts >= ?1 AND first_ts <= ?2",
            )
            .and_then(|mut s| s.query_row([ts_param(from), ts_param(to)], |r| r.get::<_, i64>(0)))
            .map(|n| n as u64)
            .map_err(self.err("counting events"))
    }

    /// Every thread that has events, by id.
    pub fn event_threads(&self) -> StoreResult<Vec<ThreadId>> {
        let mut st = self
            .conn
            .prepare_cached("SELECT DISTINCT thread FROM blocks ORDER BY thread")
            .map_err(self.err("reading threads"))?;
        let rows = st
            .query_map([], |r| Ok(ThreadId(r.get(0)?)))
            .map_err(self.err("reading threads"))?;
        rows.collect::<Result<_, _>>()
            .map_err(self.err("reading threads"))
    }

    /// Visits every page of the change index whose segment overlaps `from..=to`, segment by
    /// segment; `visit` returns `false` to stop. Returns the number of pages visited.
    pub fn raw_index_pages(
        &self,
        from: Timestamp,
        to: Timestamp,
        mut visit: impl FnMut(RawIndexPage) -> StoreResult<bool>,
    ) -> StoreResult<u64> {
        let segments: Vec<(i64, u64, u64)> = {
            let mut st = self
                .conn
                .prepare_cached(
                    "SELECT id, first_ts, last_ts FROM segments WHERE last_ts >= ?1 AND first_ts <= ?2 ORDER BY first_ts",
                )
                .map_err(self.err("reading index segments"))?;
            let rows = st
                .query_map([ts_param(from), ts_param(to)], |r| {
                    Ok((
                        r.get(0)?,
                        r.get::<_, i64>(1)? as u64,
                        r.get::<_, i64>(2)? as u64,
                    ))
                })
                .map_err(self.err("reading index segments"))?;
            rows.collect::<Result<_, _>>()
                .map_err(self.err("reading index segments"))?
        };
        let mut pages = 0;
        for (segment, first, last) in segments {
            // By page id, a page of rows at a time, so that no statement stays open while the
            // caller works.
            let mut after = i64::MIN;
            loop {
                let rows: Vec<(i64, Vec<u8>)> = {
                    let mut st = self
                        .conn
                        .prepare_cached(
                            "SELECT id, data FROM index_pages WHERE segment = ?1 AND id > ?2 ORDER BY id LIMIT 256",
                        )
                        .map_err(self.err("reading the change index"))?;
                    let rows = st
                        .query_map([segment, after], |r| Ok((r.get(0)?, r.get(1)?)))
                        .map_err(self.err("reading the change index"))?;
                    rows.collect::<Result<_, _>>()
                        .map_err(self.err("reading the change index"))?
                };
                let Some(&(last_id, _)) = rows.last() else {
                    break;
                };
                after = last_id;
                for (_, data) in rows {
                    pages += 1;
                    let page = RawIndexPage {
                        segment_first_ts: first,
                        segment_last_ts: last,
                        data,
                    };
                    if !visit(page)? {
                        return Ok(pages);
                    }
                }
            }
        }
        Ok(pages)
    }

    /// The number of change-index pages in segments overlapping `from..=to`.
    pub fn index_pages_between(&self, from: Timestamp, to: Timestamp) -> StoreResult<u64> {
        self.conn
            .prepare_cached(
                "SELECT count(*) FROM index_pages p JOIN segments s ON s.id = p.segment
                 WHERE s.last_ts >= ?1 AND s.first_ts <= ?2",
            )
            .and_then(|mut s| s.query_row([ts_param(from), ts_param(to)], |r| r.get::<_, i64>(0)))
            .map(|n| n as u64)
            .map_err(self.err("counting index pages"))
    }

    /// The children of `parent` that ended before `before`, the last `limit` of them in call
    /// order, with how many there are in all.
    pub fn children_ended_before(
        &self,
        parent: NodeId,
        before: Timestamp,
        limit: usize,
    ) -> StoreResult<(Vec<NodeId>, u64)> {
        let ended = |offset: u64| -> StoreResult<bool> {
            Ok(self
                .children(parent, offset, 1)?
                .first()
                .and_then(|c| c.header.exit)
                .is_some_and(|exit| exit < before))
        };
        let count = self.child_count(parent)?;
        if parent == NodeId::ROOT {
            // Thread nodes run side by side: no order to search in (and there are few).
            let ids: Vec<NodeId> = self
                .children(parent, 0, count)?
                .iter()
                .filter(|c| c.header.exit.is_some_and(|exit| exit < before))
                .map(|c| c.header.id)
                .collect();
            let skip = ids.len().saturating_sub(limit);
            return Ok((ids[skip..].to_vec(), ids.len() as u64));
        }
        // A call's (or a thread's) children run one after another: those ended before `before`
        // are a prefix, found by bisection.
        let (mut lo, mut hi) = (0, count);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if ended(mid)? {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        let total = lo;
        let take = (limit as u64).min(total);
        let ids = self
            .children(parent, total - take, take)?
            .into_iter()
            .map(|c| c.header.id)
            .collect();
        Ok((ids, total))
    }

    /// The last child of `parent` (in call order), if any.
    pub fn last_child(&self, parent: NodeId) -> StoreResult<Option<NodeId>> {
        let count = self.child_count(parent)?;
        if count == 0 {
            return Ok(None);
        }
        Ok(self
            .children(parent, count - 1, 1)?
            .first()
            .map(|c| c.header.id))
    }

    /// Runs `sql` (a read-only statement over the trace's own tables) and gives each row to
    /// `visit`. For the few whole-table questions the queries ask (`threads`), not for users.
    pub(crate) fn rows<T>(
        &self,
        sql: &str,
        params: impl rusqlite::Params,
        map: impl FnMut(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
    ) -> StoreResult<Vec<T>> {
        let mut st = self.conn.prepare_cached(sql).map_err(self.err("reading"))?;
        let rows = st.query_map(params, map).map_err(self.err("reading"))?;
        rows.collect::<Result<_, _>>().map_err(self.err("reading"))
    }
}
