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
//!   fails (`closable`);
//! - between two bits of open lists every bit is free for every open child, so the bits are
//!   taken a run at a time: in each run, the fewest children whose closing leaves the others
//!   closable below it (a binary search) are closed at its lowest bits. Children with equal
//!   lists are one group, and a vertex whose children all fit above their lists takes
//!   {k, ..., 1} at once (no list of k children is smaller), so a vertex costs about its
//!   children's distinct lists times their distinct bits, not its children squared.
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
        _ => above_every_list(children).unwrap_or_else(|| Combine::new(children).run()),
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

/// The k children of a vertex need k distinct labels, so no list is smaller than {k, ..., 1}.
/// It is reached when every child can take a label above its whole list (Hall's condition:
/// the child with the j-th highest top, counting from 0, takes k - j), which is the common
/// case of a vertex with many small children (a loop's calls, leaves).
fn above_every_list(children: &[&[u32]]) -> Option<(Labels, Vec<u32>)> {
    let k = children.len() as u32;
    let top = |i: usize| children[i].first().copied().unwrap_or(0);
    // Tops of k or more never fit: reject before sorting.
    if (0..children.len()).any(|i| top(i) >= k) {
        return None;
    }
    let mut order: Vec<usize> = (0..children.len()).collect();
    order.sort_unstable_by_key(|&i| std::cmp::Reverse(top(i)));
    let mut labels = vec![0; children.len()];
    for (j, &i) in order.iter().enumerate() {
        let x = k - j as u32;
        if top(i) >= x {
            return None;
        }
        labels[i] = x;
    }
    Some(((1..=k).rev().collect(), labels))
}

/// Children with equal lists, which every choice treats alike: `open` of them are still open,
/// and their labels not decided yet start at `cursor`.
#[derive(Clone, Copy)]
struct Group<'a> {
    list: &'a [u32],
    cursor: usize,
    open: u32,
    /// Its children are `order[first..first + open]` while open.
    first: usize,
}

impl<'a> Group<'a> {
    fn rest(&self) -> &'a [u32] {
        &self.list[self.cursor..]
    }

    fn top(&self) -> u32 {
        self.rest().first().copied().unwrap_or(0)
    }
}

/// One vertex's label choice (see the module documentation), over groups of equal lists so
/// that a vertex with many alike children costs what its distinct lists cost.
///
/// Bits are decided from the top in *runs*: between two bits of open lists every bit is free
/// for every open child, so the bit-by-bit rule ("close a child at a free bit only if the open
/// children could not all be closed below it") closes, in each run, the fewest children that
/// leave the others closable below the run, at the run's lowest bits, largest lists first. The
/// work is a binary search per run, and runs are bounded by the distinct bits of the lists.
struct Combine<'a> {
    groups: Vec<Group<'a>>,
    /// The children (indices into the input) by list, largest first: each group's are
    /// consecutive.
    order: Vec<usize>,
    labels: Vec<u32>,
    /// The vertex's list, decreasing.
    out: Labels,
}

