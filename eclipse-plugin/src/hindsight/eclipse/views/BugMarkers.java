package hindsight.eclipse.views;

import hindsight.eclipse.Activator;
import hindsight.eclipse.core.BugReport;
import java.util.HashMap;
import java.util.Map;
import org.eclipse.core.resources.IFile;
import org.eclipse.core.resources.IMarker;
import org.eclipse.core.resources.IResource;
import org.eclipse.core.resources.ResourcesPlugin;
import org.eclipse.core.runtime.CoreException;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.ide.IDE;
import org.eclipse.ui.texteditor.ITextEditor;

/**
 * The bug in the editor: a problem marker in the Problems view ("Hindsight: bug in
 * MergeSort.merge, lines 10-12, found with 7 answers"; a buggy loop, iteration or chain says
 * which: "bug in SumNumbers.sumNumbers (loop iteration), lines 13-14") and one marker per line
 * the buggy node executed itself (Lemma 1 of the generalized-AD paper: its code minus its
 * children's), shown as Hindsight annotations (ruler icon, overview ruler colour). They are not
 * persistent and are removed when the session closes.
 */
public final class BugMarkers {
    /** The problem marker's type (plugin.xml). */
    public static final String BUG = Activator.PLUGIN_ID + ".bug";
    /** The executed lines' marker type, shown as the annotation type of the same name. */
    public static final String LINE = Activator.PLUGIN_ID + ".bugLine";

    private BugMarkers() {
    }

    /**
     * Marks the buggy call's lines in its source file and opens the editor on them; returns
     * what the user should read when the class has no source in the workspace, or null.
     */
    public static String show(IWorkbenchPage page, BugReport bug, int answers) {
        clear();
        boolean method = bug.method() != null && bug.method().lastIndexOf('.') > 0;
        IFile file = method ? SourceLines.file(SourceLines.className(bug.method())) : null;
        String message = "Hindsight: bug in " + bug.title() + ", " + bug.linesText() + ", found with " + answers
                + (answers == 1 ? " answer" : " answers");
        if (!method) {
            return message + " (the buggy node's steps run in several methods: answer its steps to find one)";
        }
        if (file == null) {
            String why = SourceLines.openMethod(page, bug.method());
            return why != null ? why : message + " (a library class: no marker, the class file editor shows it)";
        }
        try {
            shown = true;
            IMarker problem = file.createMarker(BUG);
            Map<String, Object> a = new HashMap<>();
            a.put(IMarker.MESSAGE, message);
            a.put(IMarker.SEVERITY, IMarker.SEVERITY_ERROR);
            a.put(IMarker.PRIORITY, IMarker.PRIORITY_HIGH);
            a.put(IMarker.TRANSIENT, true);
            if (!bug.lines().isEmpty()) {
                a.put(IMarker.LINE_NUMBER, bug.lines().get(0));
            }
            problem.setAttributes(a);
            for (int line : bug.lines()) {
                IMarker m = file.createMarker(LINE);
                m.setAttributes(new String[] {IMarker.MESSAGE, IMarker.LINE_NUMBER, IMarker.TRANSIENT},
                        new Object[] {"Run by the buggy " + bug.kind().noun() + " of " + bug.method()
                                + " itself (not by what it called)", line, true});
            }
            ITextEditor editor = IDE.openEditor(page, problem).getAdapter(ITextEditor.class);
            if (editor != null && !bug.lines().isEmpty()) {
                SourceLines.select(editor, bug.lines().get(0));
            }
            return null;
        } catch (CoreException e) {
            Activator.log("marking the bug in " + file, e);
            return "cannot mark the bug in " + file.getFullPath() + ": " + e.getMessage();
        }
    }

    /** Whether markers may exist: clearing none touches no workspace lock. */
    private static volatile boolean shown;

    /** Removes every Hindsight marker of the workspace. */
    public static void clear() {
        if (!shown) {
            return;
        }
        shown = false;
        try {
            ResourcesPlugin.getWorkspace().getRoot().deleteMarkers(BUG, true, IResource.DEPTH_INFINITE);
            ResourcesPlugin.getWorkspace().getRoot().deleteMarkers(LINE, true, IResource.DEPTH_INFINITE);
        } catch (CoreException e) {
            Activator.log("removing the Hindsight markers", e);
        }
    }

}
