package hindsight.eclipse.views;

import org.eclipse.debug.ui.IDebugUIConstants;
import org.eclipse.ui.IFolderLayout;
import org.eclipse.ui.IPageLayout;
import org.eclipse.ui.IPerspectiveFactory;

/**
 * The Hindsight perspective (as JHyde had): the Computation Tree at the left, taking the height
 * it needs for deep trees and long questions; the editor top right; the Node view under it, wide
 * enough for its three columns; the Event List, the Variable History and the Console at the
 * bottom left with the Hindsight Queries; the Debug view and the traces with the tree.
 */
public class HindsightPerspective implements IPerspectiveFactory {
    public static final String ID = "hindsight.eclipse.perspective";

    @Override
    public void createInitialLayout(IPageLayout layout) {
        String editor = layout.getEditorArea();
        IFolderLayout tree = layout.createFolder("hindsight.left", IPageLayout.LEFT, 0.45f, editor);
        tree.addView(ComputationTreeView.ID);
        tree.addView(IDebugUIConstants.ID_DEBUG_VIEW);
        tree.addView(TracesView.ID);
        IFolderLayout bottomLeft = layout.createFolder("hindsight.bottomLeft", IPageLayout.BOTTOM, 0.62f,
                "hindsight.left");
        bottomLeft.addView(EventListView.ID);
        bottomLeft.addView(VariableHistoryView.ID);
        bottomLeft.addView(QueryView.ID);
        bottomLeft.addView("org.eclipse.ui.console.ConsoleView");
        IFolderLayout bottomRight = layout.createFolder("hindsight.bottomRight", IPageLayout.BOTTOM, 0.5f, editor);
        bottomRight.addView(NodeView.ID);
        bottomRight.addView(IDebugUIConstants.ID_VARIABLE_VIEW);
        bottomRight.addView(IPageLayout.ID_PROBLEM_VIEW);
        layout.addShowViewShortcut(ComputationTreeView.ID);
        layout.addShowViewShortcut(NodeView.ID);
        layout.addShowViewShortcut(EventListView.ID);
        layout.addShowViewShortcut(VariableHistoryView.ID);
        layout.addShowViewShortcut(TracesView.ID);
        layout.addShowViewShortcut(QueryView.ID);
        layout.addPerspectiveShortcut("org.eclipse.debug.ui.DebugPerspective");
        layout.addActionSet("hindsight.eclipse.actionSet");
        layout.addActionSet(IDebugUIConstants.LAUNCH_ACTION_SET);
    }
}