impl<'a> Combine<'a> {
    fn new(lists: &'a [&'a [u32]]) -> Self {
        let mut order: Vec<usize> = (0..lists.len()).collect();
        order.sort_by(|&a, &b| lists[b].cmp(lists[a]));
        let mut groups: Vec<Group<'a>> = Vec::new();
        for (i, &j) in order.iter().enumerate() {
            match groups.last_mut() {
                Some(g) if g.list == lists[j] => g.open += 1,
                _ => groups.push(Group {
                    list: lists[j],
                    cursor: 0,
                    open: 1,
                    first: i,
                }),
            }
        }
        Combine {
            groups,
            order,
            labels: vec![0; lists.len()],
            out: Vec::new(),
        }
    }

    fn run(mut self) -> (Labels, Vec<u32>) {
        let children: u32 = self.groups.iter().map(|g| g.open).sum();
        let highest = self.groups.iter().map(|g| g.top()).max().unwrap_or(0);
        // Every bit above `c` is decided; from `c` down the open children can all be closed
        // (closing each above all lists always works).
        let mut c = highest + children;
        let mut open_total = children;
        while open_total > 0 {
            let (b, owner) = self.highest_open_bit();
            if b == c {
                // An open child's bit: visible, and no child can close there.
                let g = owner.expect("a bit of an open list has an owner");
                debug_assert_eq!(self.groups[g].open, 1, "two open children share bit {b}");
                self.out.push(b);
                self.groups[g].cursor += 1;
                c = b - 1;
                continue;
            }
            // The run of free bits (b, c].
            let order = self.open_by_rest();
            // Closing the `most` largest works (from `c` the greedy would); find the fewest.
            let most = (c - b).min(open_total);
            let q = if self.closable_after(&order, 0, b) {
                0
            } else {
                let (mut failing, mut works) = (0, most);
                while works - failing > 1 {
                    let mid = failing + (works - failing) / 2;
                    if self.closable_after(&order, mid, b) {
                        works = mid;
                    } else {
                        failing = mid;
                    }
                }
                works
            };
            let mut x = b + q;
            for &g in &order {
                while x > b && self.groups[g].open > 0 {
                    self.close(g, x);
                    x -= 1;
                }
            }
            open_total -= q;
            c = b;
        }
        (self.out, self.labels)
    }

    /// The highest bit in an open child's undecided labels (0 if none), and its group.
    fn highest_open_bit(&self) -> (u32, Option<usize>) {
        self.groups
            .iter()
            .enumerate()
            .filter(|(_, g)| g.open > 0)
            .map(|(i, g)| (g.top(), Some(i)))
            .filter(|&(b, _)| b > 0)
            .max_by_key(|&(b, _)| b)
            .unwrap_or((0, None))
    }

    /// The groups with open children, largest undecided labels first.
    fn open_by_rest(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.groups.len())
            .filter(|&g| self.groups[g].open > 0)
            .collect();
        order.sort_by(|&a, &b| self.groups[b].rest().cmp(self.groups[a].rest()));
        order
    }

    /// Whether, once the `q` open children with the largest lists are closed, the others can
    /// all be closed with bits `start`, ..., 1.
    fn closable_after(&self, order: &[usize], q: u32, start: u32) -> bool {
        let mut skip = q;
        let rest = order.iter().filter_map(|&g| {
            let group = &self.groups[g];
            let skipped = skip.min(group.open);
            skip -= skipped;
            (group.open > skipped).then(|| (group.rest(), group.open - skipped))
        });
        closable(rest, start)
    }

    /// Labels an open child of group `g` with `x`.
    fn close(&mut self, g: usize, x: u32) {
        let group = &mut self.groups[g];
        group.open -= 1;
        let child = self.order[group.first + group.open as usize];
        self.labels[child] = x;
        self.out.push(x);
    }
}

