package hindsight.eclipse.core;

import java.util.List;

/**
 * A variable's value at both bounds of a node state.
 *
 * @param path the core's variable path, e.g. {@code c[2]}
 * @param name the name shown, e.g. {@code [2]}
 * @param oldValue the value at the lower bound
 * @param newValue the value at the upper bound
 * @param change whether it changed
 * @param children the fields or elements of an object or array (empty for primitives)
 */
public record VariableValue(String path, String name, String oldValue, String newValue, Change change,
        List<VariableValue> children) {
    public VariableValue {
        children = List.copyOf(children);
    }

    /** How a variable changed between the bounds. */
    public enum Change {
        /** Same value. */
        NONE,
        /** The variable itself was assigned (shown red). */
        CHANGED,
        /** Something reachable from it changed (shown yellow). */
        CONTENTS_CHANGED
    }
}
