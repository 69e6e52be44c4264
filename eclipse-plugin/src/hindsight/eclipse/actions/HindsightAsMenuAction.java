package hindsight.eclipse.actions;

import hindsight.eclipse.launch.LaunchAttributes;
import org.eclipse.debug.ui.actions.LaunchShortcutsAction;

/** Run > Hindsight As: the Hindsight shortcuts for the selection. */
public class HindsightAsMenuAction extends LaunchShortcutsAction {
    public HindsightAsMenuAction() {
        super(LaunchAttributes.GROUP);
    }
}
