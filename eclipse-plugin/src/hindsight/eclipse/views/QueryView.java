package hindsight.eclipse.views;

import hindsight.eclipse.core.HindsightException;
import hindsight.eclipse.core.QueryTable;
import hindsight.eclipse.core.TraceSession;
import hindsight.eclipse.core.TreeNode;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.core.runtime.Status;
import org.eclipse.core.runtime.jobs.Job;
import org.eclipse.jface.viewers.ArrayContentProvider;
import org.eclipse.jface.viewers.ColumnLabelProvider;
import org.eclipse.jface.viewers.IStructuredSelection;
import org.eclipse.jface.viewers.TableViewer;
import org.eclipse.jface.viewers.TableViewerColumn;
import org.eclipse.swt.SWT;
import org.eclipse.swt.layout.GridData;
import org.eclipse.swt.layout.GridLayout;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Combo;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.TableColumn;
import org.eclipse.swt.widgets.Text;

/**
 * Asks the whole history (JavaTA's questions): a query bar with the core's built-in queries
 * ({@code hindsight query}) and SQL ({@code hindsight sql}), the answer in a table. A row that
 * names a call selects it in the Computation Tree; a row that names an event also moves the
 * Event List and the Node view there; double-click opens the row's source line. Queries run in
 * a Job; a bad query or SQL that writes is shown in the view.
 */
public class QueryView extends SessionView {
    public static final String ID = "hindsight.eclipse.views.queries";

    /** The combo's entry for SQL. */
    public static final String SQL = "SQL";
    /** Rows an SQL statement shows at most. */
    static final int SQL_LIMIT = 1000;

    private Combo queries;
    private Text arguments;
    private Button run;
    private Label status;
    private TableViewer viewer;
    private final List<QueryTable.Query> known = new ArrayList<>();
    private volatile QueryTable result;
    /** Requests made: only the latest one's answer is shown. */
    private int requests;
    private volatile boolean running;

    @Override
    protected Control createContent(Composite parent) {
        Composite root = new Composite(parent, SWT.NONE);
        GridLayout layout = new GridLayout(3, false);
        layout.marginWidth = 2;
        layout.marginHeight = 2;
        root.setLayout(layout);
        queries = new Combo(root, SWT.READ_ONLY | SWT.DROP_DOWN);
        queries.setLayoutData(new GridData(SWT.BEGINNING, SWT.CENTER, false, false));
        queries.setToolTipText("A built-in query (hindsight query), or SQL over the trace (hindsight sql)");
        queries.addListener(SWT.Selection, e -> usageHint());
        arguments = new Text(root, SWT.BORDER | SWT.SINGLE);
        arguments.setLayoutData(new GridData(SWT.FILL, SWT.CENTER, true, false));
        arguments.addListener(SWT.DefaultSelection, e -> runQuery());
        run = new Button(root, SWT.PUSH);
        run.setText("Run");
        run.addListener(SWT.Selection, e -> runQuery());
        status = new Label(root, SWT.WRAP);
        status.setLayoutData(new GridData(SWT.FILL, SWT.CENTER, true, false, 3, 1));
        viewer = new TableViewer(root, SWT.SINGLE | SWT.FULL_SELECTION | SWT.BORDER);
        viewer.getTable().setLayoutData(new GridData(SWT.FILL, SWT.FILL, true, true, 3, 1));
        viewer.getTable().setHeaderVisible(true);
        viewer.getTable().setLinesVisible(true);
        viewer.setContentProvider(ArrayContentProvider.getInstance());
        viewer.getTable().setToolTipText("Select: show the call (and the moment) in the other views; "
                + "double-click: open its line");
        viewer.addSelectionChangedListener(e -> {
            if (e.getSelection() instanceof IStructuredSelection s && s.getFirstElement() instanceof QueryTable.Row r) {
                follow(r);
            }
        });
        viewer.addDoubleClickListener(e -> {
            if (e.getSelection() instanceof IStructuredSelection s && s.getFirstElement() instanceof QueryTable.Row r) {
                openLine(r);
            }
        });
        fillQueries(List.of());
        return root;
    }

