package hindsight.eclipse.launch;

import org.eclipse.debug.ui.AbstractLaunchConfigurationTabGroup;
import org.eclipse.debug.ui.CommonTab;
import org.eclipse.debug.ui.EnvironmentTab;
import org.eclipse.debug.ui.ILaunchConfigurationDialog;
import org.eclipse.debug.ui.ILaunchConfigurationTab;
import org.eclipse.debug.ui.sourcelookup.SourceLookupTab;
import org.eclipse.jdt.debug.ui.launchConfigurations.JavaArgumentsTab;
import org.eclipse.jdt.debug.ui.launchConfigurations.JavaClasspathTab;
import org.eclipse.jdt.debug.ui.launchConfigurations.JavaJRETab;

/**
 * The tabs of JDT's JUnit launch type where Debian ships no JUnit UI: the generic Java tabs and
 * the Hindsight tab (the test to run is set by Hindsight As > JUnit Test).
 */
public class JUnitTabGroup extends AbstractLaunchConfigurationTabGroup {
    @Override
    public void createTabs(ILaunchConfigurationDialog dialog, String mode) {
        setTabs(new ILaunchConfigurationTab[] {new HindsightTab(), new JavaArgumentsTab(), new JavaJRETab(),
            new JavaClasspathTab(), new SourceLookupTab(), new EnvironmentTab(), new CommonTab()});
    }
}
