//! The nodes started since the last commit, and what a commit writes of them (node pages, the
//! children of nodes left open, the ends of nodes that completed after their page). Pure state:
//! the writer does the SQL.

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use super::node_pages::{encode_page, put_children, CHILDREN_PER_CHUNK, NODES_PER_PAGE};
use super::{NodeRow, Outcome};
use crate::ids::{NodeId, Timestamp};

/// The children of a node that was open when its page was written, not yet in full chunks.
struct LateChildren {
    /// The chunk `ids` goes to.
    chunk: u32,
    ids: Vec<NodeId>,
    /// `ids` changed since it was last written.
    dirty: bool,
    /// The node completed: its last chunk is final.
    complete: bool,
}

/// What one commit writes.
#[derive(Debug, Default, PartialEq)]
pub struct NodeFlush {
    /// The window's nodes, which `seal` encodes into node pages on the store's pool.
    pub rows: WindowRows,
    /// `(parent, chunk, count, data)` rows of `node_children` (a chunk may be written again
    /// until it is full).
    pub chunks: Vec<(NodeId, u32, u32, Vec<u8>)>,
    /// `(node, exit, outcome)` rows of `node_ends`.
    pub ends: Vec<(NodeId, Timestamp, Option<Outcome>)>,
}

#[derive(Default)]
pub struct NodeWindow {
    /// Nodes below this id are in pages.
    base: u32,
    /// By `id - base`.
    pending: Vec<Option<NodeRow>>,
    late: FxHashMap<NodeId, LateChildren>,
    ends: Vec<(NodeId, Timestamp, Option<Outcome>)>,
}

/// Where node `id` is among `rows` (by `id - base`), if it is there.
fn slot(rows: &[Option<NodeRow>], base: u32, id: NodeId) -> Option<usize> {
    let i = id.0.checked_sub(base)? as usize;
    rows.get(i)?.as_ref().map(|_| i)
}

impl NodeWindow {
    fn slot(&self, id: NodeId) -> Option<usize> {
        slot(&self.pending, self.base, id)
    }

    /// A node started; ids come in increasing order (the recorder numbers nodes as they start),
    /// so an id below the window is a node already stored and is ignored.
    pub fn started(&mut self, row: NodeRow) {
        let Some(i) = row.header.id.0.checked_sub(self.base).map(|i| i as usize) else {
            debug_assert!(false, "node {} started twice", row.header.id);
            return;
        };
        if let Some(p) = row.header.parent {
            if self.slot(p).is_none() {
                let late = self.late.entry(p).or_insert_with(|| LateChildren {
                    chunk: 0,
                    ids: Vec::new(),
                    dirty: false,
                    complete: false,
                });
                late.ids.push(row.header.id);
                late.dirty = true;
            }
        }
        if self.pending.len() <= i {
            self.pending.resize(i + 1, None);
        }
        self.pending[i] = Some(row);
    }

    /// A node completed: in its page if that is still to be written, else in `node_ends`.
    pub fn completed(&mut self, row: &NodeRow) {
        let id = row.header.id;
        if let Some(i) = self.slot(id) {
            if let Some(p) = self.pending[i].as_mut() {
                p.header.exit = row.header.exit;
                p.outcome = row.outcome;
            }
            return;
        }
        if let Some(exit) = row.header.exit {
            self.ends.push((id, exit, row.outcome));
        }
        if let Some(late) = self.late.get_mut(&id) {
            late.complete = true;
            late.dirty = true;
        }
    }

