//! A growable array of plain values kept in fixed pages, of which only a bounded number stay in
//! memory: the others are written to a page store and read back when needed. This is the VET
//! paper's *persistence bound* ([`PersistenceBound`]) applied to the per-node arrays of the
//! execution tree and the suspicious set, so that their memory stays bounded however long the
//! run.
//!
//! Where spilled pages go is the caller's: this crate does no IO, so a bound comes with a
//! [`PageStorage`] that makes one [`PageStore`] per column. `hindsight-core` gives unlinked
//! scratch files in the temporary directory; [`MemoryPages`] keeps them in memory (tests).
//!
//! Why pages rather than one `Vec`: a `Vec` that doubles holds up to twice what it needs and,
//! while it grows, the old and the new buffer at once; pages grow by 64 Ki entries at a time.
//!
//! Mutation (`&mut self`) brings a spilled page back into memory and may spill the least recently
//! mutated one. Reads (`&self`) of a spilled page go through a small cache of read-only copies
//! behind a mutex, so a reader never changes what is resident and the column stays `Sync`.

use std::fmt;
use std::io;
use std::sync::{Arc, Mutex};

/// Entries per page (a power of two).
const PAGE_BITS: u32 = 16;
pub const PAGE: usize = 1 << PAGE_BITS;

/// Spilled pages whose read-only copies a column keeps for readers.
const READ_CACHE: usize = 8;

/// Where one column's spilled pages are kept: bytes at offsets, each page at a fixed place.
pub trait PageStore: Send + Sync {
    fn write_at(&mut self, offset: u64, bytes: &[u8]) -> io::Result<()>;
    /// Fills `out` with the bytes written at `offset`.
    fn read_at(&self, offset: u64, out: &mut [u8]) -> io::Result<()>;
}

/// Makes the page store of each column under a bound, when its first page spills.
pub trait PageStorage: Send + Sync {
    fn create(&self) -> io::Result<Box<dyn PageStore>>;
}

/// Spilled pages kept in memory as bytes: for tests of the spilling (it bounds nothing).
#[derive(Clone, Copy, Debug, Default)]
pub struct MemoryPages;

impl PageStorage for MemoryPages {
    fn create(&self) -> io::Result<Box<dyn PageStore>> {
        Ok(Box::new(MemoryPageStore(Vec::new())))
    }
}

struct MemoryPageStore(Vec<u8>);

impl PageStore for MemoryPageStore {
    fn write_at(&mut self, offset: u64, bytes: &[u8]) -> io::Result<()> {
        let start = offset as usize;
        if self.0.len() < start + bytes.len() {
            self.0.resize(start + bytes.len(), 0);
        }
        self.0[start..start + bytes.len()].copy_from_slice(bytes);
        Ok(())
    }

    fn read_at(&self, offset: u64, out: &mut [u8]) -> io::Result<()> {
        let start = offset as usize;
        let bytes = self
            .0
            .get(start..start + out.len())
            .ok_or_else(|| io::Error::other("no page was written there"))?;
        out.copy_from_slice(bytes);
        Ok(())
    }
}

/// The persistence bound (VET paper): about `nodes` entries of each per-node column (the tree's
/// skeleton and coverage, the suspicious set's marks and weights) stay in memory, the most
/// recently changed pages; the others go to page stores made by `pages`.
#[derive(Clone)]
pub struct PersistenceBound {
    pub nodes: usize,
    pub pages: Arc<dyn PageStorage>,
}

impl PersistenceBound {
    pub fn new(nodes: usize, pages: Arc<dyn PageStorage>) -> Self {
        PersistenceBound { nodes, pages }
    }

    /// A bound whose spilled pages stay in memory ([`MemoryPages`]), for tests.
    pub fn in_memory(nodes: usize) -> Self {
        Self::new(nodes, Arc::new(MemoryPages))
    }
}

impl fmt::Debug for PersistenceBound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PersistenceBound({} nodes)", self.nodes)
    }
}

