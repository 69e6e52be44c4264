package hindsight.eclipse.views;

import hindsight.eclipse.core.TreeNode;
import hindsight.eclipse.core.ChildPage;
import hindsight.eclipse.core.HindsightException;
import hindsight.eclipse.core.TraceSession;
import java.util.HashMap;
import java.util.Map;
import org.eclipse.jface.viewers.ILazyTreeContentProvider;
import org.eclipse.jface.viewers.TreeViewer;
import org.eclipse.jface.viewers.Viewer;

/**
 * Feeds a virtual tree from {@link TraceSession#children}: SWT asks for the rows it shows and the
 * provider fetches the page holding each, so a tree of millions of nodes costs only what is visible.
 */
public class CallTreeContentProvider implements ILazyTreeContentProvider {
    /** Children fetched per request. */
    public static final int PAGE = 200;

    private final TreeViewer viewer;
    private final Map<Long, ChildPage> pages = new HashMap<>();
    private final Map<Long, Object> parents = new HashMap<>();
    private TraceSession session;

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
        session = newInput instanceof Input in ? in.session() : null;
    }

    @Override
    public void updateElement(Object parent, int index) {
        if (session == null) {
            return;
        }
        if (parent instanceof Input in) {
            viewer.replace(parent, index, in.root());
            viewer.setChildCount(in.root(), in.root().childCount());
            return;
        }
        TreeNode node = (TreeNode) parent;
        try {
            ChildPage page = pages.get(node.id());
            if (page == null || index < page.offset() || index >= page.offset() + page.nodes().size()) {
                int offset = index / PAGE * PAGE;
                page = session.children(node.id(), offset, PAGE);
                pages.put(node.id(), page);
            }
            int i = index - page.offset();
            if (i >= 0 && i < page.nodes().size()) {
                TreeNode child = page.nodes().get(i);
                parents.put(child.id(), node);
                viewer.replace(parent, index, child);
                viewer.setChildCount(child, child.childCount());
            }
        } catch (HindsightException e) {
            hindsight.eclipse.Activator.log("reading the children of node " + node.id(), e);
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
    }
}