    private void fillQueries(List<QueryTable.Query> list) {
        String chosen = queries.getSelectionIndex() >= 0 ? queries.getItem(queries.getSelectionIndex()) : null;
        known.clear();
        known.addAll(list);
        queries.removeAll();
        for (QueryTable.Query q : list) {
            queries.add(q.name());
        }
        queries.add(SQL);
        int index = chosen == null ? -1 : queries.indexOf(chosen);
        queries.select(index >= 0 ? index : 0);
        usageHint();
        queries.getParent().layout(true);
    }

    private void usageHint() {
        String name = selectedQuery();
        String hint = SQL.equals(name) ? "SELECT ... FROM calls | events | writes | reads | lines | objects"
                : known.stream().filter(q -> q.name().equals(name)).map(QueryTable.Query::usage).findFirst()
                        .orElse("");
        arguments.setMessage(hint);
        arguments.setToolTipText(hint);
    }

    private String selectedQuery() {
        int i = queries.getSelectionIndex();
        return i < 0 ? null : queries.getItem(i);
    }

    /** Runs built-in query {@code name} (or {@link #SQL}) with {@code args}, as choosing them and Run do. */
    public void run(String name, String args) {
        int i = queries.indexOf(name);
        if (i < 0) {
            setStatus("there is no query " + name + " in the list", true);
            return;
        }
        queries.select(i);
        usageHint();
        arguments.setText(args);
        runQuery();
    }

    private void runQuery() {
        TraceSession s = session();
        String name = selectedQuery();
        String args = arguments.getText();
        if (s == null || name == null) {
            return;
        }
        boolean sql = SQL.equals(name);
        if (sql && args.isBlank()) {
            setStatus("type an SQL statement (SELECT ...) in the field", true);
            return;
        }
        int mine = ++requests;
        running = true;
        run.setEnabled(false);
        String what = sql ? "SQL" : name + (args.isBlank() ? "" : " " + args);
        setStatus("running " + what + "...", false);
        Job job = Job.create("Hindsight query: " + what, monitor -> {
            try {
                QueryTable t = sql ? s.sql(args, SQL_LIMIT) : s.query(name, args);
                ui(() -> {
                    if (mine == requests && session() == s) {
                        show(t);
                    }
                });
            } catch (HindsightException | RuntimeException e) {
                ui(() -> {
                    if (mine == requests) {
                        show(null);
                        setStatus(what + ": " + e.getMessage(), true);
                    }
                });
            } finally {
                ui(() -> {
                    if (mine == requests) {
                        running = false;
                        run.setEnabled(true);
                    }
                });
            }
            return Status.OK_STATUS;
        });
        job.schedule();
    }

    private void show(QueryTable t) {
        result = t;
        viewer.getTable().setRedraw(false);
        try {
            viewer.setInput(null);
            for (TableColumn c : viewer.getTable().getColumns()) {
                c.dispose();
            }
            if (t == null) {
                return;
            }
            for (int i = 0; i < t.columns().size(); i++) {
                int index = i;
                TableViewerColumn c = new TableViewerColumn(viewer, SWT.LEFT);
                c.getColumn().setText(t.columns().get(i));
                c.getColumn().setMoveable(true);
                c.setLabelProvider(new ColumnLabelProvider() {
                    @Override
                    public String getText(Object e) {
                        return e instanceof QueryTable.Row r && index < r.cells().size() ? r.cells().get(index) : "";
                    }
                });
            }
            viewer.setInput(t.rows().toArray());
            for (TableColumn c : viewer.getTable().getColumns()) {
                c.pack();
                c.setWidth(Math.min(Math.max(c.getWidth(), 60), 400));
            }
        } finally {
            viewer.getTable().setRedraw(true);
        }
        String count = t.rows().size() + (t.rows().size() == 1 ? " row" : " rows") + (t.truncated() ? " (more not shown)" : "");
        String summary = t.summary() == null ? "" : t.summary();
        // SQL's summary is its row count already.
        setStatus(summary.matches("\\d+ rows?.*") ? summary : count + (summary.isEmpty() ? "" : "; " + summary),
                false);
    }

