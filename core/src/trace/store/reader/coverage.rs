//! Coverage entities of nodes (`node_coverage`, `coverage_entities`; see `crate::coverage`).

use rusqlite::OptionalExtension;

use super::TraceReader;
use crate::coverage::Entity;
use crate::ids::NodeId;
use crate::trace::store::error::StoreResult;
use crate::trace::wire::ByteReader;
use crate::tree::CoverageKind;

/// The `node_coverage` column of `kind` (a fixed name, never from input).
fn column(kind: CoverageKind) -> &'static str {
    match kind {
        CoverageKind::Edge => "edges",
        CoverageKind::DefUse => "def_uses",
    }
}

impl TraceReader {
    fn decode_ids(&self, node: NodeId, data: &[u8]) -> StoreResult<Vec<u32>> {
        let mut r = ByteReader::new(data);
        let mut ids = Vec::new();
        let mut prev = 0u32;
        while !r.is_empty() {
            let d = r
                .varint32("entity id delta")
                .map_err(|e| self.corrupt(&format!("coverage of node {node}"), e.problem))?;
            prev = prev.wrapping_add(d);
            ids.push(prev);
        }
        Ok(ids)
    }

    /// The entities of `kind` that node `node` covered itself (not its callees), sorted; empty
    /// for a node without coverage (incomplete, external, or recorded without block tables).
    pub fn coverage(&self, node: NodeId, kind: CoverageKind) -> StoreResult<Vec<u32>> {
        let data: Option<Vec<u8>> = self
            .conn
            .prepare_cached(&format!(
                "SELECT s.entities FROM node_coverage n JOIN coverage_sets s ON s.id = n.{}
                 WHERE n.node = ?1",
                column(kind)
            ))
            .and_then(|mut s| s.query_row([i64::from(node.0)], |r| r.get(0)).optional())
            .map_err(self.err("reading a node's coverage"))?;
        match data {
            Some(d) => self.decode_ids(node, &d),
            None => Ok(Vec::new()),
        }
    }

    /// Every node's entities of `kind`, in node order (one pass, for building a session).
    pub fn all_coverage(&self, kind: CoverageKind) -> StoreResult<Vec<(NodeId, Vec<u32>)>> {
        let mut st = self
            .conn
            .prepare_cached(&format!(
                "SELECT n.node, s.entities FROM node_coverage n JOIN coverage_sets s ON s.id = n.{}
                 ORDER BY n.node",
                column(kind)
            ))
            .map_err(self.err("reading coverage"))?;
        let rows = st
            .query_map([], |r| Ok((NodeId(r.get(0)?), r.get::<_, Vec<u8>>(1)?)))
            .map_err(self.err("reading coverage"))?;
        let mut out = Vec::new();
        for row in rows {
            let (node, data) = row.map_err(self.err("reading coverage"))?;
            let ids = self.decode_ids(node, &data)?;
            out.push((node, ids));
        }
        Ok(out)
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
