package hindsight.eclipse.views;

import java.util.function.Function;
import org.eclipse.jface.viewers.ColumnLabelProvider;
import org.eclipse.jface.viewers.ColumnViewer;
import org.eclipse.jface.viewers.TableViewer;
import org.eclipse.jface.viewers.TableViewerColumn;
import org.eclipse.jface.viewers.TreeViewer;
import org.eclipse.jface.viewers.TreeViewerColumn;
import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.Color;

/** Adds text columns to table and tree viewers. */
final class Columns {
    private Columns() {
    }

    static <T> void add(ColumnViewer viewer, String title, int width, Class<T> type, Function<T, String> text,
            Function<T, Color> foreground, Function<T, Color> background) {
        ColumnLabelProvider labels = new ColumnLabelProvider() {
            @Override
            public String getText(Object e) {
                return type.isInstance(e) ? text.apply(type.cast(e)) : "";
            }

            @Override
            public Color getForeground(Object e) {
                return type.isInstance(e) && foreground != null ? foreground.apply(type.cast(e)) : null;
            }

            @Override
            public Color getBackground(Object e) {
                return type.isInstance(e) && background != null ? background.apply(type.cast(e)) : null;
            }
        };
        if (viewer instanceof TableViewer t) {
            TableViewerColumn c = new TableViewerColumn(t, SWT.LEFT);
            c.getColumn().setText(title);
            c.getColumn().setWidth(width);
            c.setLabelProvider(labels);
            t.getTable().setHeaderVisible(true);
        } else if (viewer instanceof TreeViewer t) {
            TreeViewerColumn c = new TreeViewerColumn(t, SWT.LEFT);
            c.getColumn().setText(title);
            c.getColumn().setWidth(width);
            c.setLabelProvider(labels);
            t.getTree().setHeaderVisible(true);
        }
    }
}
