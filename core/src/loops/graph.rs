//! The loops of one method from its control flow graph: dominators (Cooper, Harvey and
//! Kennedy's iterative algorithm over the reverse postorder), back edges, natural loops merged
//! per header, and their nesting. See the module documentation of `super`.

const NONE: u32 = u32::MAX;

/// One loop of a method.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loop {
    /// The header block: the body's only entry.
    pub header: u32,
    /// The body's blocks, sorted, the header included.
    pub body: Vec<u32>,
    /// The innermost loop whose body holds this one, by index in the table.
    pub parent: Option<u32>,
    /// The blocks with a back edge to the header (a loop's end, a `continue`).
    pub latches: Vec<u32>,
}

/// The loops of a method, ordered by header block (so outer loops before the loops they hold,
/// for javac's layout) and numbered from 0 in that order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LoopTable {
    loops: Vec<Loop>,
    /// By block: the loop it heads.
    header_of: Vec<u32>,
    /// By loop: its body as a bit set over the blocks.
    bodies: Vec<Vec<u64>>,
}

impl LoopTable {
    /// The loops of the graph whose block `b` has the successors `succ[b]`, entered at block 0.
    /// Successors outside the table are ignored.
    pub fn new(succ: &[&[u32]]) -> LoopTable {
        let n = succ.len();
        if n == 0 {
            return LoopTable::default();
        }
        let edges = |b: usize| succ[b].iter().map(|&s| s as usize).filter(|&s| s < n);
        let order = reverse_postorder(n, &edges);
        let mut rpo = vec![NONE; n];
        for (i, &b) in order.iter().enumerate() {
            rpo[b] = i as u32;
        }
        let mut preds: Vec<Vec<usize>> = vec![Vec::new(); n];
        for &b in &order {
            for s in edges(b) {
                preds[s].push(b);
            }
        }
        let idom = dominators(&order, &rpo, &preds);
        let dominates = |d: usize, mut b: usize| loop {
            if b == d {
                return true;
            }
            if b == 0 || idom[b] == NONE {
                return false;
            }
            b = idom[b] as usize;
        };
        // Back edges, by header.
        let mut latches: Vec<Vec<u32>> = vec![Vec::new(); n];
        for &u in &order {
            for h in edges(u) {
                if dominates(h, u) && !latches[h].contains(&(u as u32)) {
                    latches[h].push(u as u32);
                }
            }
        }
        let words = n.div_ceil(64);
        let mut loops = Vec::new();
        let mut bodies = Vec::new();
        for h in 0..n {
            if latches[h].is_empty() {
                continue;
            }
            let mut body = vec![0u64; words];
            body[h / 64] |= 1 << (h % 64);
            let mut stack: Vec<usize> = latches[h].iter().map(|&l| l as usize).collect();
            while let Some(b) = stack.pop() {
                if body[b / 64] & (1 << (b % 64)) != 0 {
                    continue;
                }
                body[b / 64] |= 1 << (b % 64);
                stack.extend(preds[b].iter().copied());
            }
            let mut l = latches[h].clone();
            l.sort_unstable();
            loops.push(Loop {
                header: h as u32,
                body: (0..n)
                    .filter(|&b| body[b / 64] & (1 << (b % 64)) != 0)
                    .map(|b| b as u32)
                    .collect(),
                parent: None,
                latches: l,
            });
            bodies.push(body);
        }
        // The parent: the smallest other body holding the header.
        for i in 0..loops.len() {
            let h = loops[i].header as usize;
            loops[i].parent = (0..loops.len())
                .filter(|&j| j != i && bodies[j][h / 64] & (1 << (h % 64)) != 0)
                .min_by_key(|&j| loops[j].body.len())
                .map(|j| j as u32);
        }
        let mut header_of = vec![NONE; n];
        for (i, l) in loops.iter().enumerate() {
            header_of[l.header as usize] = i as u32;
        }
        LoopTable {
            loops,
            header_of,
            bodies,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.loops.is_empty()
    }

    pub fn len(&self) -> usize {
        self.loops.len()
    }

    pub fn loops(&self) -> &[Loop] {
        &self.loops
    }

    pub fn get(&self, index: u32) -> Option<&Loop> {
        self.loops.get(index as usize)
    }

    /// The loop whose header is `block`.
    pub fn headed_by(&self, block: u32) -> Option<u32> {
        match self.header_of.get(block as usize) {
            Some(&l) if l != NONE => Some(l),
            _ => None,
        }
    }

    /// Whether the body of loop `index` holds `block`.
    pub fn holds(&self, index: u32, block: u32) -> bool {
        let b = block as usize;
        self.bodies
            .get(index as usize)
            .and_then(|body| body.get(b / 64))
            .is_some_and(|w| w & (1 << (b % 64)) != 0)
    }
}

/// The blocks reachable from block 0 in reverse postorder (iterative depth-first search).
fn reverse_postorder<I: Iterator<Item = usize>>(
    n: usize,
    edges: &impl Fn(usize) -> I,
) -> Vec<usize> {
    let mut seen = vec![false; n];
    let mut post = Vec::with_capacity(n);
    let mut stack: Vec<(usize, Vec<usize>)> = vec![(0, edges(0).collect())];
    seen[0] = true;
    while let Some((b, rest)) = stack.last_mut() {
        match rest.pop() {
            Some(s) if !seen[s] => {
                seen[s] = true;
                let next: Vec<usize> = edges(s).collect();
                stack.push((s, next));
            }
            Some(_) => {}
            None => {
                post.push(*b);
                stack.pop();
            }
        }
    }
    post.reverse();
    post
}

/// Immediate dominators (`NONE` for unreachable blocks; the entry's is itself).
fn dominators(order: &[usize], rpo: &[u32], preds: &[Vec<usize>]) -> Vec<u32> {
    let n = rpo.len();
    let mut idom = vec![NONE; n];
    idom[0] = 0;
    let intersect = |idom: &[u32], mut a: usize, mut b: usize| {
        while a != b {
            while rpo[a] > rpo[b] {
                a = idom[a] as usize;
            }
            while rpo[b] > rpo[a] {
                b = idom[b] as usize;
            }
        }
        a
    };
    let mut changed = true;
    while changed {
        changed = false;
        for &b in order.iter().skip(1) {
            let mut new = NONE as usize;
            for &p in &preds[b] {
                if idom[p] == NONE {
                    continue;
                }
                new = if new == NONE as usize {
                    p
                } else {
                    intersect(&idom, p, new)
                };
            }
            if new != NONE as usize && idom[b] != new as u32 {
                idom[b] = new as u32;
                changed = true;
            }
        }
    }
    idom
}
