//! The part of a commit that needs no SQLite: compressing event blocks, sorting and encoding
//! the change index into pages, encoding node pages (with each complete node's children) and
//! coverage pages. It runs on the store's thread pool (rayon), in parallel within a commit and,
//! when the writer pipelines, while the recorder goes on with the next commit's events; the
//! writer then inserts what it produced.

use rayon::prelude::*;

use super::block::EncodedBlock;
use super::index::{IndexEntry, Page, PageWriter};
use super::node_pages;
use super::node_window::NodeFlush;
use super::WriteCounts;
use crate::ids::{NodeId, Timestamp};
use crate::trace::wire::put_varint;

/// What a commit hands to `seal`.
#[derive(Default)]
pub struct Batch {
    /// Blocks with their events uncompressed.
    pub blocks: Vec<EncodedBlock>,
    pub index: Vec<IndexEntry>,
    pub nodes: NodeFlush,
    /// Coverage pages: completed nodes' entities.
    pub coverage: Vec<CoveragePage>,
    /// The counts once this batch is stored.
    pub counts: WriteCounts,
}

/// A sealed batch, ready for its inserts.
pub struct Sealed {
    pub blocks: Vec<EncodedBlock>,
    /// `(first_ts, last_ts, writes, pages)` of the change index segment, when it has writes.
    pub segment: Option<(Timestamp, Timestamp, u64, Vec<Page>)>,
    /// The node window's chunks and ends (its rows are in `node_pages`).
    pub nodes: NodeFlush,
    /// `(first node, last node, compressed page)` of the node pages.
    pub node_pages: Vec<(NodeId, NodeId, Vec<u8>)>,
    /// `(first node, last node, compressed page)`.
    pub coverage: Vec<(NodeId, NodeId, Vec<u8>)>,
    pub counts: WriteCounts,
}

/// Entries per piece of a segment encoded on its own (pieces are cut where a variable ends).
const INDEX_PIECE: usize = 1 << 16;

/// Seals a batch; with `parallel`, on the current rayon pool's threads.
pub fn seal(mut batch: Batch, page_bytes: usize, parallel: bool) -> Sealed {
    let blocks = std::mem::take(&mut batch.blocks);
    let entries = std::mem::take(&mut batch.index);
    let rows = std::mem::take(&mut batch.nodes.rows);
    let coverage = std::mem::take(&mut batch.coverage);
    let compress_block = |mut b: EncodedBlock| {
        b.data = lz4_flex::compress_prepend_size(&b.data);
        b
    };
    let compress_nodes =
        |(first, last, raw): (NodeId, NodeId, Vec<u8>)| (first, last, node_pages::compress(&raw));
    let coverage_page = |page: CoveragePage| {
        let (first, last, raw) = page.encode()?;
        Some((first, last, lz4_flex::compress_prepend_size(&raw)))
    };
    let ((blocks, segment), (node_pages, coverage)) = if parallel {
        rayon::join(
            || {
                rayon::join(
                    || blocks.into_par_iter().map(compress_block).collect(),
                    || segment(entries, page_bytes, true),
                )
            },
            || {
                rayon::join(
                    || {
                        rows.encode(true)
                            .into_par_iter()
                            .map(compress_nodes)
                            .collect()
                    },
                    || coverage.into_par_iter().filter_map(coverage_page).collect(),
                )
            },
        )
    } else {
        (
            (
                blocks.into_iter().map(compress_block).collect(),
                segment(entries, page_bytes, false),
            ),
            (
                rows.encode(false).into_iter().map(compress_nodes).collect(),
                coverage.into_iter().filter_map(coverage_page).collect(),
            ),
        )
    };
    Sealed {
        blocks,
        segment,
        nodes: batch.nodes,
        node_pages,
        coverage,
        counts: batch.counts,
    }
}

