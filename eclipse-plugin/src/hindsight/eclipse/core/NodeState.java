package hindsight.eclipse.core;

import java.util.List;

/**
 * The variables of a call between two timestamps.
 *
 * @param node the node
 * @param from the lower bound (the call's entry by default)
 * @param at the upper bound
 * @param variables arguments, locals, {@code this}, statics, each expandable through its children
 */
public record NodeState(long node, long from, long at, List<VariableValue> variables) {
    public NodeState {
        variables = List.copyOf(variables);
    }
}
