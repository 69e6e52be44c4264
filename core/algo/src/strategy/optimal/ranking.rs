//! Optimal edge ranking of a rooted tree: the worst-case-optimal way to search it with edge
//! queries.
//!
//! Asking "is node v right?" splits the suspects into v's subtree and the rest: a query on the
//! edge above v. A strategy that finds any target vertex with at most k queries is an *edge
//! ranking* with k labels (labels on edges such that two edges with the same label have a larger
//! one on the path between them; the largest label is asked first, then recursively in the part
//! the answer keeps), so the fewest questions in the worst case is the tree's edge-ranking
//! number (Lam & Yue, Algorithmica 2001; Mozes, Onak & Weimann, SODA 2008).
//!
//! The ranking is computed bottom-up. The *visible list* of a subtree is the set of labels seen
//! from its root: an edge's label is visible when no edge between the root and it has a larger
//! one. Lists compare as binary numbers (Σ 2^label), and the ranking keeps at every vertex the
//! smallest list its subtree allows; given the children's smallest lists, the parent's is the
//! best choice of the labels x_i of the edges to its children, which [`combine`] makes:
//!
//! - child i then shows V_i = {x_i} ∪ {s ∈ L_i : s > x_i} (x_i ∉ L_i), the V_i must be
//!   disjoint, and the parent's list is their union;
//! - bits are decided from the top: a child is *open* while its edge has no label yet, and an
//!   open child's list occupies its bits. At a *free* bit (in no open list) the least list is
//!   kept by closing no child unless the open ones could not all be closed below it; a child is
//!   closed (its edge labelled with the bit, hiding its labels below) only when it must be;
//! - whether the open children can still be closed from bit t down is decided greedily: at
//!   every free bit close the child whose list below it is largest; a bit in two open lists
//!   fails (`closable`).
//!
//! Both greedy choices are checked against exhaustive search (every label choice of every
//! child, every strategy on every tree of up to 10 nodes) in the tests. Pure code, no IO.

use std::collections::BinaryHeap;

/// A visible list: labels (≥ 1), strictly decreasing.
pub type Labels = Vec<u32>;

/// The smallest list of a vertex whose children show `children` (their own smallest lists),
/// and the label of the edge to each child, in the same order.
pub fn combine(children: &[&[u32]]) -> (Labels, Vec<u32>) {
    match children {
        [] => (Vec::new(), Vec::new()),
        [only] => {
            let x = smallest_missing(only);
            let mut list = vec![x];
            list.splice(0..0, only.iter().copied().filter(|&s| s > x));
            (list, vec![x])
        }
        _ => Combine::new(children).run(),
    }
}

/// The smallest label ≥ 1 not in `list` (decreasing).
fn smallest_missing(list: &[u32]) -> u32 {
    let mut x = 1;
    for &s in list.iter().rev() {
        if s == x {
            x += 1;
        } else if s > x {
            break;
        }
    }
    x
}

/// Children with equal lists, which every choice treats alike: `open` of them are still open,
/// and their labels not decided yet start at `cursor`.
#[derive(Clone, Copy)]
struct Group<'a> {
    list: &'a [u32],
    cursor: usize,
    open: u32,
}

impl<'a> Group<'a> {
    fn rest(&self) -> &'a [u32] {
        &self.list[self.cursor..]
    }
}

/// One vertex's label choice (see the module documentation), over groups of equal lists so
/// that a vertex with many alike children (leaves, a loop's calls) costs what its distinct
/// lists cost.
struct Combine<'a> {
    groups: Vec<Group<'a>>,
    /// Per group, its children (indices into the input), the open ones last.
    members: Vec<Vec<usize>>,
    labels: Vec<u32>,
    /// The vertex's list, decreasing.
    out: Labels,
}

