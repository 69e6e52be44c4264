package hindsight.eclipse.core;

import java.util.List;

/**
 * A page of the fields or elements of an object or array ({@link TraceSession#variableChildren}).
 *
 * @param size how many fields or elements it has in all (for paging), -1 when unknown
 * @param offset the position of the first one in the page
 * @param children the page's fields or elements, each expandable in turn
 */
public record VariablePage(int size, int offset, List<VariableValue> children) {
    public VariablePage {
        children = List.copyOf(children);
    }
}
