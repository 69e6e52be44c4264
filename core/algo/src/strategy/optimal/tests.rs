use std::collections::HashMap;

use super::ranking::{combine, EdgeRanking};
use crate::ids::NodeId;
use crate::session::{Answer, Session, Step, TrustPolicy, Walk};
use crate::strategy::eval::{run_to_verdict, SimulatedOracle};
use crate::strategy::{create, StrategyName};
use crate::tree::synthetic::{Rng, TreeBuilder};
use crate::tree::ExecutionTree;

// ---- the per-vertex choice against every choice --------------------------------------------

/// The smallest union over every choice of child labels (each up to the largest label plus the
/// number of children), by enumeration.
fn combine_by_enumeration(lists: &[Vec<u32>]) -> Vec<u32> {
    let top = lists.iter().filter_map(|l| l.first()).max().unwrap_or(&0) + lists.len() as u32;
    let mut best: Option<u128> = None;
    let mut choice = vec![1u32; lists.len()];
    loop {
        let mut union = 0u128;
        let mut ok = true;
        for (l, &x) in lists.iter().zip(&choice) {
            if l.contains(&x) {
                ok = false;
                break;
            }
            let v = l
                .iter()
                .filter(|&&s| s > x)
                .fold(1u128 << x, |a, &s| a | 1 << s);
            if union & v != 0 {
                ok = false;
                break;
            }
            union |= v;
        }
        if ok && best.is_none_or(|b| union < b) {
            best = Some(union);
        }
        // Next choice, like an odometer.
        let mut i = 0;
        loop {
            if i == choice.len() {
                let b = best.expect("labels above every list always fit");
                return (0..128).rev().filter(|&s| b >> s & 1 == 1).collect();
            }
            choice[i] += 1;
            if choice[i] <= top {
                break;
            }
            choice[i] = 1;
            i += 1;
        }
    }
}

fn random_list(rng: &mut Rng, bits: u32) -> Vec<u32> {
    let p = rng.below(100) as f64 / 100.0;
    (1..=bits).rev().filter(|_| rng.chance(p)).collect()
}

#[test]
fn combine_finds_the_smallest_list_of_every_choice() {
    let mut rng = Rng::new(7);
    for _ in 0..3000 {
        let k = 1 + rng.below(4) as usize;
        let bits = 1 + rng.below(7) as u32;
        let lists: Vec<Vec<u32>> = (0..k).map(|_| random_list(&mut rng, bits)).collect();
        let slices: Vec<&[u32]> = lists.iter().map(|l| l.as_slice()).collect();
        let (list, labels) = combine(&slices);
        assert_eq!(list, combine_by_enumeration(&lists), "children {lists:?}");
        // The labels make that list: each child shows its label and its labels above it.
        let mut shown: Vec<u32> = Vec::new();
        for (l, &x) in lists.iter().zip(&labels) {
            assert!(x >= 1 && !l.contains(&x), "label {x} for {l:?}");
            shown.push(x);
            shown.extend(l.iter().filter(|&&s| s > x));
        }
        shown.sort_unstable_by(|a, b| b.cmp(a));
        assert_eq!(shown, list, "labels {labels:?} for {lists:?}");
    }
}

/// Many children with equal lists (leaves, a loop's alike calls) are combined as groups: the
/// groups must choose what choosing child by child would.
#[test]
fn combine_treats_alike_children_as_one_choice_each() {
    let mut rng = Rng::new(11);
    for _ in 0..2000 {
        let bits = 1 + rng.below(4) as u32;
        let pool: Vec<Vec<u32>> = (0..1 + rng.below(3))
            .map(|_| random_list(&mut rng, bits))
            .collect();
        let k = 2 + rng.below(4) as usize;
        let lists: Vec<Vec<u32>> = (0..k)
            .map(|_| pool[rng.below(pool.len() as u64) as usize].clone())
            .collect();
        let slices: Vec<&[u32]> = lists.iter().map(|l| l.as_slice()).collect();
        let (list, labels) = combine(&slices);
        assert_eq!(list, combine_by_enumeration(&lists), "children {lists:?}");
        let mut shown: Vec<u32> = Vec::new();
        for (l, &x) in lists.iter().zip(&labels) {
            assert!(x >= 1 && !l.contains(&x), "label {x} for {l:?}");
            shown.push(x);
            shown.extend(l.iter().filter(|&&s| s > x));
        }
        shown.sort_unstable_by(|a, b| b.cmp(a));
        assert_eq!(shown, list, "labels {labels:?} for {lists:?}");
    }
}

