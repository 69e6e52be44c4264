//! Parts of the execution tree: a call's subtree with each call's arguments and results
//! (JavaTA's call tree, `call-tree CALL`), and the node rows of a subtree to a depth, for
//! `hindsight tree --from NODE --depth N --limit N`. Read through the children index, page by
//! page: the cost is the nodes listed, not the run.

use serde::Serialize;

use super::chain::is_call;
use super::error::QueryResult;
use super::refs::{CallInfo, Calls};
use crate::ids::NodeId;
use crate::omniscient::OmniError;
use crate::trace::store::{NodeRow, TraceReader};

/// Children read per query.
const PAGE: u64 = 256;

/// Visits the nodes of `from`'s subtree in preorder, down to `depth` levels below it (`None`:
/// all), each with its depth below `from` (0 for `from`). `visit` returns `false` to stop.
/// Returns whether nodes were left out by the depth bound.
pub fn walk_subtree(
    reader: &TraceReader,
    from: NodeId,
    depth: Option<u32>,
    mut visit: impl FnMut(&NodeRow, u32) -> QueryResult<bool>,
) -> QueryResult<bool> {
    let root = reader.node(from)?.ok_or(OmniError::NoCall(from))?;
    if !visit(&root, 0)? {
        return Ok(false);
    }
    let mut cut = false;
    // Each level: the node whose children are listed and the offset of the next page.
    let mut stack: Vec<(NodeId, u64, std::collections::VecDeque<NodeRow>)> =
        vec![(from, 0, Default::default())];
    loop {
        let level = stack.len() as u32;
        let Some((parent, offset, buffer)) = stack.last_mut() else {
            break;
        };
        if buffer.is_empty() {
            let page = reader.children(*parent, *offset, PAGE)?;
            *offset += page.len() as u64;
            if page.is_empty() {
                stack.pop();
                continue;
            }
            buffer.extend(page);
        }
        let Some(child) = buffer.pop_front() else {
            continue;
        };
        if depth.is_some_and(|d| level > d) {
            cut = true;
            stack.pop();
            continue;
        }
        if !visit(&child, level)? {
            return Ok(cut);
        }
        stack.push((child.header.id, 0, Default::default()));
    }
    Ok(cut)
}

/// A call with the calls it made.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CallTreeNode {
    #[serde(flatten)]
    pub call: CallInfo,
    pub children: Vec<CallTreeNode>,
    /// Children not listed (beyond `--depth` or `--limit`).
    pub omitted: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CallTree {
    pub root: CallTreeNode,
    /// Calls listed in all.
    pub listed: usize,
}

/// `call-tree CALL [--depth N] [--limit N]`: the calls CALL made, to `depth` levels, at most
/// `limit` calls in all (the first ones in preorder).
pub fn call_tree(
    reader: &TraceReader,
    node: NodeId,
    depth: u32,
    limit: usize,
) -> QueryResult<CallTree> {
    let mut calls = Calls::new(reader);
    let root_call = calls.call(node, None)?.ok_or(OmniError::NoCall(node))?;
    let mut path: Vec<CallTreeNode> = vec![CallTreeNode {
        call: root_call,
        children: Vec::new(),
        omitted: 0,
    }];
    let mut listed = 1usize;
    // Children counts, to say how many were left out.
    let mut counted: Vec<u64> = vec![reader.child_count(node)?];
    let fold = |path: &mut Vec<CallTreeNode>, counted: &mut Vec<u64>| {
        let done = path.pop().expect("a node on the path");
        let n = counted.pop().unwrap_or(0);
        let mut done = done;
        done.omitted = n.saturating_sub(done.children.len() as u64);
        if let Some(parent) = path.last_mut() {
            parent.children.push(done);
            None
        } else {
            Some(done)
        }
    };
    walk_subtree(reader, node, Some(depth), |row, level| {
        if level == 0 {
            return Ok(true);
        }
        while path.len() > level as usize {
            fold(&mut path, &mut counted);
        }
        if listed >= limit || !is_call(row.header.kind) {
            return Ok(listed < limit);
        }
        if let Some(c) = calls.call(row.header.id, None)? {
            listed += 1;
            counted.push(reader.child_count(row.header.id)?);
            path.push(CallTreeNode {
                call: c,
                children: Vec::new(),
                omitted: 0,
            });
        }
        Ok(true)
    })?;
    let mut root = None;
    while !path.is_empty() {
        root = fold(&mut path, &mut counted);
    }
    Ok(CallTree {
        root: root.expect("the root folds last"),
        listed,
    })
}
