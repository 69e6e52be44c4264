package hindsight.eclipse.launch;

import java.util.ArrayList;
import java.util.List;
import org.eclipse.core.runtime.CoreException;
import org.eclipse.core.runtime.IConfigurationElement;
import org.eclipse.core.runtime.Platform;
import org.eclipse.debug.ui.AbstractLaunchConfigurationTabGroup;
import org.eclipse.debug.ui.ILaunchConfigurationDialog;
import org.eclipse.debug.ui.ILaunchConfigurationTab;
import org.eclipse.debug.ui.ILaunchConfigurationTabGroup;

/**
 * The tabs of a Java Application in the Hindsight mode: JDT's own tabs (its tab group, created as
 * the launch dialog creates it for debug mode) with the Hindsight tab after the Main tab. JDT
 * declares its group for run and debug only, so the Hindsight mode needs a group of its own.
 */
public class JavaApplicationTabGroup extends AbstractLaunchConfigurationTabGroup {
    /** JDT's tab group of Java Applications. */
    static final String JDT_GROUP = "org.eclipse.jdt.debug.ui.launchConfigurationTabGroup.localJavaApplication";

    @Override
    public void createTabs(ILaunchConfigurationDialog dialog, String mode) {
        List<ILaunchConfigurationTab> tabs = new ArrayList<>();
        ILaunchConfigurationTabGroup jdt = jdtGroup();
        if (jdt != null) {
            jdt.createTabs(dialog, HindsightModeDelegate.WRAPPED_MODE);
            tabs.addAll(List.of(jdt.getTabs()));
        }
        tabs.add(Math.min(1, tabs.size()), new HindsightTab());
        setTabs(tabs.toArray(new ILaunchConfigurationTab[0]));
    }

    private static ILaunchConfigurationTabGroup jdtGroup() {
        for (IConfigurationElement e : Platform.getExtensionRegistry()
                .getConfigurationElementsFor("org.eclipse.debug.ui.launchConfigurationTabGroups")) {
            if (JDT_GROUP.equals(e.getAttribute("id"))) {
                try {
                    return (ILaunchConfigurationTabGroup) e.createExecutableExtension("class");
                } catch (CoreException x) {
                    hindsight.eclipse.Activator.log("creating JDT's Java Application tabs", x);
                }
            }
        }
        return null;
    }
}