/// A value a column can hold: plain, fixed-size, with a byte encoding for its page store.
pub trait Cell: Copy + Send + 'static {
    const BYTES: usize;
    fn encode(self, out: &mut [u8]);
    fn decode(bytes: &[u8]) -> Self;
}

macro_rules! number_cell {
    ($t:ty) => {
        impl Cell for $t {
            const BYTES: usize = std::mem::size_of::<$t>();
            fn encode(self, out: &mut [u8]) {
                out.copy_from_slice(&self.to_le_bytes());
            }
            fn decode(bytes: &[u8]) -> Self {
                let mut b = [0u8; std::mem::size_of::<$t>()];
                b.copy_from_slice(bytes);
                <$t>::from_le_bytes(b)
            }
        }
    };
}
number_cell!(u8);
number_cell!(u32);
number_cell!(f64);

impl Cell for bool {
    const BYTES: usize = 1;
    fn encode(self, out: &mut [u8]) {
        out[0] = self as u8;
    }
    fn decode(bytes: &[u8]) -> Self {
        bytes[0] != 0
    }
}

/// A page that cannot be written to or read from its store. The column keeps the page in memory
/// when writing fails, so nothing is lost; failing to read back a page written by this process
/// means the storage (the temporary directory's disk) failed under it.
fn read_failed(e: io::Error) -> ! {
    panic!(
        "hindsight: cannot read back a page of the execution tree from where it was spilled \
         ({e}); the storage failed during the session"
    )
}

type Page<T> = [T; PAGE];

/// A page from exactly `PAGE` values (built on the heap: a page does not fit on the stack).
fn new_page<T>(values: Vec<T>) -> Box<Page<T>> {
    match values.into_boxed_slice().try_into() {
        Ok(page) => page,
        Err(_) => unreachable!("a page is built from exactly PAGE values"),
    }
}

pub struct Column<T: Cell> {
    /// Fixed-size pages: an index masked to the page size needs no bounds check.
    pages: Vec<Option<Box<Page<T>>>>,
    /// Per page: when it was last mutated (a tick of `clock`), for choosing what to spill.
    used: Vec<u64>,
    clock: u64,
    len: usize,
    fill: T,
    /// Pages allowed in memory; `usize::MAX` means no bound.
    resident_limit: usize,
    resident: usize,
    /// Makes `store` when the first page spills.
    storage: Option<Arc<dyn PageStorage>>,
    store: Option<Box<dyn PageStore>>,
    reads: Mutex<Vec<(usize, Box<Page<T>>)>>,
}

impl<T: Cell> Column<T> {
    /// An empty column whose new entries hold `fill`.
    pub fn new(fill: T) -> Self {
        Column {
            pages: Vec::new(),
            used: Vec::new(),
            clock: 0,
            len: 0,
            fill,
            resident_limit: usize::MAX,
            resident: 0,
            storage: None,
            store: None,
            reads: Mutex::new(Vec::new()),
        }
    }

    /// Keeps at most about `bound.nodes` entries in memory (at least two pages); the rest spill
    /// to a store of `bound.pages`. `None` keeps every page in memory.
    pub fn set_bound(&mut self, bound: Option<&PersistenceBound>) {
        self.resident_limit = bound.map_or(usize::MAX, |b| b.nodes.div_ceil(PAGE).max(2));
        if let Some(b) = bound {
            if self.store.is_none() {
                self.storage = Some(Arc::clone(&b.pages));
            }
        }
        self.enforce_limit(usize::MAX);
    }

    pub fn len(&self) -> usize {
        self.len
    }

    /// Pages currently written out to the page store.
    pub fn spilled_pages(&self) -> usize {
        self.pages.len() - self.resident
    }

