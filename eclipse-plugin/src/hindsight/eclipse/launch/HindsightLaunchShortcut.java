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
import org.eclipse.jdt.core.IJavaProject;
import org.eclipse.jdt.core.IMethod;
import org.eclipse.jdt.core.IPackageFragment;
import org.eclipse.jdt.core.IPackageFragmentRoot;
import org.eclipse.jdt.core.IType;
import org.eclipse.jdt.core.JavaCore;
import org.eclipse.jdt.core.JavaModelException;
import org.eclipse.jdt.launching.IJavaLaunchConfigurationConstants;
import org.eclipse.jface.dialogs.MessageDialog;
import org.eclipse.jface.viewers.ISelection;
import org.eclipse.jface.viewers.IStructuredSelection;
import org.eclipse.ui.IEditorPart;
import org.eclipse.ui.PlatformUI;

/** Run As / Debug As > Hindsight Java Application on a Java file or project. */
public class HindsightLaunchShortcut implements ILaunchShortcut {
    @Override
    public void launch(ISelection selection, String mode) {
        if (selection instanceof IStructuredSelection s && s.getFirstElement() instanceof IAdaptable a) {
            launch(a, mode);
        }
    }

    @Override
    public void launch(IEditorPart editor, String mode) {
        launch(editor.getEditorInput(), mode);
    }

    private void launch(IAdaptable target, String mode) {
        try {
            IType main = mainType(target);
            if (main == null) {
                MessageDialog.openError(PlatformUI.getWorkbench().getActiveWorkbenchWindow().getShell(),
                        "Hindsight", "No class with a main method in the selection.");
                return;
            }
            DebugUITools.launch(configuration(main), mode);
        } catch (CoreException e) {
            Activator.log("launching with Hindsight", e);
            MessageDialog.openError(PlatformUI.getWorkbench().getActiveWorkbenchWindow().getShell(),
                    "Hindsight", e.getMessage());
        }
    }

    /** The first type with a {@code main} method in a Java element, file or project. */
    public static IType mainType(IAdaptable target) throws JavaModelException {
        IJavaElement element = target.getAdapter(IJavaElement.class);
        if (element == null) {
            IResource r = target.getAdapter(IResource.class);
            element = r == null ? null : JavaCore.create(r);
        }
        if (element instanceof ICompilationUnit cu) {
            return mainIn(cu);
        }
        if (element instanceof IType t) {
            return mainIn(t.getCompilationUnit());
        }
        if (element instanceof IJavaProject p) {
            for (IPackageFragmentRoot root : p.getPackageFragmentRoots()) {
                if (root.getKind() != IPackageFragmentRoot.K_SOURCE) {
                    continue;
                }
                for (IJavaElement child : root.getChildren()) {
                    for (ICompilationUnit cu : ((IPackageFragment) child).getCompilationUnits()) {
                        IType t = mainIn(cu);
                        if (t != null) {
                            return t;
                        }
                    }
                }
            }
        }
        return null;
    }

    private static IType mainIn(ICompilationUnit cu) throws JavaModelException {
        if (cu == null) {
            return null;
        }
        for (IType t : cu.getAllTypes()) {
            for (IMethod m : t.getMethods()) {
                if (m.isMainMethod()) {
                    return t;
                }
            }
        }
        return null;
    }

    /** The existing Hindsight configuration for {@code main}, or a new one. */
    public static ILaunchConfiguration configuration(IType main) throws CoreException {
        ILaunchManager manager = DebugPlugin.getDefault().getLaunchManager();
        ILaunchConfigurationType type = manager.getLaunchConfigurationType(HindsightLaunchDelegate.TYPE_ID);
        String project = main.getJavaProject().getElementName();
        String name = main.getFullyQualifiedName();
        for (ILaunchConfiguration c : manager.getLaunchConfigurations(type)) {
            if (name.equals(c.getAttribute(IJavaLaunchConfigurationConstants.ATTR_MAIN_TYPE_NAME, ""))
                    && project.equals(c.getAttribute(IJavaLaunchConfigurationConstants.ATTR_PROJECT_NAME, ""))) {
                return c;
            }
        }
        ILaunchConfigurationWorkingCopy wc =
                type.newInstance(null, manager.generateLaunchConfigurationName(main.getElementName()));
        wc.setAttribute(IJavaLaunchConfigurationConstants.ATTR_PROJECT_NAME, project);
        wc.setAttribute(IJavaLaunchConfigurationConstants.ATTR_MAIN_TYPE_NAME, name);
        wc.setMappedResources(new IResource[] {main.getUnderlyingResource()});
        return wc.doSave();
    }
}
