package hindsight.eclipse.views;

import hindsight.eclipse.core.ChildPage;
import hindsight.eclipse.core.HindsightException;
import hindsight.eclipse.core.TraceSession;
import hindsight.eclipse.core.TreeNode;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.core.runtime.Status;
import org.eclipse.core.runtime.jobs.Job;
import org.eclipse.jface.viewers.ILazyTreeContentProvider;
import org.eclipse.jface.viewers.TreeViewer;
import org.eclipse.jface.viewers.Viewer;

/**
 * Feeds a virtual tree from {@link TraceSession#children}: SWT asks for the rows it shows and the
 * provider reads the page holding each in a Job (the core renders each child's question, which
 * takes a while for a page of a live recording), then fills the rows waiting for it. The UI
 * thread never waits for the core: a row not read yet stays empty until its page arrives.
 */
public class CallTreeContentProvider implements ILazyTreeContentProvider {
    /** Children fetched per request. */
    public static final int PAGE = 200;

    private final TreeViewer viewer;
    /** Pages by parent node and page number; read by Jobs' results, used in the UI thread. */
    private final Map<Long, Map<Integer, ChildPage>> pages = new ConcurrentHashMap<>();
    private final Map<Long, Object> parents = new HashMap<>();
    /** Rows waiting for a page: parent element and index, by parent id and page. */
    private final Map<String, Set<Integer>> waiting = new HashMap<>();
    private final Map<String, Object> waitingParents = new HashMap<>();
    private TraceSession session;
    /** The root as last read (a live tree's root gains children). */
    private TreeNode root;
    private int generation;

    /** The viewer's input: the session and its root. */
    public record Input(TraceSession session, TreeNode root) {
    }

    public CallTreeContentProvider(TreeViewer viewer) {
        this.viewer = viewer;
    }

    @Override
    public void inputChanged(Viewer v, Object oldInput, Object newInput) {
        pages.clear();
        parents.clear();
        waiting.clear();
        waitingParents.clear();
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
            viewer.setChildCount(newRoot, newRoot.childCount());
        }
    }

    @Override
    public void updateElement(Object parent, int index) {
        if (session == null) {
            return;
        }
        if (parent instanceof Input in) {
            TreeNode root = this.root != null ? this.root : in.root();
            viewer.replace(parent, index, root);
            viewer.setChildCount(root, root.childCount());
            return;
        }
        TreeNode node = (TreeNode) parent;
        int page = index / PAGE;
        ChildPage p = cached(node.id(), page);
        if (p != null) {
            fill(node, index, p);
            return;
        }
        String key = node.id() + "/" + page;
        boolean requested = waiting.containsKey(key);
        waiting.computeIfAbsent(key, k -> new HashSet<>()).add(index);
        waitingParents.put(key, parent);
        if (!requested) {
            request(node.id(), page, key);
        }
    }

    private ChildPage cached(long node, int page) {
        Map<Integer, ChildPage> byPage = pages.get(node);
        return byPage == null ? null : byPage.get(page);
    }

    private void fill(TreeNode parent, int index, ChildPage p) {
        int i = index - p.offset();
        if (i >= 0 && i < p.nodes().size()) {
            TreeNode child = p.nodes().get(i);
            parents.put(child.id(), parent);
            viewer.replace(parent, index, child);
            viewer.setChildCount(child, child.childCount());
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
        Set<Integer> rows = waiting.remove(key);
        Object parent = waitingParents.remove(key);
        if (rows != null && parent instanceof TreeNode n) {
            for (int index : rows) {
                fill(n, index, p);
            }
        }
    }

    /**
     * Reads, off the UI thread, every page on the way to a node (the path's steps with their
     * positions), so that expanding the way afterwards finds each row at once.
     */
    public void readWay(java.util.List<hindsight.eclipse.core.PathStep> path) throws HindsightException {
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
            viewer.setChildCount(element, n.childCount());
        }
    }

    @Override
    public Object getParent(Object element) {
        return element instanceof TreeNode n ? parents.get(n.id()) : null;
    }

    /** Forgets fetched pages, e.g. after answers changed the nodes' colours. */
    public void invalidate() {
        pages.clear();
        waiting.clear();
        waitingParents.clear();
        generation++;
    }
}