/// Sorts a segment's entries by (variable, timestamp) and cuts them into pages: pieces of
/// about `INDEX_PIECE` entries, each ending where a variable ends, are encoded side by side
/// (a page never spans two pieces, so the result does not depend on the number of threads
/// beyond where pages are cut).
fn segment(
    mut entries: Vec<IndexEntry>,
    page_bytes: usize,
    parallel: bool,
) -> Option<(Timestamp, Timestamp, u64, Vec<Page>)> {
    if entries.is_empty() {
        return None;
    }
    let first = entries.iter().map(|e| e.ts).min().unwrap_or(0);
    let last = entries.iter().map(|e| e.ts).max().unwrap_or(0);
    sort_entries(&mut entries, parallel);
    let mut cuts = vec![0];
    let mut at = INDEX_PIECE;
    while at < entries.len() {
        let k = entries[at - 1].key;
        while at < entries.len() && entries[at].key == k {
            at += 1;
        }
        if at < entries.len() {
            cuts.push(at);
        }
        at += INDEX_PIECE;
    }
    cuts.push(entries.len());
    let piece = |w: &[usize]| {
        let mut pw = PageWriter::new(first, page_bytes);
        let mut pages = Vec::new();
        for e in &entries[w[0]..w[1]] {
            pages.extend(pw.push(e));
        }
        pages.extend(pw.finish());
        pages
    };
    let pages: Vec<Page> = if parallel {
        cuts.par_windows(2).flat_map_iter(piece).collect()
    } else {
        cuts.windows(2).flat_map(piece).collect()
    };
    Some((first, last, entries.len() as u64, pages))
}

/// Sorts entries by (variable, timestamp). Most are locals, keyed by their call's node, and a
/// commit's nodes are a short range of ids: those are placed by a counting sort on the node
/// (two passes), then each node's few entries sorted by (var, timestamp); the other
/// variables (fields, elements, statics) are sorted as a whole. Locals sort last (`Key::kind`
/// 3), so the two parts are concatenated.
fn sort_entries(entries: &mut Vec<IndexEntry>, parallel: bool) {
    const LOCAL: u8 = 3;
    let key = |e: &IndexEntry| (e.key.packed(), e.ts);
    let (mut lo, mut hi, mut locals) = (u64::MAX, 0u64, 0usize);
    for e in entries.iter().filter(|e| e.key.kind == LOCAL) {
        lo = lo.min(e.key.a);
        hi = hi.max(e.key.a);
        locals += 1;
    }
    let range = hi.saturating_sub(lo).saturating_add(1);
    if locals < 1024 || range > 4 * locals as u64 {
        if parallel {
            entries.par_sort_unstable_by_key(key);
        } else {
            entries.sort_unstable_by_key(key);
        }
        return;
    }
    // Where each node's entries start among the locals, after the other variables.
    let others = entries.len() - locals;
    let mut start = vec![0u32; range as usize + 1];
    for e in entries.iter().filter(|e| e.key.kind == LOCAL) {
        start[(e.key.a - lo) as usize + 1] += 1;
    }
    let mut at = others as u32;
    for s in start.iter_mut() {
        at += *s;
        *s = at;
    }
    let mut sorted: Vec<IndexEntry> = Vec::with_capacity(entries.len());
    sorted.extend(entries.iter().filter(|e| e.key.kind != LOCAL).copied());
    sorted.resize(entries.len(), entries[0]);
    let mut fill = start.clone();
    for e in entries.iter().filter(|e| e.key.kind == LOCAL) {
        let slot = &mut fill[(e.key.a - lo) as usize];
        sorted[*slot as usize] = *e;
        *slot += 1;
    }
    let (heap, by_node) = sorted.split_at_mut(others);
    if parallel {
        heap.par_sort_unstable_by_key(key);
    } else {
        heap.sort_unstable_by_key(key);
    }
    for w in start.windows(2) {
        let node = &mut by_node[(w[0] as usize - others)..(w[1] as usize - others)];
        if node.len() > 1 {
            node.sort_unstable_by_key(|e| (e.key.b, e.ts));
        }
    }
    *entries = sorted;
}