impl<'a> Combine<'a> {
    fn new(lists: &'a [&'a [u32]]) -> Self {
        let mut order: Vec<usize> = (0..lists.len()).collect();
        order.sort_by(|&a, &b| lists[b].cmp(lists[a]).then(b.cmp(&a)));
        let mut groups: Vec<Group<'a>> = Vec::new();
        let mut members: Vec<Vec<usize>> = Vec::new();
        for j in order {
            match groups.last_mut() {
                Some(g) if g.list == lists[j] => {
                    g.open += 1;
                    members.last_mut().expect("one per group").push(j);
                }
                _ => {
                    groups.push(Group {
                        list: lists[j],
                        cursor: 0,
                        open: 1,
                    });
                    members.push(vec![j]);
                }
            }
        }
        Combine {
            groups,
            members,
            labels: vec![0; lists.len()],
            out: Vec::new(),
        }
    }

    fn run(mut self) -> (Labels, Vec<u32>) {
        let highest = self.groups.iter().filter_map(|g| g.list.first()).max();
        let children: u32 = self.groups.iter().map(|g| g.open).sum();
        // Closing every child above all lists always works.
        let mut c = highest.copied().unwrap_or(0) + children;
        loop {
            let open: Vec<usize> = (0..self.groups.len())
                .filter(|&g| self.groups[g].open > 0)
                .collect();
            if open.iter().all(|&g| self.groups[g].rest().is_empty()) {
                // Nothing left below: the remaining children take the lowest bits.
                let mut x = open.iter().map(|&g| self.groups[g].open).sum::<u32>();
                for g in open {
                    while self.groups[g].open > 0 {
                        self.close(g, x);
                        x -= 1;
                    }
                }
                return (self.out, self.labels);
            }
            // Closing must happen above the highest bit two open children share: below it, at
            // the lowest start from which the open children can all be closed. That start is a
            // free bit (from an occupied one the greedy goes on as from the bit below it).
            let (mut lo, mut hi) = (self.highest_shared(&open), c);
            while hi - lo > 1 {
                let mid = lo + (hi - lo) / 2;
                if closable(&self.groups, &open, mid) {
                    hi = mid;
                } else {
                    lo = mid;
                }
            }
            let at = hi;
            // The open children's labels above `at` stay visible.
            let mut kept = Vec::new();
            for &g in &open {
                let group = &mut self.groups[g];
                while group.cursor < group.list.len() && group.list[group.cursor] > at {
                    kept.push(group.list[group.cursor]);
                    group.cursor += 1;
                }
            }
            kept.sort_unstable_by(|a, b| b.cmp(a));
            self.out.extend(kept);
            let largest = open
                .iter()
                .copied()
                .max_by(|&a, &b| self.groups[a].rest().cmp(self.groups[b].rest()))
                .expect("open children remain");
            self.close(largest, at);
            c = at - 1;
        }
    }

    /// Labels an open child of group `g` with `x`.
    fn close(&mut self, g: usize, x: u32) {
        let group = &mut self.groups[g];
        group.open -= 1;
        let child = self.members[g][group.open as usize];
        self.labels[child] = x;
        self.out.push(x);
    }

    /// The highest bit in two open children's lists, or 0.
    fn highest_shared(&self, open: &[usize]) -> u32 {
        let mut seen: Vec<u32> = Vec::new();
        for &g in open {
            let rest = self.groups[g].rest();
            seen.extend(rest);
            if self.groups[g].open > 1 {
                seen.extend(rest.first());
            }
        }
        seen.sort_unstable_by(|a, b| b.cmp(a));
        seen.windows(2).find(|w| w[0] == w[1]).map_or(0, |w| w[0])
    }
}