/// Whether open children, given as (undecided labels, how many children have them), can all
/// be closed with bits `start`, `start - 1`, ..., 1: at every free bit a child whose list below
/// it is largest is closed (a bit in one open list is occupied; a bit in two fails).
fn closable<'a>(open: impl Iterator<Item = (&'a [u32], u32)>, start: u32) -> bool {
    // Max-heap of the open groups' remaining labels, compared as binary numbers.
    let mut heap: BinaryHeap<(Rest, u32)> = BinaryHeap::new();
    let mut exhausted = 0u32;
    for (rest, count) in open {
        let rest = &rest[rest.partition_point(|&s| s > start)..];
        if rest.is_empty() {
            exhausted += count;
        } else {
            heap.push((Rest(rest), count));
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
    /// The children of vertex v are `child[start[v]..start[v] + count[v]]`, in order until one
    /// is removed.
    start: Vec<u32>,
    count: Vec<u32>,
    child: Vec<u32>,
    /// Per vertex, the visible list of its subtree.
    list: Vec<Labels>,
    /// Per vertex, the label of the edge to its parent (0 for the root and removed vertices).
    label: Vec<u32>,
}

impl EdgeRanking {
    pub fn new(parent: Vec<u32>) -> Self {
        let n = parent.len();
        let mut count = vec![0u32; n];
        for &p in parent.iter().skip(1) {
            count[p as usize] += 1;
        }
        let mut start = vec![0u32; n];
        let mut next = 0;
        for v in 0..n {
            start[v] = next;
            next += count[v];
        }
        let mut child = vec![0u32; n.saturating_sub(1)];
        let mut filled = vec![0u32; n];
        for (v, &p) in parent.iter().enumerate().skip(1) {
            let p = p as usize;
            child[(start[p] + filled[p]) as usize] = v as u32;
            filled[p] += 1;
        }
        let mut ranking = EdgeRanking {
            parent,
            start,
            count,
            child,
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
        let (s, k) = (self.start[v] as usize, self.count[v] as usize);
        let list = match &self.child[s..s + k] {
            [] => Vec::new(),
            &[c] => {
                // One child (a call with one callee, a path): no choice to make.
                let below = &self.list[c as usize];
                let x = smallest_missing(below);
                self.label[c as usize] = x;
                let mut list: Labels = Vec::with_capacity(below.len() + 1);
                list.extend(below.iter().copied().take_while(|&s| s > x));
                list.push(x);
                list
            }
            kids => {
                let lists: Vec<&[u32]> = kids
                    .iter()
                    .map(|&c| self.list[c as usize].as_slice())
                    .collect();
                let (list, labels) = combine(&lists);
                for (&c, x) in kids.iter().zip(labels) {
                    self.label[c as usize] = x;
                }
                list
            }
        };
        let changed = list != self.list[v];
        self.list[v] = list;
        changed
    }

    /// Removes `v`'s subtree (v ≠ `top`, below it) and relabels its ancestors up to `top`:
    /// the lists above `top` are left as they were, for a search that goes on below `top`
    /// only (the suspects' region).
    pub fn remove(&mut self, v: u32, top: u32) {
        let mut p = self.parent[v as usize] as usize;
        let (s, k) = (self.start[p] as usize, self.count[p] as usize);
        if let Some(i) = self.child[s..s + k].iter().position(|&c| c == v) {
            self.child[s + i..s + k].rotate_left(1);
            self.count[p] -= 1;
        }
        self.label[v as usize] = 0;
        while self.relabel(p) && p != top as usize {
            p = self.parent[p] as usize;
        }
    }

    /// The worst case of `top`'s subtree once `v`'s subtree (below `top`, v ≠ top) has left
    /// it: `v`'s ancestors relabelled up to `top` on copies, the ranking unchanged. It costs a
    /// `combine` per ancestor whose list changes.
    pub fn worst_case_without(&self, v: u32, top: u32) -> u32 {
        let mut gone = v;
        let mut changed: Option<(u32, Labels)> = None;
        let mut p = self.parent[v as usize];
        loop {
            let lists: Vec<&[u32]> = self
                .children(p)
                .iter()
                .filter(|&&c| c != gone)
                .map(|&c| match &changed {
                    Some((x, list)) if *x == c => list.as_slice(),
                    _ => self.list[c as usize].as_slice(),
                })
                .collect();
            let list = combine(&lists).0;
            if p == top {
                return list.first().copied().unwrap_or(0);
            }
            if list == self.list[p as usize] {
                return self.worst_case(top);
            }
            changed = Some((p, list));
            gone = u32::MAX;
            p = self.parent[p as usize];
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
            let &c = self.children(x as u32).iter().find(|&&c| {
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
        let s = self.start[v as usize] as usize;
        &self.child[s..s + self.count[v as usize] as usize]
    }
}
