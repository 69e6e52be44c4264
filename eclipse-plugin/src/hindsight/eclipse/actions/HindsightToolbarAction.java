package hindsight.eclipse.actions;

import hindsight.eclipse.launch.LaunchAttributes;
import org.eclipse.debug.ui.actions.AbstractLaunchToolbarAction;

/** The Hindsight button of the main toolbar: the last launch again, the history in its drop-down. */
public class HindsightToolbarAction extends AbstractLaunchToolbarAction {
    public HindsightToolbarAction() {
        super(LaunchAttributes.GROUP);
    }
}