/// The rule of the module documentation taken bit by bit, without runs, groups or shortcuts:
/// at each free bit from the top, close the open child with the largest list below it only if
/// the open children could not all be closed below the bit (checked by running the greedy).
fn combine_bit_by_bit(lists: &[Vec<u32>]) -> Vec<u32> {
    fn closable(open: &[&[u32]], start: u32) -> bool {
        let mut open: Vec<Vec<u32>> = open
            .iter()
            .map(|l| l.iter().copied().filter(|&s| s <= start).collect())
            .collect();
        for b in (1..=start).rev() {
            let holding = open.iter().filter(|l| l.contains(&b)).count();
            match holding {
                0 => {
                    // The largest list below b (the labels above it are decided).
                    let below =
                        |l: &Vec<u32>| l.iter().copied().filter(|&s| s < b).collect::<Vec<u32>>();
                    if let Some(i) = (0..open.len()).max_by_key(|&x| below(&open[x])) {
                        open.swap_remove(i);
                    }
                }
                1 => {}
                _ => return false,
            }
        }
        open.is_empty()
    }
    let top = lists.iter().filter_map(|l| l.first()).max().unwrap_or(&0) + lists.len() as u32;
    let mut open: Vec<&[u32]> = lists.iter().map(|l| l.as_slice()).collect();
    let mut out = Vec::new();
    for b in (1..=top).rev() {
        if open.is_empty() {
            break;
        }
        let holding = open.iter().filter(|l| l.contains(&b)).count();
        assert!(holding <= 1, "bit {b} shared");
        let below: Vec<&[u32]> = open
            .iter()
            .map(|l| &l[l.partition_point(|&s| s >= b)..])
            .collect();
        if holding == 1 {
            out.push(b);
        } else if !closable(&below, b - 1) {
            let i = (0..open.len())
                .max_by(|&x, &y| below[x].cmp(below[y]))
                .expect("open children");
            open.swap_remove(i);
            out.push(b);
        }
    }
    out
}

#[test]
fn combine_by_runs_decides_what_the_bit_by_bit_rule_decides() {
    let mut rng = Rng::new(5);
    for _ in 0..1500 {
        let bits = 1 + rng.below(10) as u32;
        let pool: Vec<Vec<u32>> = (0..1 + rng.below(12))
            .map(|_| random_list(&mut rng, bits))
            .collect();
        let k = 2 + rng.below(30) as usize;
        let lists: Vec<Vec<u32>> = (0..k)
            .map(|_| pool[rng.below(pool.len() as u64) as usize].clone())
            .collect();
        let slices: Vec<&[u32]> = lists.iter().map(|l| l.as_slice()).collect();
        let (list, labels) = combine(&slices);
        assert_eq!(list, combine_bit_by_bit(&lists), "children {lists:?}");
        let mut shown: Vec<u32> = Vec::new();
        for (l, &x) in lists.iter().zip(&labels) {
            assert!(x >= 1 && !l.contains(&x), "label {x} for {l:?}");
            shown.push(x);
            shown.extend(l.iter().filter(|&&s| s > x));
        }
        shown.sort_unstable_by(|a, b| b.cmp(a));
        assert_eq!(shown, list, "labels {labels:?} for {lists:?}");
    }
}

/// A star of n leaves needs n - 1 questions; a path of n vertices about log2 n.
#[test]
fn stars_and_paths_take_their_known_number_of_questions() {
    for n in [2usize, 3, 10, 1000, 20_000] {
        let star: Vec<u32> = vec![0; n];
        assert_eq!(EdgeRanking::new(star).worst_case(0), n as u32 - 1);
        let path: Vec<u32> = (0..n as u32).map(|v| v.saturating_sub(1)).collect();
        let expected = usize::BITS - (n - 1).leading_zeros();
        assert_eq!(
            EdgeRanking::new(path).worst_case(0),
            expected,
            "path of {n}"
        );
    }
}

// ---- whole trees against minimax ------------------------------------------------------------

