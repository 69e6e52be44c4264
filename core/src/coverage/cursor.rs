//! Where a frame is in its method's block table, as its own events arrive: the one place that
//! places effects (coverage's def-use sites, and the local reads `origin` lists as a
//! statement's inputs).
//!
//! The rules (docs/ARCHITECTURE.md, "Coverage entities"): a write or read event matches the
//! next effect of its kind and target in the current block, and the effects passed over ran
//! before it; a `BLOCK` or `THROW` means the current block ran to its end; after a `CATCH` it did
//! not (where the exception left it is unknown), so the next `BLOCK` drops its rest.

use std::ops::Range;

use crate::trace::wire::{BlockDef, EffectKind};

/// Effects of one block that ran: indices into `blocks[block].effects`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ran {
    pub block: usize,
    pub effects: Range<usize>,
}

#[derive(Clone, Debug, Default)]
pub struct BlockCursor {
    /// The block executing; `None` before the first `BLOCK` or after an index the table lacks.
    block: Option<usize>,
    /// The next effect of `block` to match.
    next: usize,
    /// A `CATCH` came: the block it left did not run to its end.
    exception: bool,
}

impl BlockCursor {
    pub fn block(&self) -> Option<usize> {
        self.block
    }

    /// Whether a `CATCH` came since the last `BLOCK`.
    pub fn exception(&self) -> bool {
        self.exception
    }

    /// A `CATCH`.
    pub fn catch(&mut self) {
        self.exception = true;
    }

    /// A `BLOCK`: the rest of the block left, if it ran (no `CATCH` since).
    pub fn enter(&mut self, blocks: &[BlockDef], block: u32) -> Option<Ran> {
        let rest = if self.exception {
            None
        } else {
            self.rest(blocks)
        };
        self.block = ((block as usize) < blocks.len()).then_some(block as usize);
        self.next = 0;
        self.exception = false;
        rest
    }

    /// The rest of the current block ran (`THROW`, `RETURN`).
    pub fn rest(&mut self, blocks: &[BlockDef]) -> Option<Ran> {
        let b = self.block?;
        let n = blocks[b].effects.len();
        self.advance(b, n)
    }

    /// Matches the next effect `(kind, target)`: the effects passed over and the matched
    /// effect's index. `None`, and nothing consumed, when the block has no such effect left (the
    /// event does not fit the table).
    pub fn take(
        &mut self,
        blocks: &[BlockDef],
        kind: EffectKind,
        target: u32,
    ) -> Option<(Ran, usize)> {
        let b = self.block?;
        let effects = &blocks[b].effects;
        let from = self.next.min(effects.len());
        let found = effects[from..]
            .iter()
            .position(|e| e.kind == kind && e.target == target)?
            + from;
        let passed = Ran {
            block: b,
            effects: from..found,
        };
        self.next = found + 1;
        Some((passed, found))
    }

    /// The effects before the next one that is not a local read: what a call's arguments were
    /// loaded from (calls are not effects, so this may take reads made after the call).
    pub fn pending(&mut self, blocks: &[BlockDef]) -> Option<Ran> {
        let b = self.block?;
        let effects = &blocks[b].effects;
        let from = self.next.min(effects.len());
        let to = effects[from..]
            .iter()
            .position(|e| e.kind != EffectKind::LocalRead)
            .map_or(effects.len(), |k| from + k);
        self.advance(b, to)
    }

    fn advance(&mut self, b: usize, to: usize) -> Option<Ran> {
        let from = self.next.min(to);
        self.next = to;
        Some(Ran {
            block: b,
            effects: from..to,
        })
    }
}

/// The local reads among `ran`'s effects, as (effect index, var).
pub fn local_reads<'a>(
    blocks: &'a [BlockDef],
    ran: &Ran,
) -> impl Iterator<Item = (usize, u32)> + 'a {
    let effects = &blocks[ran.block].effects[ran.effects.clone()];
    let start = ran.effects.start;
    effects
        .iter()
        .enumerate()
        .filter(|(_, e)| e.kind == EffectKind::LocalRead)
        .map(move |(i, e)| (start + i, e.target))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::wire::Effect;

    fn block(effects: &[(EffectKind, u32)]) -> BlockDef {
        BlockDef {
            start: 0,
            line: 0,
            effects: effects
                .iter()
                .map(|&(kind, target)| Effect { kind, target })
                .collect(),
            succ: Vec::new(),
        }
    }

    fn reads(blocks: &[BlockDef], ran: Option<Ran>) -> Vec<u32> {
        ran.map_or_else(Vec::new, |r| {
            local_reads(blocks, &r).map(|(_, v)| v).collect()
        })
    }

    #[test]
    fn effects_are_matched_in_order_and_the_reads_passed_over_ran() {
        use EffectKind::*;
        // x = a + b; this.f = x; return c;   then a handler block.
        let blocks = [
            block(&[
                (LocalRead, 1),
                (LocalRead, 2),
                (LocalWrite, 3),
                (LocalRead, 3),
                (FieldWrite, 9),
                (LocalRead, 4),
            ]),
            block(&[(LocalRead, 5)]),
        ];
        let mut c = BlockCursor::default();
        assert_eq!(c.take(&blocks, LocalWrite, 3), None, "no block yet");
        assert_eq!(c.enter(&blocks, 0), None);
        // An event that does not fit consumes nothing.
        assert_eq!(c.take(&blocks, StaticWrite, 3), None);
        let (passed, found) = c.take(&blocks, LocalWrite, 3).unwrap();
        assert_eq!((reads(&blocks, Some(passed)), found), (vec![1, 2], 2));
        let (passed, found) = c.take(&blocks, FieldWrite, 9).unwrap();
        assert_eq!((reads(&blocks, Some(passed)), found), (vec![3], 4));
        // The next BLOCK: the rest of block 0 ran.
        assert_eq!(reads(&blocks, c.enter(&blocks, 1)), [4]);
        assert_eq!(c.block(), Some(1));
    }

    #[test]
    fn a_catch_drops_the_rest_and_an_unknown_block_matches_nothing() {
        use EffectKind::*;
        let blocks = [block(&[(LocalRead, 1), (ArrayWrite, 0), (LocalRead, 2)])];
        let mut c = BlockCursor::default();
        c.enter(&blocks, 0);
        c.catch();
        assert!(c.exception());
        assert_eq!(reads(&blocks, c.enter(&blocks, 7)), Vec::<u32>::new());
        assert!(!c.exception());
        assert_eq!(c.block(), None);
        assert_eq!(c.take(&blocks, ArrayWrite, 0), None);
        // Pending: the local reads up to the next other effect.
        c.enter(&blocks, 0);
        assert_eq!(reads(&blocks, c.pending(&blocks)), [1]);
        assert_eq!(c.take(&blocks, ArrayWrite, 0).map(|(_, i)| i), Some(1));
        assert_eq!(reads(&blocks, c.rest(&blocks)), [2]);
        assert_eq!(reads(&blocks, c.rest(&blocks)), Vec::<u32>::new());
    }
}
