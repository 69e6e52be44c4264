package hindsight.eclipse.launch;

import org.eclipse.debug.ui.ILaunchShortcut;
import org.eclipse.jdt.debug.ui.launchConfigurations.JavaApplicationLaunchShortcut;
import org.eclipse.jface.viewers.ISelection;
import org.eclipse.ui.IEditorPart;

/**
 * Hindsight As > Java Application: JDT's own shortcut in the Hindsight mode. It finds the main
 * types (asking which one when there are several), reuses or creates the Java Application
 * configuration, and launches it; the mode's delegate records it.
 */
public class JavaApplicationShortcut implements ILaunchShortcut {
    private final JavaApplicationLaunchShortcut jdt = new JavaApplicationLaunchShortcut();

    @Override
    public void launch(ISelection selection, String mode) {
        jdt.launch(selection, LaunchAttributes.MODE);
    }

    @Override
    public void launch(IEditorPart editor, String mode) {
        jdt.launch(editor, LaunchAttributes.MODE);
    }
}
