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

/// Sorts entries by (variable, timestamp). A segment's entries come in time order (unless a
/// write waited for its object, `FIELD_WRITE_UNINIT`), so a stable sort by variable alone is
/// enough: a radix sort of the variables packed into 64 bits, which costs a few passes over
/// small pairs instead of a comparison sort's log n passes over whole entries (that sort was
/// a tenth of the store's CPU). Anything else takes the comparison sort.
fn sort_entries(entries: &mut Vec<IndexEntry>, parallel: bool) {
    let in_time = entries.windows(2).all(|w| w[0].ts <= w[1].ts);
    if in_time && radix_by_variable(entries) {
        return;
    }
    let key = |e: &IndexEntry| (e.key.packed(), e.ts);
    if parallel {
        entries.par_sort_unstable_by_key(key);
    } else {
        entries.sort_unstable_by_key(key);
    }
}

/// The stable radix sort of `sort_entries`, or `false` (entries untouched) when the variables
/// do not pack into 64 bits or there are more than 2^32 entries.
fn radix_by_variable(entries: &mut Vec<IndexEntry>) -> bool {
    let n = entries.len();
    let (mut kinds, mut a, mut b) = (0u64, 0u64, 0u64);
    for e in entries.iter() {
        kinds |= u64::from(e.key.kind);
        a |= e.key.a;
        b |= u64::from(e.key.b);
    }
    let width = |x: u64| 64 - x.leading_zeros();
    let (wa, wb) = (width(a), width(b));
    let bits = width(kinds) + wa + wb;
    if bits > 64 || u32::try_from(n).is_err() {
        return false;
    }
    let pack = |e: &IndexEntry| {
        let kind = u64::from(e.key.kind).checked_shl(wa + wb).unwrap_or(0);
        kind | e.key.a.checked_shl(wb).unwrap_or(0) | u64::from(e.key.b)
    };
    let mut pairs: Vec<(u64, u32)> = entries
        .iter()
        .enumerate()
        .map(|(i, e)| (pack(e), i as u32))
        .collect();
    let digits = bits.div_ceil(8) as usize;
    let mut counts = vec![[0u32; 256]; digits];
    for &(k, _) in &pairs {
        for (d, c) in counts.iter_mut().enumerate() {
            c[((k >> (8 * d)) & 0xFF) as usize] += 1;
        }
    }
    let mut spare = vec![(0u64, 0u32); n];
    for (d, c) in counts.iter().enumerate() {
        if c.iter().any(|&x| x as usize == n) {
            continue; // one value of this digit: the pass would change nothing
        }
        let mut next = [0u32; 256];
        let mut at = 0;
        for (slot, &x) in next.iter_mut().zip(c) {
            *slot = at;
            at += x;
        }
        for &p in &pairs {
            let slot = &mut next[((p.0 >> (8 * d)) & 0xFF) as usize];
            spare[*slot as usize] = p;
            *slot += 1;
        }
        std::mem::swap(&mut pairs, &mut spare);
    }
    let sorted = pairs.iter().map(|&(_, i)| entries[i as usize]).collect();
    *entries = sorted;
    true
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
    fn entries(seed: u64, n: usize, nodes: u64, in_time: bool) -> Vec<IndexEntry> {
        let mut rng = crate::trace::wire::tests_rng(seed);
        (0..n)
            .map(|i| {
                let var = match rng.below(10) {
                    0 => Variable::Field {
                        object: ObjectId(rng.below(50) << (nodes >> 20)),
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
                    // Unique, and a few out of order unless `in_time`.
                    ts: if in_time {
                        i as u64 * 3
                    } else {
                        (i as u64 * 4 + rng.below(9)) * 32 + i as u64 % 32
                    },
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
            // Object ids too wide to pack with the other parts: the comparison sort.
            (5, 2000, 60 << 20),
        ] {
            for (parallel, in_time) in [(false, false), (true, false), (false, true)] {
                let mut got = entries(seed, n, nodes, in_time);
                let mut want = got.clone();
                want.sort_by_key(|e| (e.key.packed(), e.ts));
                sort_entries(&mut got, parallel);
                let key = |e: &IndexEntry| (e.key, e.ts, e.value);
                assert!(
                    got.iter().map(key).eq(want.iter().map(key)),
                    "seed {seed}, {n} entries over {nodes} nodes, in time {in_time}"
                );
            }
        }
    }
}
