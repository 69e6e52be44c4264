package hindsight.eclipse.tests;

import hindsight.eclipse.launch.AgentJar;
import hindsight.eclipse.launch.HindsightModeDelegate;
import hindsight.eclipse.launch.HindsightTab;
import hindsight.eclipse.launch.JavaApplicationShortcut;
import hindsight.eclipse.launch.LaunchAttributes;
import hindsight.eclipse.preferences.HindsightPreferencePage;
import hindsight.eclipse.preferences.PreferenceConstants;
import hindsight.eclipse.views.SessionView;
import java.io.File;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.core.expressions.EvaluationContext;
import org.eclipse.core.expressions.EvaluationResult;
import org.eclipse.core.expressions.Expression;
import org.eclipse.core.expressions.ExpressionConverter;
import org.eclipse.core.resources.IFile;
import org.eclipse.core.resources.IFolder;
import org.eclipse.core.resources.IProject;
import org.eclipse.core.resources.IProjectDescription;
import org.eclipse.core.resources.ResourcesPlugin;
import org.eclipse.core.runtime.IConfigurationElement;
import org.eclipse.core.runtime.Platform;
import org.eclipse.debug.core.DebugPlugin;
import org.eclipse.debug.core.ILaunch;
import org.eclipse.debug.core.ILaunchConfiguration;
import org.eclipse.debug.core.ILaunchConfigurationType;
import org.eclipse.debug.core.model.IProcess;
import org.eclipse.debug.ui.DebugUITools;
import org.eclipse.debug.ui.IDebugUIConstants;
import org.eclipse.jdt.core.IClasspathEntry;
import org.eclipse.jdt.core.ICompilationUnit;
import org.eclipse.jdt.core.IJavaProject;
import org.eclipse.jdt.core.IType;
import org.eclipse.jdt.core.JavaCore;
import org.eclipse.jdt.launching.JavaRuntime;
import org.eclipse.jface.preference.PreferenceDialog;
import org.eclipse.jface.viewers.StructuredSelection;
import org.eclipse.swt.custom.CTabFolder;
import org.eclipse.swt.custom.CTabItem;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.TabFolder;
import org.eclipse.swt.widgets.TabItem;
import org.eclipse.ui.IViewPart;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.PlatformUI;
import org.eclipse.ui.dialogs.PreferencesUtil;
import org.eclipse.ui.ide.IDE;
import org.eclipse.ui.console.ConsolePlugin;
import org.eclipse.ui.console.IConsole;
import org.eclipse.ui.console.TextConsole;
import org.eclipse.ui.views.IViewDescriptor;
import org.osgi.framework.Bundle;

/** The workbench-level tests of the plugin's shell: views, launch type, preferences, shortcut. */
public class WorkbenchTests {
    static final String DEBUG_PERSPECTIVE = "org.eclipse.debug.ui.DebugPerspective";
    static final String[] VIEWS = {"hindsight.eclipse.views.tree", "hindsight.eclipse.views.node",
        "hindsight.eclipse.views.events", "hindsight.eclipse.views.history"};
    static final String SHORTCUT = "hindsight.eclipse.shortcut.javaApplication";
    static final String JUNIT_SHORTCUT = "hindsight.eclipse.shortcut.junit";
    static final String JAVA_APPLICATION = "org.eclipse.jdt.launching.localJavaApplication";

    private ICompilationUnit mergeSort;
    private IJavaProject project;

    List<Harness.Step> steps() {
        return List.of(
                new Harness.Step("plugin bundle carries native library and agent", this::packaging),
                new Harness.Step("debug perspective opens", this::debugPerspective),
                new Harness.Step("four views in the debug perspective", this::views),
                new Harness.Step("hindsight mode wraps java launches, with a hindsight tab", this::launchType),
                new Harness.Step("preference page with defaults", this::preferences),
                new Harness.Step("java project with MergeSort", this::javaProject),
                new Harness.Step("hindsight as offered for MergeSort", this::shortcut),
                new Harness.Step("hindsight as runs MergeSort with the agent", this::launchWithAgent));
    }

    private static IWorkbenchPage page() {
        return PlatformUI.getWorkbench().getActiveWorkbenchWindow().getActivePage();
    }