    /// Grows to `n` entries (new ones hold the fill value); never shrinks.
    pub fn grow(&mut self, n: usize) {
        if n <= self.len {
            return;
        }
        let pages = n.div_ceil(PAGE);
        while self.pages.len() < pages {
            self.pages.push(Some(new_page(vec![self.fill; PAGE])));
            self.used.push(self.clock);
            self.resident += 1;
            let newest = self.pages.len() - 1;
            self.enforce_limit(newest);
        }
        self.len = n;
    }

    /// Empties the column and grows it back to `n` entries of `fill`.
    pub fn reset(&mut self, n: usize, fill: T) {
        self.pages.clear();
        self.used.clear();
        self.resident = 0;
        self.len = 0;
        self.fill = fill;
        self.reads.lock().unwrap_or_else(|e| e.into_inner()).clear();
        self.grow(n);
    }

    /// The entry at `i`, or `None` past the end.
    #[inline]
    pub fn get(&self, i: usize) -> Option<T> {
        if i >= self.len {
            return None;
        }
        let (p, o) = (i >> PAGE_BITS, i & (PAGE - 1));
        match &self.pages[p] {
            Some(page) => Some(page[o]),
            None => Some(self.read_spilled(p, o)),
        }
    }

    /// The entry at `i`; `i` must be below `len`.
    #[inline]
    pub fn at(&self, i: usize) -> T {
        match self.get(i) {
            Some(v) => v,
            None => panic!("column index {i} out of bounds (len {})", self.len),
        }
    }

    /// Sets the entry at `i`; `i` must be below `len`.
    #[inline]
    pub fn set(&mut self, i: usize, v: T) {
        let (p, o) = (i >> PAGE_BITS, i & (PAGE - 1));
        self.page_mut(p)[o] = v;
    }

    /// Changes the entry at `i` in place; `i` must be below `len`.
    #[inline]
    pub fn update(&mut self, i: usize, f: impl FnOnce(&mut T)) {
        let (p, o) = (i >> PAGE_BITS, i & (PAGE - 1));
        f(&mut self.page_mut(p)[o]);
    }

    #[inline]
    fn page_mut(&mut self, p: usize) -> &mut Page<T> {
        // Recency matters only under a bound; unbounded columns skip the bookkeeping.
        if self.resident_limit != usize::MAX {
            self.clock += 1;
            self.used[p] = self.clock;
        }
        if self.pages[p].is_none() {
            self.fault_in(p);
        }
        match &mut self.pages[p] {
            Some(page) => page,
            None => unreachable!("page {p} was just made resident"),
        }
    }

    /// Brings spilled page `p` back into memory (and may spill another).
    #[cold]
    fn fault_in(&mut self, p: usize) {
        let page = self.load(p).unwrap_or_else(|e| read_failed(e));
        self.pages[p] = Some(page);
        self.resident += 1;
        self.forget_read_copy(p);
        self.enforce_limit(p);
    }

    /// Spills least recently mutated pages, never `keep`, until the limit holds.
    fn enforce_limit(&mut self, keep: usize) {
        while self.resident > self.resident_limit {
            let victim = (0..self.pages.len())
                .filter(|&p| p != keep && self.pages[p].is_some())
                .min_by_key(|&p| self.used[p]);
            let Some(victim) = victim else { return };
            if self.spill(victim).is_err() {
                // The page stays in memory: over the bound rather than lost. Stop trying until
                // the next growth.
                return;
            }
        }
    }

    fn spill(&mut self, p: usize) -> io::Result<()> {
        let Some(page) = self.pages[p].as_ref() else {
            return Ok(());
        };
        let mut bytes = vec![0u8; PAGE * T::BYTES];
        for (v, chunk) in page.iter().zip(bytes.chunks_exact_mut(T::BYTES)) {
            v.encode(chunk);
        }
        if self.store.is_none() {
            let storage = self
                .storage
                .as_ref()
                .ok_or_else(|| io::Error::other("no page storage"))?;
            self.store = Some(storage.create()?);
        }
        if let Some(store) = &mut self.store {
            store.write_at((p * PAGE * T::BYTES) as u64, &bytes)?;
        }
        self.pages[p] = None;
        self.resident -= 1;
        Ok(())
    }

