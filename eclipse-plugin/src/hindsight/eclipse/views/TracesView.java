package hindsight.eclipse.views;

import hindsight.eclipse.actions.OpenTraceHandler;
import hindsight.eclipse.core.Sessions;
import hindsight.eclipse.core.TraceSession;
import hindsight.eclipse.launch.LaunchAttributes;
import hindsight.eclipse.launch.TraceStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.DateFormat;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.eclipse.core.runtime.CoreException;
import org.eclipse.debug.core.DebugPlugin;
import org.eclipse.debug.core.ILaunchConfiguration;
import org.eclipse.jface.action.Action;
import org.eclipse.jface.action.IToolBarManager;
import org.eclipse.jface.action.MenuManager;
import org.eclipse.jface.dialogs.MessageDialog;
import org.eclipse.jface.viewers.ArrayContentProvider;
import org.eclipse.jface.viewers.IStructuredSelection;
import org.eclipse.jface.viewers.TableViewer;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.ui.ISharedImages;
import org.eclipse.ui.PlatformUI;
import org.eclipse.ui.part.ViewPart;

/**
 * The traces kept: the default folder and every folder a launch configuration names. Open one
 * (double-click), delete the selected ones; the trace of the open session is marked.
 */
public class TracesView extends ViewPart {
    public static final String ID = "hindsight.eclipse.views.traces";

    /** One trace file. */
    public record Trace(Path path, long bytes, long modified) {
        public String name() {
            return path.getFileName().toString();
        }
    }

    private TableViewer viewer;
    private final java.util.function.Consumer<TraceSession> listener = s -> {
        if (viewer != null && !viewer.getControl().isDisposed()) {
            viewer.getControl().getDisplay().asyncExec(this::refresh);
        }
    };

    @Override
    public void createPartControl(Composite parent) {
        viewer = new TableViewer(parent, SWT.MULTI | SWT.FULL_SELECTION);
        viewer.setContentProvider(ArrayContentProvider.getInstance());
        Columns.add(viewer, "Trace", 300, Trace.class, t -> (isOpen(t) ? "\u25b6 " : "") + t.name(), null, null);
        Columns.add(viewer, "Recorded", 160, Trace.class,
                t -> DateFormat.getDateTimeInstance().format(new Date(t.modified())), null, null);
        Columns.add(viewer, "Size", 90, Trace.class, t -> String.format("%,d KiB", t.bytes() / 1024), null, null);
        Columns.add(viewer, "Folder", 400, Trace.class, t -> t.path().getParent().toString(), null, null);
        viewer.getTable().setToolTipText("\u25b6 the trace the views show. Double-click: open");
        viewer.addDoubleClickListener(e -> open());
        Action open = new Action("Open") {
            @Override
            public void run() {
                open();
            }
        };
        open.setToolTipText("Open the selected trace in the Hindsight views");
        open.setImageDescriptor(org.eclipse.jface.resource.ImageDescriptor.createFromImage(Theme.icon("hindsight")));
        Action delete = new Action("Delete") {
            @Override
            public void run() {
                delete();
            }
        };
        delete.setToolTipText("Delete the selected traces");
        delete.setImageDescriptor(PlatformUI.getWorkbench().getSharedImages()
                .getImageDescriptor(ISharedImages.IMG_TOOL_DELETE));
        Action refresh = new Action("Refresh") {
            @Override
            public void run() {
                refresh();
            }
        };
        refresh.setToolTipText("List the traces again");
        IToolBarManager bar = getViewSite().getActionBars().getToolBarManager();
        bar.add(open);
        bar.add(delete);
        bar.add(refresh);
        MenuManager menu = new MenuManager();
        menu.add(open);
        menu.add(delete);
        viewer.getControl().setMenu(menu.createContextMenu(viewer.getControl()));
        Sessions.addListener(listener);
        refresh();
    }

    private static boolean isOpen(Trace t) {
        TraceSession s = Sessions.current();
        return s != null && t.path().equals(s.tracePath());
    }

    /** The folders traces are kept in: the default and those of the launch configurations. */
    static Set<Path> folders() {
        Set<Path> folders = new LinkedHashSet<>();
        folders.add(TraceStore.defaultFolder());
        try {
            for (ILaunchConfiguration c : DebugPlugin.getDefault().getLaunchManager().getLaunchConfigurations()) {
                String dir = LaunchAttributes.traceDir(c);
                if (!dir.isBlank()) {
                    folders.add(Path.of(dir));
                }
            }
        } catch (CoreException e) {
            hindsight.eclipse.Activator.log("reading the launch configurations' trace folders", e);
        }
        return folders;
    }

    /** Lists the traces again. */
    public void refresh() {
        List<Trace> traces = new ArrayList<>();
        for (Path folder : folders()) {
            try {
                for (Path p : TraceStore.list(folder)) {
                    traces.add(new Trace(p, Files.size(p), Files.getLastModifiedTime(p).toMillis()));
                }
            } catch (IOException e) {
                hindsight.eclipse.Activator.log("listing " + folder, e);
            }
        }
        traces.sort((a, b) -> Long.compare(b.modified(), a.modified()));
        viewer.setInput(traces);
        setContentDescription(traces.size() + " traces in " + folders().size() + " folder(s)");
    }

    private List<Trace> selected() {
        List<Trace> out = new ArrayList<>();
        for (Object o : ((IStructuredSelection) viewer.getSelection()).toList()) {
            out.add((Trace) o);
        }
        return out;
    }

    private void open() {
        List<Trace> sel = selected();
        if (!sel.isEmpty()) {
            OpenTraceHandler.open(getSite().getShell(), sel.get(0).path());
        }
    }

    /** Deletes the selected traces (the open one is closed first), asking first. */
    public void delete() {
        List<Trace> sel = selected();
        if (sel.isEmpty() || !MessageDialog.openConfirm(getSite().getShell(), "Hindsight",
                "Delete " + (sel.size() == 1 ? sel.get(0).name() : sel.size() + " traces") + "?")) {
            return;
        }
        deleteNow(sel);
    }

    /** Deletes {@code traces} without asking (tests). */
    public void deleteNow(List<Trace> traces) {
        for (Trace t : traces) {
            if (isOpen(t)) {
                Sessions.open(null);
            }
            try {
                TraceStore.delete(t.path());
            } catch (IOException e) {
                MessageDialog.openError(getSite().getShell(), "Hindsight", "Cannot delete " + t.path() + ": "
                        + e.getMessage());
            }
        }
        refresh();
    }

    /** The viewer, for tests. */
    public TableViewer viewer() {
        return viewer;
    }

    @Override
    public void setFocus() {
        viewer.getControl().setFocus();
    }

    @Override
    public void dispose() {
        Sessions.removeListener(listener);
        super.dispose();
    }

}
