package hindsight.eclipse.views;

import hindsight.eclipse.core.HindsightException;
import hindsight.eclipse.core.Sessions;
import hindsight.eclipse.core.TraceSession;
import hindsight.eclipse.core.TreeNode;
import java.util.List;
import org.eclipse.ui.IWorkbenchPage;

/** Every view leads to the others: to a call at a moment in the tree, the Event List and the Node view. */
final class Navigation {
    private Navigation() {
    }

    /**
     * Selects node {@code id} in the Computation Tree (revealing it), loads its events into the
     * Event List with the one at {@code timestamp} selected, and moves the Node view there.
     */
    static void goTo(IWorkbenchPage page, long id, long timestamp) {
        TraceSession s = Sessions.current();
        if (s == null) {
            return;
        }
        TreeNode node = node(s, id);
        // After the tree's selection, which moves the other views to the call's exit.
        Runnable toMoment = () -> {
            if (node != null && Sessions.current() == s) {
                moment(page, node, timestamp);
            }
        };
        if (page.findView(ComputationTreeView.ID) instanceof ComputationTreeView tree) {
            tree.reveal(id, toMoment);
        } else {
            toMoment.run();
        }
    }

    private static void moment(IWorkbenchPage page, TreeNode node, long timestamp) {
        if (page.findView(EventListView.ID) instanceof EventListView events) {
            events.showNode(node, timestamp);
        }
        if (page.findView(NodeView.ID) instanceof NodeView nodes) {
            nodes.showAt(node, timestamp, "at the change (t=" + timestamp + ")");
        }
    }

    /** Node {@code id} as the tree shows it, read from its parent's page of children. */
    static TreeNode node(TraceSession s, long id) {
        try {
            var path = s.pathTo(id);
            if (path.size() < 2) {
                return s.root();
            }
            long parent = path.get(path.size() - 2).id();
            int index = path.get(path.size() - 1).index();
            List<TreeNode> nodes = s.children(parent, index, 1).nodes();
            return nodes.isEmpty() ? null : nodes.get(0);
        } catch (HindsightException e) {
            return null;
        }
    }
}