    /// Everything to write at a commit; the window then starts after the last node started.
    /// The rows go out unencoded (`NodeFlush::rows`): encoding them is the pool's work, not the
    /// recorder's.
    pub fn flush(&mut self) -> NodeFlush {
        let mut out = NodeFlush::default();
        // A node still open keeps its children in chunks: those in this window first. A parent
        // starts before its children, so one pass in id order finds them.
        for (i, row) in self.pending.iter().enumerate() {
            let Some(row) = row else { continue };
            if let Some(p) = row.header.parent {
                let open_parent = self
                    .slot(p)
                    .and_then(|j| self.pending[j].as_ref())
                    .is_some_and(|r| r.header.exit.is_none());
                if open_parent {
                    if let Some(late) = self.late.get_mut(&p) {
                        late.ids.push(row.header.id);
                    }
                }
            }
            if row.header.exit.is_none() {
                debug_assert_eq!(i as u32 + self.base, row.header.id.0);
                self.late.insert(
                    row.header.id,
                    LateChildren {
                        chunk: 0,
                        ids: Vec::new(),
                        dirty: true,
                        complete: false,
                    },
                );
            }
        }
        let n = self.pending.len();
        let rows = std::mem::replace(&mut self.pending, Vec::with_capacity(n));
        out.rows = WindowRows {
            base: self.base,
            rows,
        };
        self.base = self.base.saturating_add(n as u32);
        let mut done = Vec::new();
        for (&parent, late) in self.late.iter_mut() {
            if !late.dirty {
                continue;
            }
            while late.ids.len() >= CHILDREN_PER_CHUNK {
                let rest = late.ids.split_off(CHILDREN_PER_CHUNK);
                out.chunks.push(chunk_row(parent, late.chunk, &late.ids));
                late.ids = rest;
                late.chunk += 1;
            }
            if !late.ids.is_empty() {
                out.chunks.push(chunk_row(parent, late.chunk, &late.ids));
            }
            late.dirty = false;
            if late.complete {
                done.push(parent);
            }
        }
        for parent in done {
            self.late.remove(&parent);
        }
        out.chunks.sort_by_key(|c| (c.0, c.1));
        out.ends = std::mem::take(&mut self.ends);
        out
    }
}

/// The nodes a commit's window holds, by `id - base`, to be encoded into node pages.
#[derive(Debug, Default, PartialEq)]
pub struct WindowRows {
    base: u32,
    rows: Vec<Option<NodeRow>>,
}

impl WindowRows {
    /// The node pages, `(first, last, raw page)`: a node complete in the window carries its
    /// children (those all started in it, after it). With `parallel`, pages are encoded on the
    /// current rayon pool's threads.
    pub fn encode(self, parallel: bool) -> Vec<(NodeId, NodeId, Vec<u8>)> {
        let slot = |id: NodeId| slot(&self.rows, self.base, id);
        // Children of the window's nodes by parent (compressed rows: no vector per node).
        let n = self.rows.len();
        let mut start = vec![0u32; n + 1];
        for row in self.rows.iter().flatten() {
            if let Some(p) = row.header.parent.and_then(slot) {
                start[p + 1] += 1;
            }
        }
        for i in 0..n {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut kids = vec![NodeId(0); start[n] as usize];
        for row in self.rows.iter().flatten() {
            if let Some(p) = row.header.parent.and_then(slot) {
                kids[fill[p] as usize] = row.header.id;
                fill[p] += 1;
            }
        }
        let children = |i: usize| &kids[start[i] as usize..start[i + 1] as usize];
        let rows: Vec<(usize, &NodeRow)> = self
            .rows
            .iter()
            .enumerate()
            .filter_map(|(i, r)| r.as_ref().map(|r| (i, r)))
            .collect();
        let page = |page: &[(usize, &NodeRow)]| {
            let raw = encode_page(page.iter().map(|&(i, r)| {
                let complete = r.header.exit.is_some();
                (r, complete.then(|| children(i)))
            }));
            (page[0].1.header.id, page[page.len() - 1].1.header.id, raw)
        };
        if parallel {
            rows.par_chunks(NODES_PER_PAGE).map(page).collect()
        } else {
            rows.chunks(NODES_PER_PAGE).map(page).collect()
        }
    }
}

fn chunk_row(parent: NodeId, chunk: u32, ids: &[NodeId]) -> (NodeId, u32, u32, Vec<u8>) {
    let mut data = Vec::with_capacity(ids.len() * 2 + 2);
    put_children(&mut data, parent, ids);
    (parent, chunk, ids.len() as u32, data)
}

#[cfg(test)]
mod tests {
    use super::super::node_pages::{compress, decode_page, read_children};
    use super::*;
    use crate::trace::wire::ByteReader;
    use crate::tree::{NodeHeader, NodeKind};

    fn row(id: u32, parent: u32) -> NodeRow {
        NodeRow {
            header: NodeHeader {
                id: NodeId(id),
                parent: Some(NodeId(parent)),
                kind: NodeKind::Routine,
                method: Some(crate::ids::MethodId(1)),
                thread: Some(crate::ids::ThreadId(1)),
                entry: u64::from(id) * 10,
                exit: None,
                chained: false,
                frame_chained: false,
            },
            depth: 1,
            outcome: None,
        }
    }

    /// `NodeWindow::flush`, and its rows encoded into pages as `seal` does.
    fn flush(w: &mut NodeWindow) -> (NodeFlush, Vec<(NodeId, NodeId, Vec<u8>)>) {
        let mut f = NodeWindow::flush(w);
        let pages = std::mem::take(&mut f.rows).encode(false);
        (f, pages)
    }