/// The coverage of up to `COVERAGE_PAGE` completed nodes, copied flat (no vector per node).
#[derive(Default)]
pub struct CoveragePage {
    /// `(node, start in ids, edges, def-use chains)`.
    nodes: Vec<(NodeId, u32, u32, u32)>,
    ids: Vec<u32>,
}

impl CoveragePage {
    pub fn push(&mut self, node: NodeId, edges: &[u32], def_uses: &[u32]) {
        let start = self.ids.len() as u32;
        self.ids.extend_from_slice(edges);
        self.ids.extend_from_slice(def_uses);
        self.nodes
            .push((node, start, edges.len() as u32, def_uses.len() as u32));
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The first and last node and the page before compression: per node (in node order)
    /// `node delta:varint nedges:varint edge deltas ndefuses:varint def-use deltas`, ids as
    /// varint deltas of the sorted list.
    pub fn encode(mut self) -> Option<(NodeId, NodeId, Vec<u8>)> {
        self.nodes.sort_unstable_by_key(|n| n.0);
        let first = self.nodes.first()?.0;
        let last = self.nodes.last()?.0;
        let mut out = Vec::with_capacity(self.ids.len() + 3 * self.nodes.len());
        let mut prev_node = 0u32;
        for &(node, start, edges, def_uses) in &self.nodes {
            put_varint(&mut out, u64::from(node.0.wrapping_sub(prev_node)));
            prev_node = node.0;
            let (s, e) = (start as usize, (start + edges) as usize);
            for ids in [&self.ids[s..e], &self.ids[e..e + def_uses as usize]] {
                put_varint(&mut out, ids.len() as u64);
                let mut prev = 0u32;
                for &id in ids {
                    put_varint(&mut out, u64::from(id.wrapping_sub(prev)));
                    prev = id;
                }
            }
        }
        Some((first, last, out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::{FieldId, ObjectId};
    use crate::trace::store::block::StackEntry;
    use crate::trace::store::index::Variable;
    use crate::trace::wire::Value;

    /// Entries as a commit buffers them: mostly locals of a range of nodes, some of an old
    /// node still running, fields and elements, timestamps mostly but not always increasing.
    fn entries(seed: u64, n: usize, nodes: u64) -> Vec<IndexEntry> {
        let mut rng = crate::trace::wire::tests_rng(seed);
        (0..n)
            .map(|i| {
                let var = match rng.below(10) {
                    0 => Variable::Field {
                        object: ObjectId(rng.below(50)),
                        field: FieldId(rng.below(3) as u32),
                    },
                    1 => Variable::Element {
                        array: ObjectId(rng.below(5)),
                        index: rng.below(20) as u32,
                    },
                    2 => Variable::Local {
                        node: crate::ids::NodeId(3),
                        var: rng.below(4) as u32,
                    },
                    _ => Variable::Local {
                        node: crate::ids::NodeId((1000 + rng.below(nodes)) as u32),
                        var: rng.below(6) as u32,
                    },
                };
                IndexEntry {
                    key: var.key(),
                    // Unique, and a few out of order.
                    ts: (i as u64 * 4 + rng.below(9)) * 32 + i as u64 % 32,
                    value: Value::Int(i as i32),
                    by: StackEntry {
                        node: crate::ids::NodeId(1),
                        line: 0,
                    },
                }
            })
            .collect()
    }

    #[test]
    fn entries_sort_by_variable_and_timestamp_whichever_way() {
        for (seed, n, nodes) in [
            (1, 5000, 300),
            (2, 20_000, 5000),
            (3, 3000, 1 << 20),
            (4, 100, 10),
        ] {
            for parallel in [false, true] {
                let mut got = entries(seed, n, nodes);
                let mut want = got.clone();
                want.sort_by_key(|e| (e.key.packed(), e.ts));
                sort_entries(&mut got, parallel);
                let key = |e: &IndexEntry| (e.key, e.ts, e.value);
                assert!(
                    got.iter().map(key).eq(want.iter().map(key)),
                    "seed {seed}, {n} entries over {nodes} nodes"
                );
            }
        }
    }
}
