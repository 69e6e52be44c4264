package hindsight.eclipse.views;

import hindsight.eclipse.core.ChildPage;
import hindsight.eclipse.core.HindsightException;
import hindsight.eclipse.core.PathStep;
import hindsight.eclipse.core.TraceSession;
import hindsight.eclipse.core.TreeNode;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.core.runtime.Status;
import org.eclipse.core.runtime.jobs.Job;
import org.eclipse.jface.viewers.IElementComparer;
import org.eclipse.jface.viewers.ILazyTreeContentProvider;
import org.eclipse.jface.viewers.TreeViewer;
import org.eclipse.jface.viewers.Viewer;

/**
 * Feeds a virtual tree from {@link TraceSession#children}: SWT asks for the rows it shows and the
 * provider reads the page holding each in a Job (the core renders each child's question, which
 * takes a while for a page of a live recording), then fills the rows waiting for it. The UI
 * thread never waits for the core: a row not read yet stays empty until its page arrives.
 *
 * <p>A node with more than {@link #LIMIT} children shows them in ranges of at most
 * {@code LIMIT} ({@code calls [0..999]}, ranges of ranges beyond {@code LIMIT * LIMIT}): GTK
 * adds a tree's rows one by one and validates each, so a level of a million rows would hold the
 * UI thread for minutes; a level of a thousand does not.
 */
public class CallTreeContentProvider implements ILazyTreeContentProvider {
    /** Children fetched per request. */
    public static final int PAGE = 200;
    /** The most rows one level of the tree shows. */
    public static final int LIMIT = 1000;

    private final TreeViewer viewer;
    /** Pages by parent node and page number; written by Jobs, read in the UI thread. */
    private final Map<Long, Map<Integer, ChildPage>> pages = new ConcurrentHashMap<>();
    /**
     * The pages read before the last refresh: shown until their new reading arrives, so that a
     * live tree read again every half second never blinks empty.
     */
    private final Map<Long, Map<Integer, ChildPage>> stale = new HashMap<>();
    private final Map<Long, Object> parents = new HashMap<>();
    /** Rows waiting for a page: their parent element and index, by node and page. */
    private final Map<String, Map<Object, Set<Integer>>> waiting = new HashMap<>();
    private TraceSession session;
    /** The root as last read (a live tree's root gains children). */
    private TreeNode root;
    private int generation;

    /** The viewer's input: the session and its root. */
    public record Input(TraceSession session, TreeNode root) {
    }

    /** Children {@code from .. to - 1} of {@code node}, a row of a node with many children. */
    public record Range(TreeNode node, int from, int to) {
        @Override
        public String toString() {
            return "calls [" + from + ".." + (to - 1) + "]";
        }
    }

    /**
     * Rows are the same call (or range of calls) when their node ids are: a node read again
     * (its answer changed, or a stale page's copy replaced by the new reading) keeps its item's
     * selection, expansion and waiting rows, which JFace matches by equality.
     */
    public static final IElementComparer SAME_CALL = new IElementComparer() {
        @Override
        public boolean equals(Object a, Object b) {
            return key(a).equals(key(b));
        }

        @Override
        public int hashCode(Object e) {
            return key(e).hashCode();
        }

        private static Object key(Object e) {
            if (e instanceof TreeNode n) {
                return new NodeKey(n.id());
            }
            if (e instanceof Range r) {
                return new RangeKey(r.node().id(), r.from(), r.to());
            }
            return e;
        }
    };

    private record NodeKey(long id) {
    }

    private record RangeKey(long node, int from, int to) {
    }

    public CallTreeContentProvider(TreeViewer viewer) {
        this.viewer = viewer;
    }

    /** The width of the ranges a level of {@code count} children is shown in (1: no ranges). */
    static int width(int count) {
        if (count <= LIMIT) {
            return 1;
        }
        long w = LIMIT;
        while ((count + w - 1) / w > LIMIT) {
            w *= LIMIT;
        }
        return (int) w;
    }

    /** The rows of a level of {@code count} children. */
    static int rows(int count) {
        int w = width(count);
        return w == 1 ? count : (count + w - 1) / w;
    }

    @Override
    public void inputChanged(Viewer v, Object oldInput, Object newInput) {
        pages.clear();
        stale.clear();
        parents.clear();
        waiting.clear();
        generation++;
        session = newInput instanceof Input in ? in.session() : null;
        root = newInput instanceof Input in ? in.root() : null;
    }

    /**
     * Reads the tree again without losing what is expanded: the root as it is now, every row
     * read again when shown (their answers and child counts may have changed).
     */
    public void refresh(TreeNode newRoot) {
        invalidate();
        root = newRoot;
        Object input = viewer.getInput();
        viewer.getTree().clearAll(true);
        if (input != null) {
            viewer.replace(input, 0, newRoot);
            viewer.setChildCount(newRoot, rows(newRoot.childCount()));
        }
    }