    fn done(mut r: NodeRow) -> NodeRow {
        r.header.exit = Some(r.header.entry + 5);
        r.outcome = Some(Outcome::Returned);
        r
    }

    /// The children a flush wrote for `parent`, chunk by chunk (the last write of a chunk wins).
    fn chunked(flushes: &[NodeFlush], parent: u32) -> Vec<NodeId> {
        let mut chunks = std::collections::BTreeMap::new();
        for f in flushes {
            for (p, k, n, data) in &f.chunks {
                if p.0 == parent {
                    let mut ids = Vec::new();
                    read_children(&mut ByteReader::new(data), *p, &mut ids).unwrap();
                    assert_eq!(ids.len(), *n as usize);
                    chunks.insert(*k, ids);
                }
            }
        }
        chunks.into_values().flatten().collect()
    }

    #[test]
    fn open_nodes_keep_their_children_in_chunks_and_their_end_comes_later() {
        let mut w = NodeWindow::default();
        let (mut flushes, mut pages) = (Vec::new(), Vec::new());
        // Node 1 (a thread-like parent) stays open over several commits with many children.
        let mut p = row(1, 0);
        p.header.parent = None;
        w.started(p.clone());
        let mut next = 2;
        let mut want = Vec::new();
        for round in 0..5 {
            for _ in 0..700 {
                let c = row(next, 1);
                w.started(c.clone());
                // Every other child completes in its window, the rest after the commit.
                if next % 2 == 0 {
                    w.completed(&done(c));
                }
                want.push(NodeId(next));
                next += 1;
            }
            let (f, p) = flush(&mut w);
            pages.extend(p);
            // Odd children of the previous round complete now: their ends are late.
            if round > 0 {
                assert!(f.ends.is_empty() || f.ends.iter().all(|e| e.0 .0 % 2 == 1));
            }
            for id in (next - 700..next).filter(|i| i % 2 == 1) {
                w.completed(&done(row(id, 1)));
            }
            flushes.push(f);
        }
        w.completed(&done(p));
        let (f, p) = flush(&mut w);
        flushes.push(f);
        pages.extend(p);
        assert_eq!(chunked(&flushes, 1), want);
        // Every odd child's end is in `ends`, exactly once; no even child's.
        let ends: Vec<u32> = flushes
            .iter()
            .flat_map(|f| f.ends.iter().map(|e| e.0 .0))
            .collect();
        let mut odd: Vec<u32> = want.iter().map(|i| i.0).filter(|i| i % 2 == 1).collect();
        odd.push(1);
        let mut sorted = ends.clone();
        sorted.sort_unstable();
        odd.sort_unstable();
        assert_eq!(sorted, odd);
        // Pages tile the ids in order, and a node complete in its page carries its end.
        let mut expect = 1;
        for (first, last, raw) in &pages {
            assert_eq!(first.0, expect);
            let page = decode_page(&compress(raw)).unwrap();
            for (i, r) in page.rows.iter().enumerate() {
                assert_eq!(r.header.id.0, expect);
                expect += 1;
                assert_eq!(page.open(i), r.header.id.0 % 2 == 1, "node {}", r.header.id);
            }
            assert_eq!(last.0, expect - 1);
        }
        assert_eq!(expect, next);
        // The parent's completed state: nothing left to write.
        assert_eq!(flush(&mut w), (NodeFlush::default(), Vec::new()));
    }

    #[test]
    fn a_node_complete_in_its_window_has_its_children_in_its_page() {
        let mut w = NodeWindow::default();
        let rows = [row(0, 0), row(1, 0), row(2, 1), row(3, 1), row(4, 0)];
        let mut first = rows[0].clone();
        first.header.parent = None;
        w.started(first.clone());
        for r in &rows[1..] {
            w.started(r.clone());
        }
        for r in [&rows[2], &rows[3], &rows[1], &rows[4]] {
            w.completed(&done(r.clone()));
        }
        let (f, pages) = flush(&mut w);
        assert_eq!(pages.len(), 1);
        let page = decode_page(&compress(&pages[0].2)).unwrap();
        assert_eq!(page.children(1), Some(&[NodeId(2), NodeId(3)][..]));
        assert_eq!(page.children(2), Some(&[][..]));
        // The root stayed open: its children are a chunk.
        assert!(page.open(0));
        assert_eq!(chunked(&[f], 0), [NodeId(1), NodeId(4)]);
    }
}
