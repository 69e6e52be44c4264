package hindsight.eclipse.actions;

import hindsight.eclipse.views.ComputationTreeView;
import org.eclipse.core.commands.AbstractHandler;
import org.eclipse.core.commands.ExecutionEvent;

/** Takes back the last answer. */
public class UndoHandler extends AbstractHandler {
    @Override
    public Object execute(ExecutionEvent event) {
        ComputationTreeView tree = Views.tree(event);
        if (tree != null) {
            tree.undo();
        }
        return null;
    }
}
