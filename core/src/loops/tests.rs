use std::sync::Arc;

use super::*;
use crate::tree::synthetic::Rng;

fn table(succ: &[&[u32]]) -> LoopTable {
    LoopTable::new(succ)
}

fn steps(t: &LoopTable, blocks: &[u32]) -> Vec<LoopStep> {
    let mut c = LoopCursor::new(Arc::new(t.clone()));
    let mut out = Vec::new();
    for &b in blocks {
        c.block(b, &mut out);
    }
    c.leave_all(&mut out);
    out
}

use LoopStep::{Enter, Exit, Next};

/// javac's `for (i = 0; i < n; i++) body`: 0 init, 1 the test (header), 2 body and update with
/// its `goto 1`, 3 after the loop.
#[test]
fn a_for_loop_has_its_test_as_header_and_one_iteration_per_test() {
    let t = table(&[&[1], &[2, 3], &[1], &[]]);
    assert_eq!(t.len(), 1);
    let l = &t.loops()[0];
    assert_eq!((l.header, l.body.clone(), l.parent), (1, vec![1, 2], None));
    assert_eq!(l.latches, vec![2]);
    // Two passes of the body, then the test that ends the loop: three iterations.
    assert_eq!(
        steps(&t, &[0, 1, 2, 1, 2, 1, 3]),
        vec![Enter(0), Next(0), Next(0), Exit(0)]
    );
    // A loop whose body never runs is one iteration: the test.
    assert_eq!(steps(&t, &[0, 1, 3]), vec![Enter(0), Exit(0)]);
}

/// Eclipse's compiler tests at the bottom: 0 `goto 2`, 1 body, 2 test `if (..) goto 1`, 3 after.
/// The test dominates the body, so it is the header.
#[test]
fn a_loop_tested_at_the_bottom_is_headed_by_its_test() {
    let t = table(&[&[2], &[2], &[1, 3], &[]]);
    assert_eq!(t.loops()[0].header, 2);
    assert_eq!(t.loops()[0].body, vec![1, 2]);
    assert_eq!(
        steps(&t, &[0, 2, 1, 2, 3]),
        vec![Enter(0), Next(0), Exit(0)]
    );
}

#[test]
fn a_do_while_is_a_block_looping_on_itself() {
    let t = table(&[&[1], &[1, 2], &[]]);
    assert_eq!(t.loops()[0].body, vec![1]);
    assert_eq!(t.loops()[0].latches, vec![1]);
    assert_eq!(
        steps(&t, &[0, 1, 1, 1, 2]),
        vec![Enter(0), Next(0), Next(0), Exit(0)]
    );
}

/// 1 outer test, 2 outer body, 3 inner test, 4 inner body, 5 outer update, 6 after.
#[test]
fn nested_loops_nest_and_the_inner_one_starts_anew_in_each_outer_iteration() {
    let t = table(&[&[1], &[2, 6], &[3], &[4, 5], &[3], &[1], &[]]);
    assert_eq!(t.len(), 2);
    let (outer, inner) = (&t.loops()[0], &t.loops()[1]);
    assert_eq!((outer.header, outer.body.clone()), (1, vec![1, 2, 3, 4, 5]));
    assert_eq!((inner.header, inner.body.clone()), (3, vec![3, 4]));
    assert_eq!((outer.parent, inner.parent), (None, Some(0)));
    assert_eq!(
        steps(&t, &[0, 1, 2, 3, 4, 3, 5, 1, 2, 3, 5, 1, 6]),
        vec![
            Enter(0),
            Enter(1),
            Next(1),
            Exit(1),
            Next(0),
            Enter(1),
            Exit(1),
            Next(0),
            Exit(0)
        ]
    );
}

/// `continue outer` from the inner body jumps to the outer update: the inner loop ends.
#[test]
fn a_continue_of_the_outer_loop_ends_the_inner_one() {
    // 4 inner body: `if (..) continue outer` to 5, else on to 3.
    let t = table(&[&[1], &[2, 6], &[3], &[4, 5], &[3, 5], &[1], &[]]);
    assert_eq!(
        steps(&t, &[0, 1, 2, 3, 4, 5, 1, 6]),
        vec![Enter(0), Enter(1), Exit(1), Next(0), Exit(0)]
    );
}

/// 1 test, 2 `if (found) goto 3` else 4, 3 the break's code then `goto 5`, 4 update `goto 1`,
/// 5 after. The break's block cannot come back to the test: it is outside the body, so the
/// loop ends when it starts and its code is the enclosing node's.
#[test]
fn a_break_leaves_the_loop_where_its_block_starts() {
    let t = table(&[&[1], &[2, 5], &[3, 4], &[5], &[1], &[]]);
    assert_eq!(t.loops()[0].body, vec![1, 2, 4]);
    assert_eq!(
        steps(&t, &[0, 1, 2, 4, 1, 2, 3, 5]),
        vec![Enter(0), Next(0), Exit(0)]
    );
}

