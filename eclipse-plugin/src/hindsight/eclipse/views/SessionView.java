package hindsight.eclipse.views;

import hindsight.eclipse.core.Sessions;
import hindsight.eclipse.core.TraceSession;
import java.util.function.Consumer;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Label;
import org.eclipse.ui.part.PageBook;
import org.eclipse.ui.part.ViewPart;

/**
 * A view over the open trace session: it shows "No trace open" until a session exists, then its
 * content, and follows {@link Sessions} as traces open and close.
 */
public abstract class SessionView extends ViewPart {
    /** The text shown while no trace is open. */
    public static final String EMPTY_TEXT = "No trace open";

    private PageBook book;
    private Label empty;
    private Control content;
    private boolean emptyShowing;
    private final Consumer<TraceSession> listener = s -> {
        if (book != null && !book.isDisposed()) {
            book.getDisplay().asyncExec(() -> {
                if (!book.isDisposed()) {
                    show(s);
                }
            });
        }
    };

    @Override
    public final void createPartControl(Composite parent) {
        book = new PageBook(parent, SWT.NONE);
        empty = new Label(book, SWT.CENTER | SWT.WRAP);
        empty.setText(EMPTY_TEXT);
        content = createContent(book);
        Sessions.addListener(listener);
        show(Sessions.current());
    }

    private void show(TraceSession session) {
        emptyShowing = session == null;
        book.showPage(emptyShowing ? empty : content);
        setContentDescription(session == null ? "" : session.name());
        sessionChanged(session);
    }

    /** True while the view's page is the empty state ("No trace open"), visible or not. */
    public boolean isEmptyStateShowing() {
        return emptyShowing;
    }

    /** The session shown, or null. */
    protected TraceSession session() {
        return Sessions.current();
    }

    /** Creates the view's content under {@code parent}. */
    protected abstract Control createContent(Composite parent);

    /** Shows {@code session} (null: none); called in the UI thread. */
    protected abstract void sessionChanged(TraceSession session);

    /** Shows a core error in the view's description line and logs it. */
    protected void showError(String what, Throwable e) {
        setContentDescription(what + ": " + e.getMessage());
        hindsight.eclipse.Activator.log(what, e);
    }

    @Override
    public void dispose() {
        Sessions.removeListener(listener);
        super.dispose();
    }
}
