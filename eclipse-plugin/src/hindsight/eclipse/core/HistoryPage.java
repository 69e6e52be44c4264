package hindsight.eclipse.core;

import java.util.List;

/**
 * A page of a variable's changes.
 *
 * @param total the changes over the whole run
 * @param offset the index of the first entry
 * @param entries the changes, in time order
 */
public record HistoryPage(int total, int offset, List<HistoryEntry> entries) {
}
