package hindsight.eclipse.core;

import java.util.List;

/**
 * A variable's value at both bounds of a node state.
 *
 * @param path the core's variable path, e.g. {@code 14:c[2]}
 * @param name the name shown, e.g. {@code [2]}
 * @param oldValue the value at the lower bound
 * @param newValue the value at the upper bound
 * @param change whether it changed
 * @param size how many fields or elements the object or array it refers to has at the upper bound
 *     (0 for primitives, null and unknown content): what {@link TraceSession#variableChildren} pages through
 * @param children fields or elements already fetched with the state (often none: they are read on expansion)
 */
public record VariableValue(String path, String name, String oldValue, String newValue, Change change, int size,
        List<VariableValue> children) {
    public VariableValue {
        children = List.copyOf(children);
    }

    /** A variable whose fields or elements are all given. */
    public VariableValue(String path, String name, String oldValue, String newValue, Change change,
            List<VariableValue> children) {
        this(path, name, oldValue, newValue, change, children.size(), children);
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
