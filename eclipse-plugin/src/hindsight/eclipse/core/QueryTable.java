package hindsight.eclipse.core;

import java.util.List;

/**
 * The answer of a built-in query or of an SQL statement as the Queries view shows it: columns,
 * rows of text cells, and for each row where it leads.
 *
 * @param columns the column titles
 * @param rows the rows, each as many cells as there are columns
 * @param summary the answer's fields that are not rows ({@code total: 3}), or the row count
 * @param truncated whether more rows exist than were given (the limit was reached)
 */
public record QueryTable(List<String> columns, List<Row> rows, String summary, boolean truncated) {
    /**
     * One row and where it leads.
     *
     * @param cells the row's text, one per column
     * @param node the call it names ({@code -1}: none)
     * @param event the event it names, a timestamp ({@code -1}: none)
     * @param method the method of its source line (may be null)
     * @param file the source file (may be null)
     * @param line the source line ({@code 0}: none)
     */
    public record Row(List<String> cells, long node, long event, String method, String file, int line) {
    }

    /** A built-in query as the query bar lists it: its name and usage line. */
    public record Query(String name, String usage) {
    }
}
