package hindsight.eclipse.actions;

import hindsight.eclipse.core.VariableValue;
import hindsight.eclipse.views.VariableHistoryView;
import org.eclipse.core.commands.AbstractHandler;
import org.eclipse.core.commands.ExecutionEvent;
import org.eclipse.debug.ui.DebugUITools;
import org.eclipse.jdt.core.IField;
import org.eclipse.jdt.core.IJavaElement;
import org.eclipse.jdt.core.ILocalVariable;
import org.eclipse.jdt.core.ITypeRoot;
import org.eclipse.jdt.core.JavaModelException;
import org.eclipse.jdt.core.Flags;
import org.eclipse.jdt.debug.core.IJavaStackFrame;
import org.eclipse.jdt.debug.core.IJavaVariable;
import org.eclipse.jdt.ui.JavaUI;
import org.eclipse.jface.dialogs.MessageDialog;
import org.eclipse.jface.text.ITextSelection;
import org.eclipse.jface.viewers.ISelection;
import org.eclipse.jface.viewers.IStructuredSelection;
import org.eclipse.jface.viewers.ITreeSelection;
import org.eclipse.jface.viewers.TreePath;
import org.eclipse.ui.IEditorPart;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.PartInitException;
import org.eclipse.ui.handlers.HandlerUtil;

/**
 * Show in History: the Variable History of the selected variable, from the Node view, from JDT's
 * Variables view or from the Java editor while a Hindsight launch is suspended in the Java
 * debugger (the variable of the selected stack frame, up to the suspended moment).
 */
public class ShowInHistoryHandler extends AbstractHandler {
    @Override
    public Object execute(ExecutionEvent event) {
        IWorkbenchPage page = Views.page(event);
        if (page == null) {
            return null;
        }
        ISelection selection = HandlerUtil.getCurrentSelection(event);
        if (selection instanceof IStructuredSelection s && s.getFirstElement() instanceof VariableValue v) {
            show(page, v.path(), hindsight.eclipse.views.Paths.display(v.path()));
            return null;
        }
        IJavaStackFrame frame = DebugUITools.getDebugContext() == null ? null
                : DebugUITools.getDebugContext().getAdapter(IJavaStackFrame.class);
        try {
            SuspendedVariable variable = null;
            if (selection instanceof ITreeSelection t && !t.isEmpty()
                    && t.getFirstElement() instanceof IJavaVariable) {
                variable = SuspendedVariable.of(t.getPaths()[0]);
            } else if (selection instanceof ITextSelection text) {
                variable = fromEditor(HandlerUtil.getActiveEditor(event), text);
            }
            if (variable == null) {
                tell(page, "Select a variable in the Node view, in the Variables view or in the Java editor.");
                return null;
            }
            if (frame == null) {
                tell(page, "No stack frame is selected: suspend the Hindsight launch at a breakpoint first.");
                return null;
            }
            SuspendedVariable v = variable;
            SuspendedHistory.find(frame, v, path -> show(page, path, v.display()), message -> tell(page, message));
        } catch (Exception e) {
            tell(page, "Cannot show the history: " + e.getMessage());
        }
        return null;
    }

    /** The variable under the editor's selection: a local, a field of {@code this}, a static field. */
    private static SuspendedVariable fromEditor(IEditorPart editor, ITextSelection text) throws JavaModelException {
        if (editor == null) {
            return null;
        }
        ITypeRoot root = JavaUI.getEditorInputTypeRoot(editor.getEditorInput());
        if (root == null) {
            return null;
        }
        for (IJavaElement e : root.codeSelect(text.getOffset(), text.getLength())) {
            if (e instanceof ILocalVariable local) {
                return new SuspendedVariable(local.getElementName(), false);
            }
            if (e instanceof IField f) {
                if (Flags.isStatic(f.getFlags())) {
                    return new SuspendedVariable("static:" + f.getDeclaringType().getFullyQualifiedName() + "."
                            + f.getElementName(), true);
                }
                return new SuspendedVariable("this." + f.getElementName(), false);
            }
        }
        return null;
    }

    static void show(IWorkbenchPage page, String path, String display) {
        page.getWorkbenchWindow().getShell().getDisplay().asyncExec(() -> {
            try {
                VariableHistoryView h = (VariableHistoryView) page.showView(VariableHistoryView.ID);
                h.showHistory(path, display);
            } catch (PartInitException e) {
                hindsight.eclipse.Activator.log("opening the Variable History", e);
            }
        });
    }

    static void tell(IWorkbenchPage page, String message) {
        page.getWorkbenchWindow().getShell().getDisplay().asyncExec(
                () -> MessageDialog.openInformation(page.getWorkbenchWindow().getShell(), "Hindsight", message));
    }

    /**
     * A variable as the Java debugger shows it: a path relative to its stack frame's call
     * ({@code c[2]}, {@code this.next.value}), or absolute ({@code static:pkg.C.f}).
     */
    record SuspendedVariable(String path, boolean absolute) {
        /** The path of a Variables view selection: its segments from the frame's variable down. */
        static SuspendedVariable of(TreePath tree) throws org.eclipse.debug.core.DebugException {
            StringBuilder b = new StringBuilder();
            boolean absolute = false;
            for (int i = 0; i < tree.getSegmentCount(); i++) {
                if (!(tree.getSegment(i) instanceof IJavaVariable v)) {
                    continue;
                }
                String name = v.getName();
                if (v instanceof org.eclipse.jdt.debug.core.IJavaFieldVariable f && f.isStatic()) {
                    b.setLength(0);
                    b.append("static:").append(f.getDeclaringType().getName()).append('.').append(name);
                    absolute = true;
                } else if (name.startsWith("[")) {
                    b.append(name);
                } else {
                    b.append(b.length() == 0 ? "" : ".").append(name);
                }
            }
            return b.length() == 0 ? null : new SuspendedVariable(b.toString(), absolute);
        }

        String display() {
            return absolute ? path.substring("static:".length()) : path;
        }
    }
}
