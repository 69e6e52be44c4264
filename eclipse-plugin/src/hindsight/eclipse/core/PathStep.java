package hindsight.eclipse.core;

/**
 * One step of the way from the root to a node ({@link TraceSession#pathTo}).
 *
 * @param id the node on the way
 * @param index its position among its parent's children (0 for the root)
 */
public record PathStep(long id, int index) {
}