    private void packaging(Harness h) throws Exception {
        Bundle b = Check.notNull(Platform.getBundle("hindsight.eclipse"), "bundle hindsight.eclipse");
        Check.notNull(b.getEntry("native/linux-x86_64/libhindsight_jni.so"), "native library entry");
        Check.isTrue(String.valueOf(b.getHeaders().get("Bundle-NativeCode")).contains("osname=Linux"),
                "Bundle-NativeCode names Linux");
        File agent = AgentJar.file();
        Check.isTrue(agent.isFile() && agent.length() > 0, "agent jar extracted to " + agent);
        String arg = HindsightModeDelegate.agentOptions(Path.of("/tmp/x.sock"), "p.*, q.Main");
        Check.equal(String.join(" ", HindsightModeDelegate.JIT_OPTIONS) + " -javaagent:" + agent.getAbsolutePath()
                + "=socket=/tmp/x.sock,include=p.*,q.Main,exclude=" + LaunchAttributes.RUNNER_EXCLUDES, arg,
                "agent argument");
        Check.isTrue(!b.getVersion().getQualifier().equals("qualifier"), "qualifier replaced: " + b.getVersion());
    }

    private void debugPerspective(Harness h) throws Exception {
        PlatformUI.getWorkbench().showPerspective(DEBUG_PERSPECTIVE, PlatformUI.getWorkbench().getActiveWorkbenchWindow());
        h.settle(500);
        Check.equal(DEBUG_PERSPECTIVE, page().getPerspective().getId(), "active perspective");
    }

    private void views(Harness h) throws Exception {
        for (String id : VIEWS) {
            IViewDescriptor d = Check.notNull(PlatformUI.getWorkbench().getViewRegistry().find(id), "view " + id);
            Check.equal("Hindsight", String.join("/", d.getCategoryPath()), "category of " + id);
            // The perspective extension places the views: they exist before anyone asks to show them.
            Check.notNull(page().findViewReference(id), id + " placed in the Debug perspective");
        }
        for (String id : VIEWS) {
            IViewPart v = page().showView(id);
            h.settle(200);
            Check.isTrue(v instanceof SessionView, id + " is a SessionView");
            Check.isTrue(((SessionView) v).isEmptyStateShowing(), id + " shows '" + SessionView.EMPTY_TEXT + "'");
        }
        page().showView(VIEWS[0]);
        page().showView(VIEWS[2]);
    }

    private void launchType(Harness h) throws Exception {
        var manager = DebugPlugin.getDefault().getLaunchManager();
        Check.notNull(manager.getLaunchMode(LaunchAttributes.MODE), "the Hindsight launch mode");
        for (String typeId : new String[] {JAVA_APPLICATION, "org.eclipse.jdt.junit.launchconfig"}) {
            ILaunchConfigurationType type = Check.notNull(manager.getLaunchConfigurationType(typeId), typeId);
            Check.isTrue(type.supportsMode(LaunchAttributes.MODE), typeId + " supports the Hindsight mode");
            Check.isTrue(type.getDelegates(java.util.Set.of(LaunchAttributes.MODE))[0].getDelegate()
                    instanceof HindsightModeDelegate, "the delegate of " + typeId + " in the Hindsight mode");
        }
        ILaunchConfigurationType type = manager.getLaunchConfigurationType(JAVA_APPLICATION);
        ILaunchConfiguration config = type.newInstance(null, "Hindsight MergeSort").doSave();
        Shell shell = PlatformUI.getWorkbench().getActiveWorkbenchWindow().getShell();
        List<String> tabs = new ArrayList<>();
        // The dialog is modal: inspect, photograph and close it from a timer inside its event loop.
        // Without a window manager no shell is "active", so look for the dialog among all shells.
        Runnable[] inspect = new Runnable[1];
        int[] tries = {0};
        inspect[0] = () -> {
            Shell dialog = null;
            for (Shell s : h.display().getShells()) {
                if (s != shell && s.isVisible()) {
                    dialog = s;
                }
            }
            if (dialog == null && ++tries[0] < 100) {
                h.display().timerExec(200, inspect[0]);
                return;
            }
            if (dialog != null) {
                h.settle(1000);
                collectTabs(dialog, tabs);
                selectTab(dialog, HindsightTab.NAME);
                h.settle(500);
                h.screenshot("hindsight launch dialog with its hindsight tab");
                dialog.close();
            }
        };
        h.display().timerExec(500, inspect[0]);
        DebugUITools.openLaunchConfigurationDialog(shell, config, LaunchAttributes.GROUP, null);
        config.delete();
        Check.isTrue(tabs.contains("Main") && tabs.contains(HindsightTab.NAME),
                "the Java Application tabs and the Hindsight tab: " + tabs);
    }

    private static void selectTab(Control c, String name) {
        if (c instanceof CTabFolder f) {
            for (CTabItem i : f.getItems()) {
                if (i.getText().replace("&", "").equals(name)) {
                    f.setSelection(i);
                    f.notifyListeners(org.eclipse.swt.SWT.Selection, new org.eclipse.swt.widgets.Event());
                }
            }
        } else if (c instanceof Composite comp) {
            for (Control child : comp.getChildren()) {
                selectTab(child, name);
            }
        }
    }