    private void setStatus(String text, boolean error) {
        status.setText(text);
        status.setForeground(error ? status.getDisplay().getSystemColor(SWT.COLOR_DARK_RED) : null);
        status.getParent().layout(true);
    }

    /** The row's call selected in the tree, and its moment in the Event List and the Node view. */
    private void follow(QueryTable.Row r) {
        TraceSession s = session();
        if (s == null || (r.node() < 0 && r.event() < 0)) {
            return;
        }
        var page = getSite().getPage();
        Job job = Job.create("Following a query row", monitor -> {
            try {
                long id = r.node();
                if (id < 0) {
                    // An event without its call: the core's `where` names the call executing it.
                    QueryTable where = s.query("where", Long.toString(r.event()));
                    id = where.rows().isEmpty() ? -1 : where.rows().get(0).node();
                }
                if (id < 0) {
                    return Status.OK_STATUS;
                }
                TreeNode node = Navigation.node(s, id);
                long call = id;
                ui(() -> {
                    if (session() != s) {
                        return;
                    }
                    if (page.findView(ComputationTreeView.ID) instanceof ComputationTreeView tree) {
                        tree.reveal(call);
                    }
                    if (node != null && r.event() >= 0) {
                        if (page.findView(EventListView.ID) instanceof EventListView events) {
                            events.showNode(node, r.event());
                        }
                        if (page.findView(NodeView.ID) instanceof NodeView nodes) {
                            nodes.showAt(node, r.event(), "at the query's event (t=" + r.event() + ")");
                        }
                    }
                });
            } catch (HindsightException | RuntimeException e) {
                ui(() -> setStatus("following the row: " + e.getMessage(), true));
            }
            return Status.OK_STATUS;
        });
        job.setSystem(true);
        job.schedule();
    }

    private void openLine(QueryTable.Row r) {
        String why = SourceLines.openReporting(getSite().getPage(), r.method(), r.line());
        if (why != null) {
            setStatus(why, true);
        }
    }

    private void ui(Runnable r) {
        if (!viewer.getControl().isDisposed()) {
            viewer.getControl().getDisplay().asyncExec(() -> {
                if (!viewer.getControl().isDisposed()) {
                    r.run();
                }
            });
        }
    }

    @Override
    protected void sessionChanged(TraceSession session) {
        requests++;
        running = false;
        run.setEnabled(true);
        show(null);
        setStatus(session == null ? "" : "Choose a query, type its arguments, Run", false);
        if (session == null) {
            return;
        }
        Job job = Job.create("Reading the query catalogue", monitor -> {
            try {
                List<QueryTable.Query> list = session.queries();
                ui(() -> {
                    if (session() == session) {
                        fillQueries(list);
                    }
                });
            } catch (HindsightException | RuntimeException e) {
                ui(() -> setStatus("reading the query catalogue: " + e.getMessage(), true));
            }
            return Status.OK_STATUS;
        });
        job.setSystem(true);
        job.schedule();
    }

    /** The answer shown (null: none), for tests. */
    public QueryTable result() {
        return result;
    }

    /** Whether a query is running, for tests. */
    public boolean isRunning() {
        return running;
    }

    /** The status line (summary or error), for tests. */
    public String statusText() {
        return status.getText();
    }

    /** The names in the query combo, for tests. */
    public List<String> queryNames() {
        return List.of(queries.getItems());
    }

    /** The result table, for tests. */
    public TableViewer viewer() {
        return viewer;
    }

    @Override
    public void setFocus() {
        arguments.setFocus();
    }
}
