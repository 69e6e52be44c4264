package hindsight.eclipse.core;

/**
 * One change of a variable.
 *
 * @param timestamp when it changed
 * @param value the value it got
 * @param node the call in which it changed
 * @param method that call's method
 * @param line the source line of the change, 0 if unknown
 */
public record HistoryEntry(long timestamp, String value, long node, String method, int line) {
}