/// A try/catch in the body: 2 the try range (handler 3), 3 the handler, 4 update.
#[test]
fn a_handler_inside_the_loop_is_in_its_body_and_one_outside_ends_it() {
    let t = table(&[&[1], &[2, 5], &[4, 3], &[4], &[1], &[]]);
    assert_eq!(t.loops()[0].body, vec![1, 2, 3, 4]);
    assert_eq!(
        steps(&t, &[0, 1, 2, 3, 4, 1, 5]),
        vec![Enter(0), Next(0), Exit(0)]
    );
    // The whole loop in a try range whose handler, 5, is after it.
    let t = table(&[&[1, 5], &[2, 4, 5], &[1, 5], &[], &[], &[3]]);
    assert_eq!(t.loops()[0].body, vec![1, 2]);
    assert_eq!(
        steps(&t, &[0, 1, 2, 1, 2, 5, 3]),
        vec![Enter(0), Next(0), Exit(0)]
    );
}

#[test]
fn a_return_or_an_exception_inside_the_loop_ends_it_with_the_frame() {
    let t = table(&[&[1], &[2, 3], &[1], &[]]);
    assert_eq!(steps(&t, &[0, 1, 2]), vec![Enter(0), Exit(0)]);
}

/// Two blocks entered both from outside: neither dominates the other, no loop.
#[test]
fn irreducible_flow_and_unreachable_blocks_make_no_loop() {
    let t = table(&[&[1, 2], &[2], &[1]]);
    assert!(t.is_empty());
    let t = table(&[&[], &[2], &[1]]);
    assert!(t.is_empty());
    assert!(table(&[]).is_empty());
    // Successors outside the table are ignored.
    assert!(table(&[&[7]]).is_empty());
}

/// Reachability from the entry without passing through `avoid`.
fn reach(succ: &[Vec<u32>], from: usize, avoid: Option<usize>) -> Vec<bool> {
    let n = succ.len();
    let mut seen = vec![false; n];
    if Some(from) == avoid {
        return seen;
    }
    let mut stack = vec![from];
    seen[from] = true;
    while let Some(b) = stack.pop() {
        for &s in &succ[b] {
            let s = s as usize;
            if !seen[s] && Some(s) != avoid {
                seen[s] = true;
                stack.push(s);
            }
        }
    }
    seen
}

/// The definitions, computed the slow way: d dominates b when b is reachable but not without d.
#[test]
fn loops_match_the_definitions_on_random_graphs() {
    let mut rng = Rng::new(13);
    for _ in 0..2000 {
        let n = 1 + rng.below(10) as usize;
        let succ: Vec<Vec<u32>> = (0..n)
            .map(|_| {
                let k = rng.below(3);
                let mut s: Vec<u32> = (0..k).map(|_| rng.below(n as u64) as u32).collect();
                s.dedup();
                s
            })
            .collect();
        let refs: Vec<&[u32]> = succ.iter().map(Vec::as_slice).collect();
        let t = LoopTable::new(&refs);
        let reachable = reach(&succ, 0, None);
        let dom = |d: usize, b: usize| reachable[b] && (d == b || !reach(&succ, 0, Some(d))[b]);
        let mut expected = Vec::new();
        for h in 0..n {
            let latches: Vec<usize> = (0..n)
                .filter(|&u| reachable[u] && succ[u].contains(&(h as u32)) && dom(h, u))
                .collect();
            if latches.is_empty() {
                continue;
            }
            let body: Vec<u32> = (0..n)
                .filter(|&b| {
                    b == h || reachable[b] && latches.iter().any(|&l| reach(&succ, b, Some(h))[l])
                })
                .map(|b| b as u32)
                .collect();
            expected.push((h as u32, body));
        }
        let got: Vec<(u32, Vec<u32>)> = t
            .loops()
            .iter()
            .map(|l| (l.header, l.body.clone()))
            .collect();
        assert_eq!(got, expected, "{succ:?}");
        for (i, l) in t.loops().iter().enumerate() {
            // Bodies nest or are disjoint; the parent is the smallest body holding the header.
            for (j, m) in t.loops().iter().enumerate() {
                let common = l.body.iter().filter(|b| m.body.contains(b)).count();
                assert!(
                    common == 0 || common == l.body.len() || common == m.body.len(),
                    "{succ:?}"
                );
                if i != j && m.body.contains(&l.header) {
                    let p = l.parent.expect("a loop inside another has a parent") as usize;
                    assert!(t.loops()[p].body.len() <= m.body.len());
                }
            }
            for b in 0..n as u32 {
                assert_eq!(t.holds(i as u32, b), l.body.contains(&b));
            }
        }
    }
}