/// Every ordered tree with `n` vertices, as parents in preorder (`parent[0]` unused): vertex i
/// hangs below some vertex on the path from the root to vertex i - 1.
fn ordered_trees(n: usize) -> Vec<Vec<u32>> {
    fn grow(parent: &mut Vec<u32>, n: usize, out: &mut Vec<Vec<u32>>) {
        if parent.len() == n {
            out.push(parent.clone());
            return;
        }
        let mut v = parent.len() as u32 - 1;
        loop {
            parent.push(v);
            grow(parent, n, out);
            parent.pop();
            if v == 0 {
                break;
            }
            v = parent[v as usize];
        }
    }
    let mut out = Vec::new();
    grow(&mut vec![0], n, &mut out);
    out
}

fn random_parents(rng: &mut Rng, n: usize) -> Vec<u32> {
    let mut parent = vec![0];
    for _ in 1..n {
        // Below a vertex of the rightmost path, so the order stays a preorder.
        let mut path = vec![parent.len() as u32 - 1];
        while let Some(&v) = path.last() {
            if v == 0 {
                break;
            }
            path.push(parent[v as usize]);
        }
        parent.push(path[rng.below(path.len() as u64) as usize]);
    }
    parent
}

/// The fewest questions that find any vertex in the worst case, by minimax over every question
/// in every reachable set of suspects (a connected set: its top vertex is the smallest).
fn minimax(parent: &[u32]) -> u32 {
    let n = parent.len();
    assert!(n <= 32);
    let mut below = vec![0u32; n];
    for v in (0..n).rev() {
        below[v] |= 1 << v;
        if v > 0 {
            below[parent[v] as usize] |= below[v];
        }
    }
    fn solve(set: u32, below: &[u32], memo: &mut HashMap<u32, u32>) -> u32 {
        if set.count_ones() <= 1 {
            return 0;
        }
        if let Some(&q) = memo.get(&set) {
            return q;
        }
        let top = set.trailing_zeros();
        let mut best = u32::MAX;
        let mut rest = set & !(1 << top);
        while rest != 0 {
            let v = rest.trailing_zeros();
            rest &= rest - 1;
            let sub = below[v as usize] & set;
            let q = 1 + solve(sub, below, memo).max(solve(set & !sub, below, memo));
            best = best.min(q);
        }
        memo.insert(set, best);
        best
    }
    solve(
        (1u64 << n).wrapping_sub(1) as u32,
        &below,
        &mut HashMap::new(),
    )
}

#[test]
fn the_ranking_of_every_tree_up_to_10_vertices_asks_as_few_as_minimax() {
    let mut trees = 0;
    for n in 1..=10 {
        for parent in ordered_trees(n) {
            let ranking = EdgeRanking::new(parent.clone());
            assert_eq!(ranking.worst_case(0), minimax(&parent), "tree {parent:?}");
            trees += 1;
        }
    }
    // 1 + 1 + 2 + 5 + 14 + ... + 4862: the Catalan numbers.
    assert_eq!(trees, 6918);
}

#[test]
fn the_worst_case_without_a_subtree_is_the_ranking_of_what_is_left() {
    let mut rng = Rng::new(21);
    for _ in 0..300 {
        let n = 2 + rng.below(40) as usize;
        let parent = random_parents(&mut rng, n);
        let ranking = EdgeRanking::new(parent.clone());
        let v = 1 + rng.below(n as u64 - 1) as u32;
        // `top`: an ancestor of v (the root or one on the way).
        let mut ancestors = vec![];
        let mut a = parent[v as usize];
        loop {
            ancestors.push(a);
            if a == 0 {
                break;
            }
            a = parent[a as usize];
        }
        let top = ancestors[rng.below(ancestors.len() as u64) as usize];
        // What is left: top's subtree without v's, renumbered in preorder.
        let below = |x: u32, anc: u32| {
            let mut y = x;
            loop {
                if y == anc {
                    return true;
                }
                if y == 0 {
                    return false;
                }
                y = parent[y as usize];
            }
        };
        let kept: Vec<u32> = (0..n as u32)
            .filter(|&x| below(x, top) && !below(x, v))
            .collect();
        let index: HashMap<u32, u32> = kept
            .iter()
            .enumerate()
            .map(|(i, &x)| (x, i as u32))
            .collect();
        let left: Vec<u32> = kept
            .iter()
            .map(|&x| {
                if x == top {
                    0
                } else {
                    index[&parent[x as usize]]
                }
            })
            .collect();
        assert_eq!(
            ranking.worst_case_without(v, top),
            EdgeRanking::new(left).worst_case(0),
            "tree {parent:?} without {v} below {top}"
        );
    }
}

