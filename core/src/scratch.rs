//! Scratch files for the pages the execution tree spills under its persistence bound
//! ([`crate::tree::PersistenceBound`]): one unlinked temporary file per column, in the temporary
//! directory, gone when the session ends (or crashes).

use std::fs::File;
use std::io;
use std::os::unix::fs::FileExt;
use std::sync::Arc;

use crate::tree::{PageStorage, PageStore, PersistenceBound};

/// The page storage of the debugger's sessions: unlinked files in the temporary directory.
#[derive(Clone, Copy, Debug, Default)]
pub struct ScratchFiles;

impl ScratchFiles {
    /// A persistence bound of `nodes` that spills to scratch files.
    pub fn bound(nodes: usize) -> PersistenceBound {
        PersistenceBound::new(nodes, Arc::new(ScratchFiles))
    }
}

impl PageStorage for ScratchFiles {
    fn create(&self) -> io::Result<Box<dyn PageStore>> {
        let file = tempfile::tempfile().map_err(|e| {
            io::Error::new(
                e.kind(),
                format!("creating a scratch file in the temporary directory: {e}"),
            )
        })?;
        Ok(Box::new(ScratchFile(file)))
    }
}

struct ScratchFile(File);

impl PageStore for ScratchFile {
    fn write_at(&mut self, offset: u64, bytes: &[u8]) -> io::Result<()> {
        self.0.write_all_at(bytes, offset)
    }

    fn read_at(&self, offset: u64, out: &mut [u8]) -> io::Result<()> {
        self.0.read_exact_at(out, offset)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::NodeId;
    use crate::tree::synthetic::{random_tree, Shape};
    use crate::tree::PAGE_ENTRIES;

    /// A tree bounded to one page spills the rest to scratch files and reads every node back
    /// as it was.
    #[test]
    fn a_tree_spills_to_scratch_files_and_reads_back_the_same() {
        let shape = Shape {
            calls: 3 * PAGE_ENTRIES,
            methods: 20,
            coverage: true,
            ..Shape::default()
        };
        let free = random_tree(5, &shape);
        let mut bounded = free.clone();
        bounded.set_persistence_bound(Some(ScratchFiles::bound(PAGE_ENTRIES)));
        assert!(bounded.spilled_pages() > 0);
        assert_eq!(bounded.resident_nodes(), Some(PAGE_ENTRIES));
        for i in (0..free.id_bound()).step_by(97) {
            let x = NodeId(i as u32);
            assert_eq!(bounded.parent(x), free.parent(x));
            assert_eq!(bounded.subtree_size(x), free.subtree_size(x));
            assert_eq!(bounded.method(x), free.method(x));
        }
    }
}
