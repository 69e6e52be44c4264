package hindsight.eclipse.views;

import org.eclipse.core.resources.IFile;
import org.eclipse.core.resources.ResourcesPlugin;
import org.eclipse.jdt.core.IJavaElement;
import org.eclipse.jdt.core.IJavaProject;
import org.eclipse.jdt.core.IMethod;
import org.eclipse.jdt.core.IType;
import org.eclipse.jdt.core.JavaCore;
import org.eclipse.jdt.core.JavaModelException;
import org.eclipse.jdt.ui.JavaUI;
import org.eclipse.jface.text.BadLocationException;
import org.eclipse.jface.text.IDocument;
import org.eclipse.jface.text.IRegion;
import org.eclipse.ui.IEditorPart;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.PartInitException;
import org.eclipse.ui.ide.IDE;
import org.eclipse.ui.texteditor.ITextEditor;

/**
 * Opens the source of a recorded call or event: the workspace's Java editor for a class of a Java
 * project, the class file editor for a library class (with its attached source, or its outline
 * when it has none).
 */
public final class SourceLines {
    private SourceLines() {
    }

    /** {@code pkg.Class} of {@code pkg.Class.method}, nested classes as their top-level class. */
    static String className(String method) {
        String cls = method.substring(0, method.lastIndexOf('.'));
        int nested = cls.indexOf('$');
        return nested >= 0 ? cls.substring(0, nested) : cls;
    }

    /**
     * Opens the class of {@code method} ({@code pkg.Class.method}) in an editor and selects
     * {@code line}; the editor, or null when no Java project has the class's source.
     */
    public static ITextEditor open(IWorkbenchPage page, String method, int line) throws PartInitException {
        if (method == null || line <= 0 || method.lastIndexOf('.') < 0) {
            return null;
        }
        IFile file = file(className(method));
        if (file == null) {
            return null;
        }
        IEditorPart part = IDE.openEditor(page, file);
        if (!(part instanceof ITextEditor editor)) {
            return null;
        }
        select(editor, line);
        return editor;
    }

    /** Selects {@code line} (from 1) of the editor; a line beyond the document leaves it at its top. */
    public static void select(ITextEditor editor, int line) {
        IDocument doc = editor.getDocumentProvider().getDocument(editor.getEditorInput());
        try {
            IRegion r = doc.getLineInformation(line - 1);
            editor.selectAndReveal(r.getOffset(), r.getLength());
        } catch (BadLocationException e) {
            // The source changed since the recording.
        }
    }

    /**
     * Opens {@code method}'s line, a project's source or a library's class file; returns why
     * it could not (shown to the user), or null.
     */
    public static String openReporting(IWorkbenchPage page, String method, int line) {
        if (method == null || method.lastIndexOf('.') < 0) {
            return "no method recorded for this row";
        }
        try {
            if (line > 0 && open(page, method, line) != null) {
                return null;
            }
            return openMethod(page, method);
        } catch (PartInitException e) {
            return e.getMessage();
        }
    }

    /**
     * Opens the declaration of {@code method} ({@code pkg.Class.method}): in the Java editor, or
     * the class file editor for a library class; returns why not, or null.
     */
    public static String openMethod(IWorkbenchPage page, String method) {
        if (method == null || method.lastIndexOf('.') < 0) {
            return "this node is not a call";
        }
        String cls = method.substring(0, method.lastIndexOf('.')).replace('$', '.');
        String name = method.substring(method.lastIndexOf('.') + 1);
        IType type = type(cls);
        if (type == null) {
            return cls + " is in no Java project of the workspace nor on their build paths: no source to show";
        }
        try {
            IJavaElement target = type;
            for (IMethod m : type.getMethods()) {
                if (m.getElementName().equals(name) || name.equals("<init>") && m.isConstructor()) {
                    target = m;
                    break;
                }
            }
            JavaUI.openInEditor(target);
            return null;
        } catch (PartInitException | JavaModelException e) {
            return "cannot open " + cls + ": " + e.getMessage();
        }
    }

    /** The type named {@code cls} in any Java project (sources first, then build paths). */
    static IType type(String cls) {
        try {
            IType fallback = null;
            for (IJavaProject p : JavaCore.create(ResourcesPlugin.getWorkspace().getRoot()).getJavaProjects()) {
                IType t = p.findType(cls);
                if (t != null && t.getResource() instanceof IFile) {
                    return t;
                }
                fallback = fallback != null ? fallback : t;
            }
            return fallback;
        } catch (JavaModelException e) {
            return null;
        }
    }

    /** The source file of {@code cls} in a Java project, or null. */
    public static IFile file(String cls) {
        IType t = type(cls);
        return t != null && t.getResource() instanceof IFile f ? f : null;
    }

    /** The text of the selected line in {@code editor}. */
    public static String selectedText(ITextEditor editor) {
        var sel = editor.getSelectionProvider().getSelection();
        return sel instanceof org.eclipse.jface.text.ITextSelection t ? t.getText() : null;
    }
}
