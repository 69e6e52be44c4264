package hindsight.eclipse.actions;

import hindsight.eclipse.views.ComputationTreeView;
import org.eclipse.core.commands.AbstractHandler;
import org.eclipse.core.commands.ExecutionEvent;

/** Ends the session before its verdict; the trace stays and can be opened again. */
public class StopHandler extends AbstractHandler {
    @Override
    public Object execute(ExecutionEvent event) {
        ComputationTreeView tree = Views.tree(event);
        if (tree != null) {
            tree.stop();
        }
        return null;
    }
}