    @Override
    public void updateElement(Object parent, int index) {
        // A row whose parent row was cleared (refresh) and not shown again yet: it is asked
        // for again once its parent is filled.
        if (session == null || parent == null) {
            return;
        }
        if (parent instanceof Input in) {
            TreeNode r = root != null ? root : in.root();
            viewer.replace(parent, index, r);
            viewer.setChildCount(r, rows(r.childCount()));
            return;
        }
        // The level's node, the first child it shows, and how many.
        TreeNode node;
        int from;
        int count;
        if (parent instanceof Range r) {
            node = r.node();
            from = r.from();
            count = r.to() - r.from();
        } else {
            node = (TreeNode) parent;
            from = 0;
            count = node.childCount();
        }
        int w = width(count);
        if (w > 1) {
            int start = from + index * w;
            Range sub = new Range(node, start, Math.min(from + count, start + w));
            viewer.replace(parent, index, sub);
            viewer.setChildCount(sub, rows(sub.to() - sub.from()));
            return;
        }
        int offset = from + index;
        ChildPage p = cached(node.id(), offset / PAGE);
        if (p != null) {
            fill(parent, index, offset, p);
            return;
        }
        Map<Integer, ChildPage> before = stale.get(node.id());
        ChildPage old = before == null ? null : before.get(offset / PAGE);
        if (old != null) {
            fill(parent, index, offset, old);
        }
        String key = node.id() + "/" + offset / PAGE;
        boolean requested = waiting.containsKey(key);
        waiting.computeIfAbsent(key, k -> new HashMap<>()).computeIfAbsent(parent, k -> new HashSet<>()).add(index);
        if (!requested) {
            request(node.id(), offset / PAGE, key);
        }
    }

    private ChildPage cached(long node, int page) {
        Map<Integer, ChildPage> byPage = pages.get(node);
        return byPage == null ? null : byPage.get(page);
    }

    /** Row {@code index} of {@code parent} is child {@code offset} of its node, in page {@code p}. */
    private void fill(Object parent, int index, int offset, ChildPage p) {
        int i = offset - p.offset();
        if (i >= 0 && i < p.nodes().size()) {
            TreeNode child = p.nodes().get(i);
            parents.put(child.id(), parent);
            viewer.replace(parent, index, child);
            viewer.setChildCount(child, rows(child.childCount()));
        }
    }

    private void request(long node, int page, String key) {
        TraceSession s = session;
        int gen = generation;
        Job job = Job.create("Reading the computation tree", monitor -> {
            try {
                ChildPage p = s.children(node, page * PAGE, PAGE);
                ui(() -> arrived(gen, node, page, key, p));
            } catch (HindsightException | RuntimeException e) {
                ui(() -> {
                    if (gen == generation) {
                        waiting.remove(key);
                    }
                });
                hindsight.eclipse.Activator.log("reading the children of node " + node, e);
            }
            return Status.OK_STATUS;
        });
        job.setSystem(true);
        job.schedule();
    }

    private void arrived(int gen, long node, int page, String key, ChildPage p) {
        if (gen != generation) {
            return;
        }
        pages.computeIfAbsent(node, k -> new ConcurrentHashMap<>()).put(page, p);
        Map<Object, Set<Integer>> rows = waiting.remove(key);
        if (rows != null) {
            for (Map.Entry<Object, Set<Integer>> e : rows.entrySet()) {
                int from = e.getKey() instanceof Range r ? r.from() : 0;
                for (int index : e.getValue()) {
                    fill(e.getKey(), index, from + index, p);
                }
            }
        }
    }

    /**
     * Reads, off the UI thread, every page on the way to a node (the path's steps with their
     * positions), so that expanding the way afterwards finds each row at once.
     */
    public void readWay(List<PathStep> path) throws HindsightException {
        TraceSession s = session;
        if (s == null) {
            return;
        }
        for (int k = 1; k < path.size(); k++) {
            long parent = path.get(k - 1).id();
            int page = path.get(k).index() / PAGE;
            if (cached(parent, page) == null) {
                ChildPage p = s.children(parent, page * PAGE, PAGE);
                pages.computeIfAbsent(parent, x -> new ConcurrentHashMap<>()).put(page, p);
            }
        }
    }

    /**
     * The row indexes that lead from a node's item to its child {@code index} among
     * {@code count}: the ranges on the way, then the child's row in the last range.
     */
    static int[] rowsTo(int count, int index) {
        java.util.ArrayList<Integer> out = new java.util.ArrayList<>();
        int from = 0;
        int n = count;
        int w = width(n);
        while (w > 1) {
            int k = (index - from) / w;
            out.add(k);
            from += k * w;
            n = Math.min(w, count - from);
            w = width(n);
        }
        out.add(index - from);
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    private void ui(Runnable r) {
        if (!viewer.getControl().isDisposed()) {
            viewer.getControl().getDisplay().asyncExec(() -> {
                if (!viewer.getControl().isDisposed()) {
                    r.run();
                }
            });
        }
    }

    @Override
    public void updateChildCount(Object element, int currentChildCount) {
        if (element instanceof Input in) {
            viewer.setChildCount(element, in.root() == null ? 0 : 1);
        } else if (element instanceof TreeNode n) {
            viewer.setChildCount(element, rows(n.childCount()));
        } else if (element instanceof Range r) {
            viewer.setChildCount(element, rows(r.to() - r.from()));
        }
    }

    @Override
    public Object getParent(Object element) {
        return element instanceof TreeNode n ? parents.get(n.id()) : null;
    }

    /** Forgets fetched pages, e.g. after answers changed the nodes' colours. */
    public void invalidate() {
        stale.clear();
        stale.putAll(pages);
        pages.clear();
        waiting.clear();
        generation++;
    }
}