    fn load(&self, p: usize) -> io::Result<Box<Page<T>>> {
        let mut bytes = vec![0u8; PAGE * T::BYTES];
        match &self.store {
            Some(store) => store.read_at((p * PAGE * T::BYTES) as u64, &mut bytes)?,
            None => return Err(io::Error::other("no page store")),
        }
        Ok(new_page(
            bytes.chunks_exact(T::BYTES).map(T::decode).collect(),
        ))
    }

    #[cold]
    fn read_spilled(&self, p: usize, o: usize) -> T {
        let mut reads = self.reads.lock().unwrap_or_else(|e| e.into_inner());
        // A pass over a range reads one page many times in a row: the latest copy first.
        if let Some((q, page)) = reads.last() {
            if *q == p {
                return page[o];
            }
        }
        if let Some(k) = reads.iter().position(|(q, _)| *q == p) {
            let entry = reads.remove(k);
            let v = entry.1[o];
            reads.push(entry);
            return v;
        }
        let page = self.load(p).unwrap_or_else(|e| read_failed(e));
        let v = page[o];
        if reads.len() >= READ_CACHE {
            reads.remove(0);
        }
        reads.push((p, page));
        v
    }

    fn forget_read_copy(&mut self, p: usize) {
        self.reads
            .get_mut()
            .unwrap_or_else(|e| e.into_inner())
            .retain(|(q, _)| *q != p);
    }
}

impl<T: Cell> Clone for Column<T> {
    /// A clone holds every page in memory and keeps the bound of the original.
    fn clone(&self) -> Self {
        let mut c = Column::new(self.fill);
        c.grow(self.len);
        for i in 0..self.len {
            c.set(i, self.at(i));
        }
        if let (true, Some(pages)) = (self.resident_limit != usize::MAX, &self.storage) {
            c.set_bound(Some(&PersistenceBound::new(
                self.resident_limit * PAGE,
                Arc::clone(pages),
            )));
        }
        c
    }
}

impl<T: Cell> Default for Column<T>
where
    T: Default,
{
    fn default() -> Self {
        Column::new(T::default())
    }
}

/// The first id of the forest's own nodes (projected nodes, made when their parent completes):
/// the recorder's ids stay below it, so the two never collide while a live recording goes on.
pub const FOREST_BASE: u32 = 1 << 31;

/// A per-node column over both id ranges: the recorder's ids index `raw`, the forest's own ids
/// (from [`FOREST_BASE`]) index `forest`. Same API as [`Column`], indexed by node id.
#[derive(Clone)]
pub struct NodeColumn<T: Cell> {
    raw: Column<T>,
    forest: Column<T>,
}

impl<T: Cell> NodeColumn<T> {
    pub fn new(fill: T) -> Self {
        NodeColumn {
            raw: Column::new(fill),
            forest: Column::new(fill),
        }
    }

    pub fn set_bound(&mut self, bound: Option<&PersistenceBound>) {
        self.raw.set_bound(bound);
        self.forest.set_bound(bound);
    }

    /// Entries of the recorder's range.
    pub fn len(&self) -> usize {
        self.raw.len()
    }

    /// Entries of the forest's range.
    pub fn forest_len(&self) -> usize {
        self.forest.len()
    }

    pub fn spilled_pages(&self) -> usize {
        self.raw.spilled_pages() + self.forest.spilled_pages()
    }

    /// Grows the recorder's range to `n` entries.
    pub fn grow(&mut self, n: usize) {
        self.raw.grow(n);
    }

    /// Grows the forest's range to `n` entries.
    pub fn grow_forest(&mut self, n: usize) {
        self.forest.grow(n);
    }

    /// Empties both ranges and grows them back to `n` and `forest` entries of `fill`.
    pub fn reset(&mut self, n: usize, forest: usize, fill: T) {
        self.raw.reset(n, fill);
        self.forest.reset(forest, fill);
    }

