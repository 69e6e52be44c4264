//! Coverage entities of nodes (`node_coverage`, `coverage_entities`; see `crate::coverage`).

use rusqlite::OptionalExtension;

use super::TraceReader;
use crate::coverage::{Entity, NodeCoverage};
use crate::ids::NodeId;
use crate::trace::store::error::StoreResult;
use crate::trace::wire::{ByteReader, ParseError, ParseResult};
use crate::tree::CoverageKind;

/// Decodes a coverage page (`CoveragePage::encode`) into `(node, edges, def-use chains)`.
fn decode_page(data: &[u8]) -> ParseResult<Vec<(NodeId, NodeCoverage)>> {
    let raw = lz4_flex::decompress_size_prepended(data).map_err(|e| ParseError {
        at: 0,
        problem: format!("coverage page does not decompress: {e}"),
    })?;
    let mut r = ByteReader::new(&raw);
    let mut out = Vec::new();
    let mut node = 0u32;
    while !r.is_empty() {
        node = node.wrapping_add(r.varint32("node delta")?);
        let mut lists = [Vec::new(), Vec::new()];
        for list in &mut lists {
            let n = r.count("entity count", 1)?;
            let mut prev = 0u32;
            for _ in 0..n {
                prev = prev.wrapping_add(r.varint32("entity id delta")?);
                list.push(prev);
            }
        }
        let [edges, def_uses] = lists;
        out.push((NodeId(node), NodeCoverage { edges, def_uses }));
    }
    Ok(out)
}

fn pick(c: NodeCoverage, kind: CoverageKind) -> Vec<u32> {
    match kind {
        CoverageKind::Edge => c.edges,
        CoverageKind::DefUse => c.def_uses,
    }
}

impl TraceReader {
    fn pages(&self, sql: &str, node: Option<NodeId>) -> StoreResult<Vec<(NodeId, NodeCoverage)>> {
        let mut st = self
            .conn
            .prepare_cached(sql)
            .map_err(self.err("reading coverage"))?;
        let params: Vec<i64> = node.map(|n| i64::from(n.0)).into_iter().collect();
        let blobs: Vec<(i64, Vec<u8>)> = st
            .query_map(rusqlite::params_from_iter(params), |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .and_then(|rows| rows.collect())
            .map_err(self.err("reading coverage"))?;
        let mut out = Vec::new();
        for (id, data) in blobs {
            let page = decode_page(&data)
                .map_err(|e| self.corrupt(&format!("coverage page {id}"), e.problem))?;
            out.extend(
                page.into_iter()
                    .filter(|(n, _)| node.is_none_or(|x| x == *n)),
            );
        }
        Ok(out)
    }

    /// The entities of `kind` that node `node` covered itself (not its callees), sorted; empty
    /// for a node without coverage (incomplete, external, or recorded without block tables).
    pub fn coverage(&self, node: NodeId, kind: CoverageKind) -> StoreResult<Vec<u32>> {
        let found = self.pages(
            "SELECT id, data FROM coverage_pages WHERE first_node <= ?1 AND last_node >= ?1",
            Some(node),
        )?;
        Ok(found
            .into_iter()
            .next()
            .map_or_else(Vec::new, |(_, c)| pick(c, kind)))
    }

    /// Every node's non-empty entities of `kind`, in node order (one pass over the pages).
    pub fn all_coverage(&self, kind: CoverageKind) -> StoreResult<Vec<(NodeId, Vec<u32>)>> {
        let mut all: Vec<(NodeId, Vec<u32>)> = self
            .pages("SELECT id, data FROM coverage_pages", None)?
            .into_iter()
            .map(|(n, c)| (n, pick(c, kind)))
            .filter(|(_, ids)| !ids.is_empty())
            .collect();
        all.sort_by_key(|(n, _)| *n);
        Ok(all)
    }

    /// What entity id `id` stands for.
    pub fn entity(&self, id: u32) -> StoreResult<Option<Entity>> {
        let row: Option<[i64; 6]> = self
            .conn
            .prepare_cached("SELECT kind, method, a, b, c, d FROM coverage_entities WHERE id = ?1")
            .and_then(|mut s| {
                s.query_row([i64::from(id)], |r| {
                    Ok([
                        r.get(0)?,
                        r.get(1)?,
                        r.get(2)?,
                        r.get(3)?,
                        r.get(4)?,
                        r.get(5)?,
                    ])
                })
                .optional()
            })
            .map_err(self.err("reading a coverage entity"))?;
        match row {
            Some(r) => Entity::from_row(r)
                .map(Some)
                .ok_or_else(|| self.corrupt(&format!("coverage entity {id}"), "unknown kind")),
            None => Ok(None),
        }
    }
}
