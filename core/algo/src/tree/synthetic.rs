//! Synthetic execution trees for tests and benchmarks: a hand-made tree builder and a seeded
//! random recording of realistic shape (a call stack that calls and returns, recursion-free
//! methods drawn with a skewed distribution, coverage drawn from each method's entities).

use super::execution::{CoverageKind, ExecutionTree};
use super::node::{NodeHeader, NodeKind};
use crate::ids::{MethodId, NodeId, ThreadId};

/// A small deterministic PRNG (SplitMix64): tests and benchmarks need reproducible trees, not
/// cryptographic quality.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64 <= p
    }
}

/// Builds hand-made trees: a root, one thread, and complete calls added in preorder.
pub struct TreeBuilder {
    tree: ExecutionTree,
    next: u32,
}

impl Default for TreeBuilder {
    fn default() -> Self {
        Self::new()
    }
}

impl TreeBuilder {
    /// Node 0 is the root, node 1 its thread; both complete.
    pub fn new() -> Self {
        let mut tree = ExecutionTree::new();
        for (id, parent, kind) in [
            (0, None, NodeKind::Root),
            (1, Some(NodeId(0)), NodeKind::Thread),
        ] {
            tree.push(&header(id, parent, kind, None, true))
                .expect("fresh tree accepts root and thread");
        }
        TreeBuilder { tree, next: 2 }
    }

    /// The thread node that top-level calls hang under.
    pub fn thread(&self) -> NodeId {
        NodeId(1)
    }

    /// Adds a complete routine call of `method` as the last child of `parent`.
    pub fn call(&mut self, parent: NodeId, method: u32) -> NodeId {
        self.add(parent, NodeKind::Routine, method, true)
    }

    /// Adds a complete routine call that starts in the state its previous sibling left (a link
    /// of a chain).
    pub fn chained(&mut self, parent: NodeId, method: u32) -> NodeId {
        let id = self.next;
        self.next += 1;
        let mut h = header(id, Some(parent), NodeKind::Routine, Some(method), true);
        h.chained = true;
        self.tree
            .push(&h)
            .expect("builder adds children of existing nodes in id order");
        NodeId(id)
    }

    /// Adds a complete call into uninstrumented code.
    pub fn external(&mut self, parent: NodeId, method: u32) -> NodeId {
        self.add(parent, NodeKind::External, method, true)
    }

    /// Adds a complete loop node of `parent`'s method (a call, or an iteration of an enclosing
    /// loop) as its last child; add its iterations with [`Self::iteration`].
    pub fn loop_node(&mut self, parent: NodeId) -> NodeId {
        let method = self.tree.method(parent).map_or(0, |m| m.0);
        self.add(parent, NodeKind::Loop, method, true)
    }

    /// Adds a complete iteration as the last child of `loop_node`.
    pub fn iteration(&mut self, loop_node: NodeId) -> NodeId {
        let method = self.tree.method(loop_node).map_or(0, |m| m.0);
        self.add(loop_node, NodeKind::Iteration, method, true)
    }

    /// Adds a call that has not returned yet.
    pub fn incomplete(&mut self, parent: NodeId, method: u32) -> NodeId {
        self.add(parent, NodeKind::Routine, method, false)
    }

    fn add(&mut self, parent: NodeId, kind: NodeKind, method: u32, complete: bool) -> NodeId {
        let id = self.next;
        self.next += 1;
        self.tree
            .push(&header(id, Some(parent), kind, Some(method), complete))
            .expect("builder adds children of existing nodes in id order");
        NodeId(id)
    }

    pub fn coverage(&mut self, node: NodeId, kind: CoverageKind, entities: &[u32]) {
        self.tree
            .set_coverage(node, kind, entities)
            .expect("builder sets coverage once per node");
    }

    pub fn build(self) -> ExecutionTree {
        self.tree
    }

    /// The tree built so far.
    pub fn build_ref(&self) -> &ExecutionTree {
        &self.tree
    }
}

/// A header as the recorder would emit it (timestamps are the id, enough for the tree).
pub fn header(
    id: u32,
    parent: Option<NodeId>,
    kind: NodeKind,
    method: Option<u32>,
    complete: bool,
) -> NodeHeader {
    NodeHeader {
        id: NodeId(id),
        parent,
        kind,
        method: method.map(MethodId),
        thread: (kind != NodeKind::Root).then_some(ThreadId(0)),
        entry: u64::from(id) * 2,
        exit: complete.then_some(u64::from(id) * 2 + 1),
        chained: false,
        frame_chained: false,
    }
}

/// One step of a synthetic recording.
#[derive(Clone, Debug)]
pub enum Event {
    /// A node started or completed.
    Header(NodeHeader),
    /// Coverage of a node that just completed.
    Coverage(NodeId, CoverageKind, Vec<u32>),
}

/// Parameters of a random recording.
#[derive(Clone, Debug)]
pub struct Shape {
    /// Number of call nodes (root and thread excluded).
    pub calls: usize,
    /// Number of distinct methods.
    pub methods: u32,
    /// Fraction of calls that go to uninstrumented (external) code.
    pub external: f64,
    /// Whether to emit coverage (edges and def-use chains) for each call.
    pub coverage: bool,
    /// Number of threads, each with its own `main`, their events interleaved.
    pub threads: usize,
    /// Chains: the probability that a routine call repeats its previous sibling's method as a
    /// link of a chain (a loop over one object); calls of other methods link with half of it.
    /// 0 draws no chains and leaves the trees of other shapes as they were.
    pub chains: f64,
}