/// A session tree for `parent`: vertex 0 is the thread, every other vertex a call of its own
/// method (or of `method[v]`).
fn session_tree(parent: &[u32], method: impl Fn(usize) -> u32) -> (ExecutionTree, Vec<NodeId>) {
    let mut b = TreeBuilder::new();
    let mut node = vec![b.thread()];
    for v in 1..parent.len() {
        let x = b.call(node[parent[v] as usize], method(v));
        node.push(x);
    }
    (b.build(), node)
}

/// The most questions `name` asks, over every vertex taken as the buggy one (the thread: no
/// bug), from the session `prepare` leaves.
fn worst_case(
    tree: &ExecutionTree,
    node: &[NodeId],
    name: StrategyName,
    prepare: impl Fn(&mut Session),
) -> usize {
    node.iter()
        .map(|&buggy| {
            let mut s = Session::new(
                tree.clone(),
                create(name, None).unwrap(),
                TrustPolicy::none(),
            );
            s.seal();
            prepare(&mut s);
            let oracle = SimulatedOracle { buggy };
            run_to_verdict(&mut s, |t, x| oracle.answer(t, x))
                .unwrap()
                .1
        })
        .max()
        .unwrap_or(0)
}

#[test]
fn the_strategy_asks_as_few_as_minimax_on_every_tree_up_to_8_vertices() {
    for n in 1..=8 {
        for parent in ordered_trees(n) {
            let (tree, node) = session_tree(&parent, |v| v as u32);
            let asked = worst_case(&tree, &node, StrategyName::Optimal, |_| {});
            assert_eq!(asked as u32, minimax(&parent), "tree {parent:?}");
        }
    }
}

#[test]
fn the_strategy_asks_as_few_as_minimax_on_random_trees_up_to_14_vertices() {
    let mut rng = Rng::new(14);
    for _ in 0..300 {
        let n = 9 + rng.below(6) as usize;
        let parent = random_parents(&mut rng, n);
        assert_eq!(
            EdgeRanking::new(parent.clone()).worst_case(0),
            minimax(&parent)
        );
        let (tree, node) = session_tree(&parent, |v| v as u32);
        let asked = worst_case(&tree, &node, StrategyName::Optimal, |_| {});
        assert_eq!(asked as u32, minimax(&parent), "tree {parent:?}");
    }
}

#[test]
fn on_the_issue_tree_optimal_needs_4_questions_and_divide_and_query_5() {
    let parent = [0, 0, 1, 2, 0, 4, 5, 6, 6, 6];
    assert_eq!(minimax(&parent), 4);
    let (tree, node) = session_tree(&parent, |v| v as u32);
    assert_eq!(worst_case(&tree, &node, StrategyName::Optimal, |_| {}), 4);
    assert_eq!(
        worst_case(&tree, &node, StrategyName::DivideAndQuery, |_| {}),
        5
    );
}

// ---- after don't know and trust -------------------------------------------------------------

/// The tree of suspects the session leaves: askable nodes below their nearest askable
/// ancestor, the region root on top. Built here from the set's answers, independently of the
/// strategy.
fn suspects(session: &Session) -> Vec<u32> {
    let set = session.suspicious();
    let tree = set.tree();
    let mut vertex: HashMap<NodeId, u32> = HashMap::new();
    let mut parent = vec![0];
    set.walk(|x| {
        if x == set.region_root() {
            vertex.insert(x, 0);
            return Walk::Descend;
        }
        let mut a = tree.parent(x).expect("below the region root");
        while !vertex.contains_key(&a) {
            a = tree.parent(a).expect("below the region root");
        }
        let above = vertex[&a];
        if set.is_askable(x) {
            vertex.insert(x, parent.len() as u32);
            parent.push(above);
        }
        Walk::Descend
    });
    parent
}

#[test]
fn after_dont_know_and_trust_the_strategy_stays_optimal_on_what_is_left() {
    let mut rng = Rng::new(99);
    for round in 0..200 {
        let n = 4 + rng.below(9) as usize;
        let parent = random_parents(&mut rng, n);
        // Few methods, so that trusting one trusts several calls.
        let methods: Vec<u32> = (0..n).map(|_| rng.below(4) as u32).collect();
        let (tree, node) = session_tree(&parent, |v| methods[v]);
        let target = node[1 + rng.below(n as u64 - 1) as usize];
        let trust = round % 2 == 0;
        let prepare = |s: &mut Session| {
            if trust {
                s.answer(target, Answer::Trusted).unwrap();
            } else {
                s.answer(target, Answer::DontKnow).unwrap();
            }
        };
        let mut s = Session::new(
            tree.clone(),
            create(StrategyName::Optimal, None).unwrap(),
            TrustPolicy::none(),
        );
        s.seal();
        prepare(&mut s);
        let left = suspects(&s);
        let asked = worst_case(&tree, &node, StrategyName::Optimal, prepare);
        assert_eq!(
            asked as u32,
            minimax(&left),
            "tree {parent:?}, methods {methods:?}, {} {target:?}",
            if trust { "trusted" } else { "don't know" }
        );
    }
}

