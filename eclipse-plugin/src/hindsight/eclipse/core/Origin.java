package hindsight.eclipse.core;

/**
 * Where a value came from: the event that wrote it and what that event read.
 *
 * @param timestamp the writing event
 * @param node its call
 * @param method its method
 * @param line its source line, 0 if unknown
 * @param description the assignment as text, e.g. {@code c[lb++] = a[la++]}
 * @param sourcePath the variable the value was read from, or null for a constant or a result
 */
public record Origin(long timestamp, long node, String method, int line, String description, String sourcePath) {
}