impl Default for Shape {
    fn default() -> Self {
        Shape {
            calls: 200,
            methods: 12,
            external: 0.1,
            coverage: true,
            threads: 1,
            chains: 0.0,
        }
    }
}

/// Entities per method: method m owns entity ids `m * STRIDE .. m * STRIDE + its count`.
const STRIDE: u32 = 64;

/// Generates a random recording and feeds its events, in recording order, to `sink`: starts at
/// calls, completions at returns, coverage right after each completion. With several threads,
/// their events interleave at random (so node ids of one subtree are not contiguous).
pub fn random_recording(seed: u64, shape: &Shape, mut sink: impl FnMut(Event)) {
    let mut rng = Rng::new(seed);
    let threads = shape.threads.max(1) as u32;
    sink(Event::Header(header(0, None, NodeKind::Root, None, false)));
    // Per thread: a stack of (node, kind, method, last child's kind and method) and whether it
    // has called its `main`.
    type Frame = (u32, NodeKind, Option<u32>, Option<(NodeKind, Option<u32>)>);
    let mut stacks: Vec<(Vec<Frame>, bool)> = Vec::new();
    for t in 1..=threads {
        sink(Event::Header(header(
            t,
            Some(NodeId(0)),
            NodeKind::Thread,
            None,
            false,
        )));
        stacks.push((vec![(t, NodeKind::Thread, None, None)], false));
    }
    let mut next = threads + 1;
    let total = shape.calls as u32 + threads + 1;
    let methods = shape.methods.max(1);
    loop {
        let active: Vec<usize> = (0..stacks.len())
            .filter(|&i| stacks[i].0.len() > 1 || next < total)
            .collect();
        let Some(&t) = active.get(if active.len() > 1 {
            rng.below(active.len() as u64) as usize
        } else {
            0
        }) else {
            break;
        };
        let (stack, started) = &mut stacks[t];
        // Calls are likely near the top and rarer deep down: bushy near `main`, a few levels
        // of helpers below. Each thread makes one call, `main`, which returns last.
        let depth = stack.len() as i32 - 2;
        let p_call = 0.8 * 0.95f64.powi(depth.max(0));
        // Uninstrumented code calls back into the application less often.
        let p_call = match stack.last().map(|s| s.1) {
            Some(NodeKind::External) => p_call * 0.3,
            _ => p_call,
        };
        let must_call = stack.len() == 1 && !*started;
        let may_return = stack.len() > 2 || next >= total;
        let want_call = next < total && (must_call || !may_return || rng.chance(p_call));
        if want_call {
            *started = true;
            let parent = stack.last().map_or(1, |s| s.0);
            let previous = stack.last().and_then(|s| s.3);
            // Skewed method choice: low ids are hot.
            let mut m = (rng.below(u64::from(methods)) * rng.below(u64::from(methods))
                / u64::from(methods)) as u32;
            let kind = if stack.len() > 2 && rng.chance(shape.external) {
                NodeKind::External
            } else {
                NodeKind::Routine
            };
            let mut chained = false;
            if shape.chains > 0.0 && kind == NodeKind::Routine {
                if let Some((NodeKind::Routine, Some(pm))) = previous {
                    if rng.chance(shape.chains) {
                        m = pm;
                        chained = true;
                    } else {
                        chained = rng.chance(shape.chains / 2.0);
                    }
                }
            }
            let mut h = header(next, Some(NodeId(parent)), kind, Some(m), false);
            h.chained = chained;
            sink(Event::Header(h));
            if let Some(top) = stack.last_mut() {
                top.3 = Some((kind, Some(m)));
            }
            stack.push((next, kind, Some(m), None));
            next += 1;
        } else {
            let (id, kind, method, _) = stack.pop().expect("an active thread has a call open");
            let parent = stack.last().map(|s| NodeId(s.0));
            sink(Event::Header(header(id, parent, kind, method, true)));
            if shape.coverage && kind == NodeKind::Routine {
                let m = method.unwrap_or(0);
                for (ck, salt) in [(CoverageKind::Edge, 3), (CoverageKind::DefUse, 5)] {
                    let owned = 4 + (m * salt) % 24;
                    let n = 1 + rng.below(u64::from(owned)) as u32;
                    let mut es: Vec<u32> = (0..n)
                        .map(|_| m * STRIDE + rng.below(u64::from(owned)) as u32)
                        .collect();
                    es.sort_unstable();
                    es.dedup();
                    sink(Event::Coverage(NodeId(id), ck, es));
                }
            }
        }
    }
    for t in 1..=threads {
        sink(Event::Header(header(
            t,
            Some(NodeId(0)),
            NodeKind::Thread,
            None,
            true,
        )));
    }
    sink(Event::Header(header(0, None, NodeKind::Root, None, true)));
}

/// A whole random tree, complete and sealed.
pub fn random_tree(seed: u64, shape: &Shape) -> ExecutionTree {
    let mut tree = ExecutionTree::new();
    random_recording(seed, shape, |e| match e {
        Event::Header(h) => {
            tree.push(&h).expect("generator emits a well-formed stream");
        }
        Event::Coverage(n, k, es) => {
            tree.set_coverage(n, k, &es)
                .expect("generator sets coverage once");
        }
    });
    tree.seal();
    tree
}