// ---- the kept ranking against a fresh one ---------------------------------------------------

#[test]
fn the_kept_ranking_asks_what_a_fresh_one_asks() {
    let mut rng = Rng::new(3);
    for _ in 0..100 {
        let n = 2 + rng.below(60) as usize;
        let parent = random_parents(&mut rng, n);
        let (tree, node) = session_tree(&parent, |v| v as u32 % 7);
        let buggy = node[rng.below(n as u64) as usize];
        let oracle = SimulatedOracle { buggy };
        let mut s = Session::new(
            tree.clone(),
            create(StrategyName::Optimal, None).unwrap(),
            TrustPolicy::none(),
        );
        s.seal();
        let mut answers = 0;
        loop {
            let asked = match s.step() {
                Step::Ask(x) => x,
                Step::Done(_) => break,
                Step::Waiting => panic!("a complete tree never waits"),
            };
            // A strategy that never saw the session before picks the same node.
            let mut fresh = create(StrategyName::Optimal, None).unwrap();
            assert_eq!(fresh.select(s.suspicious()), Some(asked));
            // Now and then an answer the kept ranking cannot follow.
            let answer = match rng.below(10) {
                0 => Answer::DontKnow,
                1 => Answer::Trusted,
                _ => oracle.answer(s.tree(), asked),
            };
            s.answer(asked, answer).unwrap();
            answers += 1;
            if answers % 5 == 4 {
                s.undo().unwrap();
            }
        }
    }
}

// ---- beyond the persistence bound -----------------------------------------------------------

/// A region larger than the persistence bound is not ranked (the ranking is in memory): the
/// strategy asks divide and query's question there, and ranks the region once it fits.
#[test]
fn beyond_the_persistence_bound_it_asks_as_divide_and_query_until_the_region_fits() {
    use crate::tree::synthetic::{random_recording, Event, Shape};
    use crate::tree::PersistenceBound;
    let shape = Shape {
        calls: 3000,
        methods: 40,
        ..Shape::default()
    };
    let tree = |bound: Option<usize>| {
        let mut tree = ExecutionTree::new();
        tree.set_persistence_bound(bound.map(PersistenceBound::in_memory));
        random_recording(8, &shape, |e| match e {
            Event::Header(h) => {
                tree.push(&h).unwrap();
            }
            Event::Coverage(n, k, es) => tree.set_coverage(n, k, &es).unwrap(),
        });
        tree.seal();
        tree
    };
    let (unbounded, bounded) = (tree(None), tree(Some(1000)));
    let session = |tree: &ExecutionTree, name| {
        let mut s = Session::new(
            tree.clone(),
            create(name, None).unwrap(),
            TrustPolicy::none(),
        );
        s.seal();
        s
    };
    let mut optimal = session(&bounded, StrategyName::Optimal);
    let mut dq = session(&bounded, StrategyName::DivideAndQuery);
    let buggy = NodeId(2500);
    let oracle = SimulatedOracle { buggy };
    let mut ranked = 0;
    while let (Step::Ask(x), Step::Ask(y)) = (optimal.step(), dq.step()) {
        let set = optimal.suspicious();
        if set.total_weight() > 1000 {
            assert_eq!(x, y, "beyond the bound, divide and query's question");
        } else {
            // The region fits: the question a ranking of it asks.
            let mut fresh = create(StrategyName::Optimal, None).unwrap();
            let mut copy = session(&unbounded, StrategyName::Optimal);
            for &(n, a) in optimal.answers() {
                copy.answer(n, a).unwrap();
            }
            assert_eq!(fresh.select(copy.suspicious()), Some(x));
            ranked += 1;
        }
        let a = oracle.answer(optimal.tree(), x);
        optimal.answer(x, a).unwrap();
        dq.answer(x, a).unwrap();
    }
    assert!(ranked > 0, "the region came to fit the bound");
}