/// Whether the open children of `groups` (those listed in `open`) can all be closed with bits
/// `start`, `start - 1`, ..., 1, their labels above `start` taken as decided: at every free bit
/// a child whose list below it is largest is closed (a bit in one open list is occupied; a bit
/// in two fails).
fn closable(groups: &[Group], open: &[usize], start: u32) -> bool {
    // Max-heap of the open groups' remaining labels, compared as binary numbers.
    let mut heap: BinaryHeap<(Rest, u32)> = BinaryHeap::with_capacity(open.len());
    let mut exhausted = 0u32;
    for &g in open {
        let group = &groups[g];
        let rest = group.rest();
        let rest = &rest[rest.partition_point(|&s| s > start)..];
        if rest.is_empty() {
            exhausted += group.open;
        } else {
            heap.push((Rest(rest), group.open));
        }
    }
    let mut b = start;
    while b > 0 {
        let Some((Rest(rest), open)) = heap.pop() else {
            // Only children with nothing left below: each takes one of the free bits.
            return exhausted <= b;
        };
        if rest[0] == b {
            if open > 1 || heap.peek().is_some_and(|o| o.0 .0[0] == b) {
                return false;
            }
            if rest.len() > 1 {
                heap.push((Rest(&rest[1..]), 1));
            } else {
                exhausted += 1;
            }
            b -= 1;
        } else {
            // Bits b down to rest[0] + 1 are free: the group's children, the largest lists
            // below them, are closed there while they last.
            let closed = open.min(b - rest[0]);
            b -= closed;
            if open > closed {
                heap.push((Rest(rest), open - closed));
            }
        }
    }
    heap.is_empty() && exhausted == 0
}

/// The remaining labels of an open child, ordered as binary numbers (decreasing slices compare
/// lexicographically exactly so).
#[derive(PartialEq, Eq, PartialOrd, Ord)]
struct Rest<'a>(&'a [u32]);

/// The optimal edge ranking of a tree given by its parents in preorder (`parent[0]` is ignored:
/// vertex 0 is the root; every other vertex's parent comes before it), kept up to date as
/// subtrees leave it.
#[derive(Clone, Debug)]
pub struct EdgeRanking {
    parent: Vec<u32>,
    children: Vec<Vec<u32>>,
    /// Per vertex, the visible list of its subtree.
    list: Vec<Labels>,
    /// Per vertex, the label of the edge to its parent (0 for the root and removed vertices).
    label: Vec<u32>,
}

impl EdgeRanking {
    pub fn new(parent: Vec<u32>) -> Self {
        let n = parent.len();
        let mut children = vec![Vec::new(); n];
        for (v, &p) in parent.iter().enumerate().skip(1) {
            children[p as usize].push(v as u32);
        }
        let mut ranking = EdgeRanking {
            parent,
            children,
            list: vec![Vec::new(); n],
            label: vec![0; n],
        };
        for v in (0..n).rev() {
            ranking.relabel(v);
        }
        ranking
    }

    /// Combines vertex `v`'s children again; returns whether its list changed.
    fn relabel(&mut self, v: usize) -> bool {
        let lists: Vec<&[u32]> = self.children[v]
            .iter()
            .map(|&c| self.list[c as usize].as_slice())
            .collect();
        let (list, labels) = combine(&lists);
        for (&c, x) in self.children[v].iter().zip(labels) {
            self.label[c as usize] = x;
        }
        let changed = list != self.list[v];
        self.list[v] = list;
        changed
    }

    /// Removes `v`'s subtree (v ≠ 0) and relabels its ancestors.
    pub fn remove(&mut self, v: u32) {
        let mut p = self.parent[v as usize] as usize;
        self.children[p].retain(|&c| c != v);
        self.label[v as usize] = 0;
        while self.relabel(p) && p != 0 {
            p = self.parent[p] as usize;
        }
    }

    /// The number of questions that find any vertex below `v` in the worst case.
    pub fn worst_case(&self, v: u32) -> u32 {
        self.list[v as usize].first().copied().unwrap_or(0)
    }

    /// The vertex below `v` whose edge has the largest label: the first question, or `None`
    /// when `v` is a leaf.
    pub fn first_query(&self, v: u32) -> Option<u32> {
        let top = self.worst_case(v);
        let mut x = v as usize;
        loop {
            // The top label is visible from `x`: on the edge to one child or inside its list.
            let &c = self.children[x].iter().find(|&&c| {
                self.label[c as usize] == top || self.list[c as usize].first() == Some(&top)
            })?;
            if self.label[c as usize] == top {
                return Some(c);
            }
            x = c as usize;
        }
    }

    /// The label of the edge above `v` (0 for the root and removed vertices).
    pub fn label(&self, v: u32) -> u32 {
        self.label[v as usize]
    }

    /// The children of `v` still in the tree.
    pub fn children(&self, v: u32) -> &[u32] {
        &self.children[v as usize]
    }
}