    private static void collectTabs(Control c, List<String> out) {
        if (c instanceof CTabFolder f && out.isEmpty()) {
            for (CTabItem i : f.getItems()) {
                out.add(i.getText().replace("&", ""));
            }
        } else if (c instanceof TabFolder f && out.isEmpty()) {
            for (TabItem i : f.getItems()) {
                out.add(i.getText().replace("&", ""));
            }
        } else if (c instanceof Composite comp) {
            for (Control child : comp.getChildren()) {
                collectTabs(child, out);
            }
        }
    }

    private void preferences(Harness h) throws Exception {
        var store = PreferenceConstants.store();
        Check.equal("edge-coverage", store.getDefaultString(PreferenceConstants.STRATEGY), "default strategy");
        Check.equal(0.5, store.getDefaultDouble(PreferenceConstants.P_EDGES), "default p for edges");
        Check.equal(0.6, store.getDefaultDouble(PreferenceConstants.P_DEF_USE), "default p for def-use");
        Shell shell = PlatformUI.getWorkbench().getActiveWorkbenchWindow().getShell();
        PreferenceDialog d = PreferencesUtil.createPreferenceDialogOn(shell, HindsightPreferencePage.ID, null, null);
        d.setBlockOnOpen(false);
        d.open();
        h.settle(800);
        try {
            Check.isTrue(d.getSelectedPage() instanceof HindsightPreferencePage, "Hindsight page selected");
            Check.isTrue(((HindsightPreferencePage) d.getSelectedPage()).isValid(), "defaults are valid");
            h.screenshot("preference page");
        } finally {
            d.close();
        }
    }

    private void javaProject(Harness h) throws Exception {
        IProject p = ResourcesPlugin.getWorkspace().getRoot().getProject("mergesort");
        p.create(null);
        p.open(null);
        IProjectDescription desc = p.getDescription();
        desc.setNatureIds(new String[] {JavaCore.NATURE_ID});
        p.setDescription(desc, null);
        IFolder src = p.getFolder("src");
        src.create(true, true, null);
        project = JavaCore.create(p);
        project.setRawClasspath(new IClasspathEntry[] {JavaCore.newSourceEntry(src.getFullPath()),
            JavaRuntime.getDefaultJREContainerEntry()}, p.getFolder("bin").getFullPath(), null);
        IFile file = src.getFile("MergeSort.java");
        try (InputStream in = Platform.getBundle("hindsight.eclipse.tests").getEntry("resources/MergeSort.java").openStream()) {
            file.create(in, true, null);
        }
        mergeSort = Check.notNull(JavaCore.createCompilationUnitFrom(file), "compilation unit");
        Check.isTrue(mergeSort.exists(), "MergeSort.java is a compilation unit of a Java project");
        IDE.openEditor(page(), file);
        page().showView(JavaUI_PACKAGE_EXPLORER);
        h.settle(1000);
    }

    static final String JavaUI_PACKAGE_EXPLORER = "org.eclipse.jdt.ui.PackageExplorer";

    private void shortcut(Harness h) throws Exception {
        Check.notNull(mergeSort, "MergeSort.java from the previous step");
        Expression enablement = shortcutEnablement(SHORTCUT);
        Check.isTrue(offered(enablement, mergeSort), "Hindsight As > Java Application offered for MergeSort.java");
        Check.isTrue(offered(enablement, project), "Hindsight As > Java Application offered for the Java project");
        IFile notJava = project.getProject().getFile(".project");
        Check.isTrue(!offered(enablement, notJava), "not offered for .project");
        Check.notNull(shortcutEnablement(JUNIT_SHORTCUT), "Hindsight As > JUnit Test is registered");
        // Run As and Debug As offer the same launches.
        Check.isTrue(offered(shortcutEnablement(SHORTCUT + ".runDebug", "run"), mergeSort),
                "Run As > Java Application with Hindsight offered for MergeSort.java");
        Check.notNull(shortcutEnablement(JUNIT_SHORTCUT + ".runDebug", "debug"), "Debug As > JUnit Test with Hindsight");
    }

    /** The newest launch not in {@code before}, once it terminated. */
    static ILaunch launchAfter(Harness h, java.util.Set<ILaunch> before, long millis) {
        var manager = DebugPlugin.getDefault().getLaunchManager();
        ILaunch[] found = {null};
        h.waitUntil(() -> {
            for (ILaunch l : manager.getLaunches()) {
                if (!before.contains(l) && l.isTerminated()) {
                    found[0] = l;
                    return true;
                }
            }
            return false;
        }, millis);
        return found[0];
    }