    #[inline]
    pub fn get(&self, i: usize) -> Option<T> {
        if i >= FOREST_BASE as usize {
            self.forest.get(i - FOREST_BASE as usize)
        } else {
            self.raw.get(i)
        }
    }

    #[inline]
    pub fn at(&self, i: usize) -> T {
        if i >= FOREST_BASE as usize {
            self.forest.at(i - FOREST_BASE as usize)
        } else {
            self.raw.at(i)
        }
    }

    #[inline]
    pub fn set(&mut self, i: usize, v: T) {
        if i >= FOREST_BASE as usize {
            self.forest.set(i - FOREST_BASE as usize, v)
        } else {
            self.raw.set(i, v)
        }
    }

    #[inline]
    pub fn update(&mut self, i: usize, f: impl FnOnce(&mut T)) {
        if i >= FOREST_BASE as usize {
            self.forest.update(i - FOREST_BASE as usize, f)
        } else {
            self.raw.update(i, f)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grows_by_pages_and_keeps_values() {
        let mut c = Column::new(7u32);
        c.grow(3);
        assert_eq!((c.len(), c.get(2), c.get(3)), (3, Some(7), None));
        c.set(1, 42);
        c.grow(PAGE + 5);
        assert_eq!((c.at(1), c.at(PAGE + 4)), (42, 7));
        assert_eq!(c.spilled_pages(), 0);
    }

    #[test]
    fn a_bounded_column_spills_and_reads_back_every_value() {
        let mut c = Column::new(0u32);
        c.set_bound(Some(&PersistenceBound::in_memory(2 * PAGE)));
        let n = 6 * PAGE + 123;
        c.grow(n);
        for i in 0..n {
            c.set(i, (i as u32).wrapping_mul(2_654_435_761));
        }
        assert!(c.resident <= 2, "{} pages resident", c.resident);
        assert_eq!(c.spilled_pages(), 5);
        // Reads of spilled pages do not make them resident.
        for i in (0..n).step_by(997) {
            assert_eq!(c.at(i), (i as u32).wrapping_mul(2_654_435_761));
        }
        assert_eq!(c.spilled_pages(), 5);
        // Mutating a spilled page brings it back, and the bound still holds.
        c.update(5, |v| *v = 1);
        assert_eq!(c.at(5), 1);
        assert!(c.resident <= 2);
        assert_eq!(
            c.at(PAGE * 3 + 1),
            ((PAGE * 3 + 1) as u32).wrapping_mul(2_654_435_761)
        );
    }

    #[test]
    fn reads_see_the_latest_write_after_a_page_went_back_and_forth() {
        let mut c = Column::new(0.0f64);
        c.set_bound(Some(&PersistenceBound::in_memory(PAGE)));
        c.grow(4 * PAGE);
        c.set(10, 1.5);
        c.set(3 * PAGE, 2.5); // spills page 0 (the least recently mutated)
        assert_eq!(c.at(10), 1.5); // through the read cache
        c.set(10, 3.5); // page 0 resident again; its read copy is dropped
        c.set(3 * PAGE + 1, 4.5);
        assert_eq!(
            (c.at(10), c.at(3 * PAGE), c.at(3 * PAGE + 1)),
            (3.5, 2.5, 4.5)
        );
    }

    #[test]
    fn reset_and_clone_keep_the_bound() {
        let mut c = Column::new(false);
        c.set_bound(Some(&PersistenceBound::in_memory(PAGE)));
        c.grow(5 * PAGE);
        c.set(PAGE + 2, true);
        let d = c.clone();
        assert!(d.at(PAGE + 2) && !d.at(PAGE + 3));
        assert!(d.resident <= 2);
        c.reset(3, true);
        assert_eq!(
            (c.len(), c.at(0), c.at(2), c.spilled_pages()),
            (3, true, true, 0)
        );
    }
}
