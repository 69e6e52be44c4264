package hindsight.eclipse.views;

import org.eclipse.core.resources.IFile;
import org.eclipse.core.resources.ResourcesPlugin;
import org.eclipse.jdt.core.IJavaProject;
import org.eclipse.jdt.core.IType;
import org.eclipse.jdt.core.JavaCore;
import org.eclipse.jface.text.BadLocationException;
import org.eclipse.jface.text.IDocument;
import org.eclipse.jface.text.IRegion;
import org.eclipse.ui.IEditorPart;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.PartInitException;
import org.eclipse.ui.ide.IDE;
import org.eclipse.ui.texteditor.ITextEditor;

/** Opens the source line of a recorded event in the workspace's Java editor. */
public final class SourceLines {
    private SourceLines() {
    }

    /**
     * Opens the class of {@code method} ({@code pkg.Class.method}) in an editor and selects
     * {@code line}; the editor, or null when no Java project has the class's source.
     */
    public static ITextEditor open(IWorkbenchPage page, String method, int line) throws PartInitException {
        if (method == null || line <= 0 || method.lastIndexOf('.') < 0) {
            return null;
        }
        String cls = method.substring(0, method.lastIndexOf('.'));
        int nested = cls.indexOf('$');
        if (nested >= 0) {
            cls = cls.substring(0, nested);
        }
        IFile file = find(cls);
        if (file == null) {
            return null;
        }
        IEditorPart part = IDE.openEditor(page, file);
        if (!(part instanceof ITextEditor editor)) {
            return null;
        }
        IDocument doc = editor.getDocumentProvider().getDocument(editor.getEditorInput());
        try {
            IRegion r = doc.getLineInformation(line - 1);
            editor.selectAndReveal(r.getOffset(), r.getLength());
        } catch (BadLocationException e) {
            // The source changed since the recording: the editor stays open at its top.
        }
        return editor;
    }

    private static IFile find(String cls) {
        try {
            for (IJavaProject p : JavaCore.create(ResourcesPlugin.getWorkspace().getRoot()).getJavaProjects()) {
                IType t = p.findType(cls);
                if (t != null && t.getResource() instanceof IFile f) {
                    return f;
                }
            }
        } catch (org.eclipse.jdt.core.JavaModelException e) {
            return null;
        }
        return null;
    }

    /** The text of the selected line in {@code editor}. */
    public static String selectedText(ITextEditor editor) {
        var sel = editor.getSelectionProvider().getSelection();
        return sel instanceof org.eclipse.jface.text.ITextSelection t ? t.getText() : null;
    }
}