    private void launchWithAgent(Harness h) throws Exception {
        Check.notNull(mergeSort, "MergeSort.java from the previous steps");
        IFile classFile = project.getProject().getFile("bin/MergeSort.class");
        Check.isTrue(h.waitUntil(classFile::exists, 60_000), "JDT built bin/MergeSort.class within 60 s");
        var manager = DebugPlugin.getDefault().getLaunchManager();
        var before = java.util.Set.of(manager.getLaunches());
        new JavaApplicationShortcut().launch(new StructuredSelection(mergeSort), LaunchAttributes.MODE);
        ILaunch launch = Check.notNull(launchAfter(h, before, 60_000), "a launch that terminated within 60 s");
        Check.equal(LaunchAttributes.MODE, launch.getLaunchMode(), "launch mode");
        Check.equal(JAVA_APPLICATION, launch.getLaunchConfiguration().getType().getIdentifier(),
                "JDT's Java Application configuration");
        Check.isTrue(launch.getDebugTarget() != null, "the program ran under the Java debugger");
        IProcess process = Check.notNull(launch.getProcesses().length == 1 ? launch.getProcesses()[0] : null,
                "the launched process");
        // The runner sets the command line after starting the process, which may end first.
        h.waitUntil(() -> process.getAttribute(IProcess.ATTR_CMDLINE) != null, 10_000);
        String cmdline = String.valueOf(process.getAttribute(IProcess.ATTR_CMDLINE));
        String agent = "-javaagent:" + AgentJar.file().getAbsolutePath() + "=socket=";
        Check.isTrue(cmdline.contains(agent), "command line has " + agent + ": " + cmdline);
        for (String option : HindsightModeDelegate.JIT_OPTIONS) {
            Check.isTrue(cmdline.contains(option), "command line has " + option + ": " + cmdline);
        }
        Check.isTrue(!launch.getLaunchConfiguration().getAttribute(
                org.eclipse.jdt.launching.IJavaLaunchConfigurationConstants.ATTR_VM_ARGUMENTS, "").contains("javaagent"),
                "the user's configuration is unchanged");
        page().showView("org.eclipse.ui.console.ConsoleView");
        // The Console fills its document asynchronously.
        h.waitUntil(() -> {
            try {
                return consoleText(process).contains("[1, 4, 9, 7]");
            } catch (Check.Failure notYet) {
                return false;
            }
        }, 10_000);
        String console = consoleText(process);
        Check.isTrue(console.lines().anyMatch("[1, 4, 9, 7]"::equals),
                "the Console shows MergeSort's output [1, 4, 9, 7] (the paper's wrong result): " + console);
        Check.equal(0, process.getExitValue(), "exit code");
    }

    /** The text of the Console page of {@code process}. */
    private static String consoleText(IProcess process) {
        for (IConsole c : ConsolePlugin.getDefault().getConsoleManager().getConsoles()) {
            if (c instanceof org.eclipse.debug.ui.console.IConsole pc && pc.getProcess() == process
                    && c instanceof TextConsole text) {
                return text.getDocument().get();
            }
        }
        throw new Check.Failure("no Console page for the launched process");
    }

    private static Expression shortcutEnablement(String id) throws Exception {
        return shortcutEnablement(id, LaunchAttributes.MODE);
    }

    private static Expression shortcutEnablement(String id, String mode) throws Exception {
        for (IConfigurationElement e : Platform.getExtensionRegistry()
                .getConfigurationElementsFor("org.eclipse.debug.ui.launchShortcuts")) {
            if (id.equals(e.getAttribute("id"))) {
                Check.isTrue(e.getAttribute("modes").contains(mode), "shortcut " + id + " for mode " + mode);
                IConfigurationElement ctx = e.getChildren("contextualLaunch")[0];
                return ExpressionConverter.getDefault().perform(ctx.getChildren("enablement")[0]);
            }
        }
        throw new Check.Failure("launch shortcut " + id + " is not registered");
    }

    /** Evaluates the enablement as the Run As / Debug As menus do, with the selection {@code element}. */
    private static boolean offered(Expression enablement, Object element) throws Exception {
        List<Object> selection = List.of(element);
        EvaluationContext context = new EvaluationContext(null, selection);
        context.addVariable("selection", selection);
        context.setAllowPluginActivation(true);
        return enablement.evaluate(context) == EvaluationResult.TRUE;
    }
}
