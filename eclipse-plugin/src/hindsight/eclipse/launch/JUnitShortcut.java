package hindsight.eclipse.launch;

import hindsight.eclipse.Activator;
import org.eclipse.core.resources.IResource;
import org.eclipse.core.runtime.CoreException;
import org.eclipse.core.runtime.IAdaptable;
import org.eclipse.debug.core.DebugPlugin;
import org.eclipse.debug.core.ILaunchConfiguration;
import org.eclipse.debug.core.ILaunchConfigurationType;
import org.eclipse.debug.core.ILaunchConfigurationWorkingCopy;
import org.eclipse.debug.core.ILaunchManager;
import org.eclipse.debug.ui.DebugUITools;
import org.eclipse.debug.ui.ILaunchShortcut;
import org.eclipse.jdt.core.ICompilationUnit;
import org.eclipse.jdt.core.IJavaElement;
import org.eclipse.jdt.core.IMethod;
import org.eclipse.jdt.core.IType;
import org.eclipse.jdt.core.JavaCore;
import org.eclipse.jdt.launching.IJavaLaunchConfigurationConstants;
import org.eclipse.jface.dialogs.MessageDialog;
import org.eclipse.jface.viewers.ISelection;
import org.eclipse.jface.viewers.IStructuredSelection;
import org.eclipse.ui.IEditorPart;
import org.eclipse.ui.PlatformUI;

/**
 * Hindsight As > JUnit Test on a test class, a test method, a package or a project: a JUnit 4
 * launch configuration of JDT's JUnit type (reused when one with the same target exists),
 * launched in the Hindsight mode. (Debian ships JDT's JUnit launching without its UI, so this
 * shortcut creates the configuration itself.)
 */
public class JUnitShortcut implements ILaunchShortcut {
    public static final String TYPE = "org.eclipse.jdt.junit.launchconfig";
    static final String TEST_KIND = "org.eclipse.jdt.junit.TEST_KIND";
    static final String JUNIT4 = "org.eclipse.jdt.junit.loader.junit4";
    static final String TEST_NAME = "org.eclipse.jdt.junit.TESTNAME";
    static final String CONTAINER = "org.eclipse.jdt.junit.CONTAINER";
    static final String KEEP_RUNNING = "org.eclipse.jdt.junit.KEEPRUNNING_ATTR";

    @Override
    public void launch(ISelection selection, String mode) {
        if (selection instanceof IStructuredSelection s && s.getFirstElement() instanceof IAdaptable a) {
            launch(a);
        }
    }

    @Override
    public void launch(IEditorPart editor, String mode) {
        launch(editor.getEditorInput());
    }

    private void launch(IAdaptable target) {
        try {
            IJavaElement element = element(target);
            if (element == null) {
                MessageDialog.openError(PlatformUI.getWorkbench().getActiveWorkbenchWindow().getShell(), "Hindsight",
                        "Select a JUnit test class, test method, package or Java project.");
                return;
            }
            DebugUITools.launch(configuration(element), LaunchAttributes.MODE);
        } catch (CoreException e) {
            Activator.log("launching the tests with Hindsight", e);
            MessageDialog.openError(PlatformUI.getWorkbench().getActiveWorkbenchWindow().getShell(), "Hindsight",
                    e.getMessage());
        }
    }

    private static IJavaElement element(IAdaptable target) {
        IJavaElement e = target.getAdapter(IJavaElement.class);
        if (e == null) {
            IResource r = target.getAdapter(IResource.class);
            e = r == null ? null : JavaCore.create(r);
        }
        if (e instanceof ICompilationUnit cu) {
            String primary = cu.getElementName().replaceFirst("\\.java$", "");
            IType t = cu.getType(primary);
            return t.exists() ? t : cu;
        }
        return e;
    }

    /** The JUnit 4 configuration that runs {@code element}'s tests: an existing one, or a new one. */
    public static ILaunchConfiguration configuration(IJavaElement element) throws CoreException {
        ILaunchManager manager = DebugPlugin.getDefault().getLaunchManager();
        ILaunchConfigurationType type = manager.getLaunchConfigurationType(TYPE);
        if (type == null) {
            throw AgentJar.error("JDT's JUnit launching (org.eclipse.jdt.junit.core) is not installed", null);
        }
        String project = element.getJavaProject().getElementName();
        String mainType = "";
        String method = "";
        String container = "";
        String name;
        if (element instanceof IMethod m) {
            mainType = m.getDeclaringType().getFullyQualifiedName();
            method = m.getElementName();
            name = m.getDeclaringType().getElementName() + "." + method;
        } else if (element instanceof IType t) {
            mainType = t.getFullyQualifiedName();
            name = t.getElementName();
        } else {
            container = element.getHandleIdentifier();
            name = element.getElementName();
        }
        for (ILaunchConfiguration c : manager.getLaunchConfigurations(type)) {
            if (project.equals(c.getAttribute(IJavaLaunchConfigurationConstants.ATTR_PROJECT_NAME, ""))
                    && mainType.equals(c.getAttribute(IJavaLaunchConfigurationConstants.ATTR_MAIN_TYPE_NAME, ""))
                    && method.equals(c.getAttribute(TEST_NAME, ""))
                    && container.equals(c.getAttribute(CONTAINER, ""))) {
                return c;
            }
        }
        ILaunchConfigurationWorkingCopy wc = type.newInstance(null, manager.generateLaunchConfigurationName(name));
        wc.setAttribute(IJavaLaunchConfigurationConstants.ATTR_PROJECT_NAME, project);
        wc.setAttribute(IJavaLaunchConfigurationConstants.ATTR_MAIN_TYPE_NAME, mainType);
        wc.setAttribute(TEST_NAME, method);
        wc.setAttribute(CONTAINER, container);
        wc.setAttribute(TEST_KIND, JUNIT4);
        wc.setAttribute(KEEP_RUNNING, false);
        IResource resource = element.getResource();
        if (resource != null) {
            wc.setMappedResources(new IResource[] {resource});
        }
        return wc.doSave();
    }
}
