package hindsight.eclipse.actions;

import hindsight.eclipse.launch.LaunchAttributes;
import org.eclipse.debug.ui.actions.ContextualLaunchAction;

/** "Hindsight As" in the context menus of classes, methods, tests, packages and projects. */
public class HindsightContextAction extends ContextualLaunchAction {
    public HindsightContextAction() {
        super(LaunchAttributes.MODE);
    }
}
