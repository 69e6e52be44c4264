package hindsight.eclipse.views;

import hindsight.eclipse.core.HindsightException;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.Status;
import org.eclipse.core.runtime.jobs.Job;
import org.eclipse.jface.viewers.ILazyContentProvider;
import org.eclipse.jface.viewers.TableViewer;
import org.eclipse.jface.viewers.Viewer;
import org.eclipse.swt.widgets.Table;

/**
 * The rows of a virtual table read in pages by Jobs: SWT asks for the rows it shows, a missing
 * page is read in the background and its rows appear when it arrives, and only the most recently
 * used pages are kept, so a table of millions of rows costs what is visible. A subclass says how
 * to read page {@code p} and, once known, how many rows there are.
 */
abstract class PagedRows<T> implements ILazyContentProvider {
    static final int PAGE = 1000;
    private static final int KEPT_PAGES = 32;

    private final TableViewer viewer;
    private final String what;
    private final Map<Integer, List<T>> pages = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Integer, List<T>> eldest) {
            return size() > KEPT_PAGES;
        }
    };
    private final Set<Integer> loading = new HashSet<>();
    /** Bumped on every reset: results of older Jobs are dropped. */
    private int generation;

    PagedRows(TableViewer viewer, String what) {
        this.viewer = viewer;
        this.what = what;
    }

    /** Reads page {@code page} (rows {@code page * PAGE ..}); runs in a Job. */
    abstract List<T> load(int page, IProgressMonitor monitor) throws HindsightException;

    /** Called in the UI thread after a page arrived: the row count to show now. */
    abstract int rowCount();

    /** Shown in the view when a page cannot be read. */
    abstract void failed(String message);

    /** Forgets every page (a new node or variable); the subclass sets the new count. */
    void reset() {
        generation++;
        pages.clear();
        loading.clear();
    }

    @Override
    public void inputChanged(Viewer v, Object oldInput, Object newInput) {
    }

    @Override
    public void updateElement(int index) {
        int page = index / PAGE;
        List<T> rows = pages.get(page);
        if (rows != null && index % PAGE < rows.size()) {
            viewer.replace(rows.get(index % PAGE), index);
        } else {
            request(page);
        }
    }

    /** The row at {@code index} if its page is here, else null (and the page is requested). */
    T row(int index) {
        List<T> rows = pages.get(index / PAGE);
        if (rows != null && index % PAGE < rows.size()) {
            return rows.get(index % PAGE);
        }
        request(index / PAGE);
        return null;
    }

    /** Reads {@code page} in a Job unless it is being read. */
    void request(int page) {
        if (!loading.add(page)) {
            return;
        }
        int gen = generation;
        Job job = Job.create("Reading " + what, monitor -> {
            try {
                List<T> rows = load(page, monitor);
                ui(() -> arrived(gen, page, rows));
            } catch (HindsightException | RuntimeException e) {
                ui(() -> {
                    if (gen == generation) {
                        loading.remove(page);
                        failed("reading " + what + ": " + e.getMessage());
                    }
                });
            }
            return monitor.isCanceled() ? Status.CANCEL_STATUS : Status.OK_STATUS;
        });
        job.schedule();
    }

    private void arrived(int gen, int page, List<T> rows) {
        if (gen != generation) {
            return;
        }
        loading.remove(page);
        pages.put(page, rows);
        Table t = viewer.getTable();
        int count = rowCount();
        grow(gen, count);
        int from = page * PAGE;
        int to = Math.min(t.getItemCount(), from + rows.size()) - 1;
        if (to >= from) {
            t.clear(from, to);
        }
        loaded(page);
    }

    /** Rows added to the table per UI task: GTK adds them one by one. */
    private static final int GROWTH = 10_000;

    /**
     * Sets the table's row count to {@code count}, in steps of {@link #GROWTH} rows per UI task,
     * so that a million rows never hold the UI thread for long.
     */
    private void grow(int gen, int count) {
        Table t = viewer.getTable();
        int now = t.getItemCount();
        if (gen != generation || now == count) {
            return;
        }
        if (count < now || count - now <= GROWTH) {
            viewer.setItemCount(count);
            return;
        }
        viewer.setItemCount(now + GROWTH);
        ui(() -> grow(gen, Math.max(count, rowCount())));
    }

    /** Called after page {@code page} arrived (UI thread). */
    void loaded(int page) {
    }

    void ui(Runnable r) {
        if (!viewer.getControl().isDisposed()) {
            viewer.getControl().getDisplay().asyncExec(() -> {
                if (!viewer.getControl().isDisposed()) {
                    r.run();
                }
            });
        }
    }
}
